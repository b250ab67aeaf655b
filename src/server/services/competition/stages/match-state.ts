import { asc, eq, sql } from 'drizzle-orm';
import type { MatchComment, MatchState } from '../../../../lib/api/stages.ts';
import type { ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import type { Tx } from '../../../db/client.ts';
import { prepared } from '../../../db/prepared.ts';
import { matchActions, stageMatches, users } from '../../../db/schema/index.ts';
import { actorsOf, type SideActor } from '../../match-day/match-actions.ts';
import { approvedParticipants } from '../../match-day/participants.ts';
import { feedingMatch, type Source } from '../../../../lib/domain/stage/plan.ts';
import { locate, readTournamentOfMatch, stagesAt, type LoadedStage, type LockedMatch, type MatchRow, type TournamentRow } from './store.ts';
import { matchView } from './views.ts';

/** A stage match with its stage and tournament (`GET /api/matches/{id}`). */
export async function findMatch(db: Tx, matchId: string): Promise<MatchState | null> {
  const [tournament] = await readTournamentOfMatch(db).execute({ matchId });
  if (!tournament) return null;
  const found = locate(tournament, await stagesAt(db, tournament, false), matchId);
  return found && matchState(db, found);
}

/**
 * A match as `GET /api/matches/{id}` shows it, from its loaded stage. A players' action answers with
 * it right after its commit, from the stage as it saved it and the actors it already read (`known`),
 * instead of reading the whole match again.
 */
export async function matchState(db: Tx, { tournament, loaded, index }: LockedMatch, known?: ReadonlyMap<string, SideActor>): Promise<MatchState> {
  const { stage } = loaded;
  const { a, b } = loaded.resolved[index]!;
  const next = { winner: nextOf(loaded, index, 'winner'), loser: nextOf(loaded, index, 'loser') };
  // The next opponents are named on the page as the sides are.
  const sides = [a, b, next.winner?.opponent ?? null, next.loser?.opponent ?? null].filter((id): id is string => id !== null);
  const [participants, day] = await Promise.all([
    sides.length > 0 ? approvedParticipants(db, tournament, { only: sides }) : [],
    matchDay(db, tournament, loaded.rows[index]!, loaded.resolved[index]!, known),
  ]);
  return {
    match: matchView(loaded, index),
    stage: {
      _id: stage.id,
      format: stage.format,
      name: stage.name,
      number: stage.number,
      settings: stage.settings,
    },
    tournament: {
      _id: tournament.id,
      title: tournament.title,
      soloOnly: tournament.soloOnly,
      timeZone: tournament.timeZone,
    },
    participants,
    next,
    ...day,
  };
}

/** The match a side of match `index` goes on to as its `kind` (a bracket's), and who waits there. */
function nextOf(loaded: LoadedStage, index: number, kind: 'winner' | 'loser'): MatchState['next']['winner'] {
  const feeds = (source: Source) => source.kind === kind && source.match === index;
  const j = loaded.plan.findIndex((planned) => feeds(planned.a) || feeds(planned.b));
  if (j === -1) return null;
  const planned = loaded.plan[j]!;
  const other = feeds(planned.a) ? 'b' : 'a';
  const opponent = loaded.resolved[j]![other];
  return { _id: loaded.rows[j]!.id, number: j + 1, opponent, waitsFor: opponent ? null : feedingMatch(planned[other]) };
}

/** A match's history, oldest first, with who acted: prepared (db/prepared.ts), as every players' action and read of a match answers with it. */
const historyOf = prepared((db) =>
  db
    .select({ action: matchActions, username: users.username })
    .from(matchActions)
    .leftJoin(users, eq(users.id, matchActions.userId))
    .where(eq(matchActions.matchId, sql.placeholder('matchId')))
    .orderBy(asc(matchActions.createdAt), asc(matchActions.id))
    .prepare('match_history'),
);

/**
 * A match's players' side (issue 22): who acts for each side, the report waiting or disputed, the
 * history. Everyone reads it: while the match's comment is for the organisers only, no result in
 * the history shows the comment it was entered with.
 */
async function matchDay(
  db: Tx,
  tournament: TournamentRow,
  row: MatchRow,
  state: ResolvedMatch,
  known?: ReadonlyMap<string, SideActor>,
): Promise<Pick<MatchState, 'actors' | 'report' | 'actions'>> {
  const sides = [state.a, state.b];
  const [actors, history] = await Promise.all([
    known && sides.every((id) => id === null || known.has(id)) ? known : actorsOf(db, tournament.soloOnly, sides),
    historyOf(db).execute({ matchId: row.id }),
  ]);
  const reported = history.findLast((h) => h.action.kind === 'report')?.action;
  return {
    actors: { a: (state.a && actors.get(state.a)?.userId) ?? null, b: (state.b && actors.get(state.b)?.userId) ?? null },
    report:
      row.reportState && row.reportedBy && reported
        ? {
            state: row.reportState,
            side: row.reportedBy,
            scoreA: reported.scoreA,
            scoreB: reported.scoreB,
            games: reported.games ?? [],
            confirmBy: row.confirmBy?.toISOString() ?? null,
          }
        : null,
    actions: history.map(({ action: a, username }) => ({
      _id: a.id,
      kind: a.kind,
      user: a.userId && username !== null ? { _id: a.userId, username } : null,
      side: a.side,
      scoreA: a.scoreA,
      scoreB: a.scoreB,
      games: a.games,
      reason: a.kind === 'result' && !row.commentPublic ? '' : a.reason,
      at: a.createdAt.toISOString(),
    })),
  };
}

/**
 * A match's comment as its organisers read it (`GET /api/matches/{id}/comment`, issue 57): its text
 * even while it is for them only, which no public read carries. Null when there is no such match.
 */
export async function matchComment(db: Tx, matchId: string): Promise<MatchComment | null> {
  const [row] = await db
    .select({ comment: stageMatches.comment, commentPublic: stageMatches.commentPublic, version: stageMatches.version })
    .from(stageMatches)
    .where(eq(stageMatches.id, matchId));
  return row ?? null;
}
