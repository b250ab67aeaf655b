import { asc, inArray } from 'drizzle-orm';
import { isStageFinished } from '../../../../lib/domain/stage/build.ts';
import { DEFAULT_TIE_BREAKERS, isElimination, tablePoints, thresholdsOf } from '../../../../lib/domain/stage/format.ts';
import { gslStandings } from '../../../../lib/domain/stage/gsl.ts';
import { recordPlacements, thresholdStandings } from '../../../../lib/domain/stage/swiss-thresholds.ts';
import { groupBandPlacements, tournamentPlacements } from '../../../../lib/domain/stage/placements.ts';
import { eliminationPlacements, groupStandings, type Placement, type StandingRow } from '../../../../lib/domain/stage/standings.ts';
import type { Tx } from '../../../db/client.ts';
import { stageMatches, stages } from '../../../db/schema/index.ts';
import { ffaFinished, ffaStagePlacements } from './ffa-views.ts';
import { load, loadCompetition, readLobbies, StageRowsMissing, type LoadedCompetition, type LoadedStage, type MatchRow, type StageRow } from './store.ts';

/* A stage's group tables and places, and a tournament's final places (`GET …/standings`, the profiles). */

/** Whether a loaded stage is over (Swiss: its last round played too). */
export const finished = (loaded: LoadedStage): boolean =>
  loaded.stage.format === 'free_for_all' ? ffaFinished(loaded) : isStageFinished(loaded.stage.format, loaded.stage.settings, loaded.groups, loaded.resolved, new Set(loaded.stage.disqualified));

const tieBreakersOf = (stage: StageRow) => stage.settings.tieBreakers ?? DEFAULT_TIE_BREAKERS[stage.format === 'swiss' ? 'swiss' : 'round_robin'];

/** Each group's table: by points and tie-breakers; a Swiss with thresholds by record and difficulty; GSL groups by how far each got. */
export function tablesOf(loaded: LoadedStage): StandingRow[][] {
  const { format, settings } = loaded.stage;
  const thresholds = format === 'swiss' ? thresholdsOf(settings) : null;
  return loaded.groups.map((members, g) => {
    const own = loaded.resolved.filter((m) => m.plan.group === g + 1);
    if (format === 'gsl') return gslStandings(members, own);
    if (thresholds) return thresholdStandings(members, own, thresholds);
    return groupStandings(members, own, { tieBreakers: tieBreakersOf(loaded.stage), points: tablePoints(settings) });
  });
}

/** A stage's places: by elimination, or (once its tables are final) by group rank. */
export function placementsOf(loaded: LoadedStage, tables: readonly StandingRow[][]): Placement[] {
  if (loaded.stage.format === 'free_for_all') return ffaStagePlacements(loaded);
  if (isElimination(loaded.stage.format)) {
    return eliminationPlacements(
      loaded.stage.seeds.filter((id): id is string => id !== null),
      loaded.resolved,
    );
  }
  if (!finished(loaded)) return [];
  return loaded.stage.format === 'swiss' && thresholdsOf(loaded.stage.settings) ? recordPlacements(tables) : groupBandPlacements(tables);
}

export interface TournamentStandings {
  final: boolean;
  placements: (Placement & { name: string })[];
}

/** A tournament's final places (`GET …/standings`): those known so far until every stage is over. */
export async function tournamentStandings(db: Tx, tournamentId: string): Promise<TournamentStandings | null> {
  const loaded = await loadCompetition(db, tournamentId);
  return loaded && standingsOf(loaded);
}

export function standingsOf({ all, participants }: LoadedCompetition): TournamentStandings {
  const names = new Map(participants.map((p) => [p._id, p.name]));
  const placements = placementsAcross(all);
  return {
    final: all.length > 0 && all.every(finished),
    placements: placements.map((p) => ({
      ...p,
      name: names.get(p.participant) ?? '',
    })),
  };
}

/** A tournament's places over all its loaded stages. */
const placementsAcross = (all: readonly LoadedStage[]): Placement[] =>
  tournamentPlacements(
    all.map((loaded) => ({ participants: loaded.stage.seeds.filter((id): id is string => id !== null), placements: placementsOf(loaded, tablesOf(loaded)) })),
  );

/**
 * The places of many tournaments at once (the profiles, issue 23), as `tournamentStandings` gives
 * each: only tournaments with stages are in the answer. Two queries whatever their number; read
 * again when a stage was replaced between them, as `loadStages` does.
 */
export async function placementsOfTournaments(db: Tx, tournamentIds: readonly string[]): Promise<Map<string, { final: boolean; placements: Placement[] }>> {
  const result = new Map<string, { final: boolean; placements: Placement[] }>();
  if (tournamentIds.length === 0) return result;
  for (let attempt = 1; ; attempt++) {
    try {
      const stageRows = await db
        .select()
        .from(stages)
        .where(inArray(stages.tournamentId, [...new Set(tournamentIds)]))
        .orderBy(asc(stages.number));
      if (stageRows.length === 0) return result;
      const matchRows = await db
        .select()
        .from(stageMatches)
        .where(
          inArray(
            stageMatches.stageId,
            stageRows.map((s) => s.id),
          ),
        );
      const rowsOf = new Map<string, MatchRow[]>();
      for (const row of matchRows) {
        const own = rowsOf.get(row.stageId) ?? [];
        own.push(row);
        rowsOf.set(row.stageId, own);
      }
      const byTournament = new Map<string, LoadedStage[]>();
      const lobbies = await readLobbies(
        db,
        stageRows.filter((s) => s.format === 'free_for_all').map((s) => s.id),
      );
      for (const stage of stageRows) {
        const all = byTournament.get(stage.tournamentId) ?? [];
        all.push(load(stage, rowsOf.get(stage.id) ?? [], lobbies.get(stage.id)));
        byTournament.set(stage.tournamentId, all);
      }
      for (const [id, all] of byTournament) result.set(id, { final: all.every(finished), placements: placementsAcross(all) });
      return result;
    } catch (error) {
      if (!(error instanceof StageRowsMissing) || attempt >= 3) throw error;
      result.clear();
    }
  }
}
