import type { StageMatchView, StagesState, StageView } from '../../../../lib/api/stages.ts';
import type { Bracket } from '../../../../lib/domain/bracket.ts';
import { bracketOf } from '../../../../lib/domain/stage/legacy.ts';
import type { ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import { matchBestOfs } from '../../../../lib/domain/stage/swiss-thresholds.ts';
import { feedingMatch } from '../../../../lib/domain/stage/plan.ts';
import type { Tx } from '../../../db/client.ts';
import { lobbyView } from './ffa-views.ts';
import { finished, placementsOf, standingsOf, tablesOf, type TournamentStandings } from './standings.ts';
import { loadCompetition, loadCompetitionOf, resultColumns, type CompetitionOf, type LoadedCompetition, type LoadedStage, type MatchRow } from './store.ts';

/* Loaded stages as the API shows them: a match, a stage, a tournament's stages, its SPEC bracket. */

/**
 * Who a match is shown to: anyone (every public read, held for guests and shared by them), or the
 * tournament's organisers in an answer only they get, which carries a comment meant for them.
 */
export type MatchReader = 'public' | 'organiser';

/** The comment as everyone sees it: '' while it is for the organisers only (issue 57). */
export const publicComment = (row: Pick<MatchRow, 'comment' | 'commentPublic'>): string => (row.commentPublic ? row.comment : '');

/** Each match's best-of by a stage's resolved matches, worked out once for all of them (a Swiss with thresholds reads the records). */
const bestOfs = new WeakMap<readonly ResolvedMatch[], number[]>();

/** A match's own best-of: its round's, or in a Swiss with thresholds the deciding matches' (issue 59). */
export function bestOfAt(loaded: Pick<LoadedStage, 'stage' | 'resolved'>, index: number): number {
  let all = bestOfs.get(loaded.resolved);
  if (!all) {
    all = matchBestOfs(loaded.stage.settings, loaded.resolved);
    bestOfs.set(loaded.resolved, all);
  }
  return all[index] ?? 1;
}

export function matchView(loaded: LoadedStage, index: number, reader: MatchReader = 'public'): StageMatchView {
  const row = loaded.rows[index]!;
  const state = loaded.resolved[index]!;
  const planned = loaded.plan[index]!;
  return {
    _id: row.id,
    stage: loaded.stage.id,
    number: index + 1,
    bestOf: bestOfAt(loaded, index),
    from: { a: feedingMatch(planned.a), b: feedingMatch(planned.b) },
    group: row.groupNumber,
    side: row.side,
    round: row.round,
    position: row.position,
    a: state.a,
    b: state.b,
    ...resultColumns(state.result),
    winner: state.winner,
    status: state.status,
    bye: state.bye,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    comment: reader === 'organiser' ? row.comment : publicComment(row),
    ...(reader === 'organiser' ? { commentPublic: row.commentPublic } : {}),
    version: row.version,
    completedAt: row.completedAt?.toISOString() ?? null,
    reportState: row.reportState,
  };
}

export function stageView(loaded: LoadedStage): StageView {
  const { stage } = loaded;
  const tables = tablesOf(loaded);
  return {
    _id: stage.id,
    tournament: stage.tournamentId,
    number: stage.number,
    name: stage.name,
    format: stage.format,
    seeding: stage.seeding,
    settings: stage.settings,
    seeds: stage.seeds,
    disqualified: stage.disqualified,
    from: stage.fromStageId && stage.advance ? { stageId: stage.fromStageId, advance: stage.advance } : null,
    groups: loaded.groups.map((participants, g) => ({
      number: g + 1,
      participants,
      standings: tables[g] ?? [],
    })),
    matches: loaded.plan.map((_, index) => matchView(loaded, index)),
    lobbies: loaded.lobbies.map((lobby) => lobbyView(loaded, lobby)),
    placements: placementsOf(loaded, tables),
    complete: finished(loaded),
  };
}

/** The SPEC bracket a tournament shows (to everyone: comments for the organisers only are ''): its single-elimination stage (the last one), or none. */
export function projectedBracket(all: readonly LoadedStage[]): Bracket {
  const playoff = all.findLast((s) => s.stage.format === 'single_elimination');
  return playoff
    ? bracketOf(
        playoff.resolved,
        playoff.rows.map(publicComment),
      )
    : [];
}

/** Every stage of a tournament with its groups, matches, tables and places (`GET …/stages`). */
export async function stagesState(db: Tx, tournamentId: string): Promise<StagesState | null> {
  const loaded = await loadCompetition(db, tournamentId);
  return loaded && stateOf(loaded);
}

const stateOf = ({ row, all, participants }: LoadedCompetition): StagesState => ({
  tournament: row.id,
  version: row.bracketVersion,
  participants,
  stages: all.map(stageView),
});

/**
 * The stages and places of a tournament its caller has just read (the tournament page shows
 * both): the answers of `stagesState` and `tournamentStandings` from one read of its stages and
 * participants, without reading the tournament again.
 */
export async function competition(db: Tx, tournament: CompetitionOf): Promise<{ state: StagesState; standings: TournamentStandings }> {
  const loaded = await loadCompetitionOf(db, tournament);
  return { state: stateOf(loaded), standings: standingsOf(loaded) };
}
