import { asc, eq, sql } from 'drizzle-orm';
import type { MatchState } from '../../../../lib/api/stages.ts';
import type { ResolvedMatch } from '../../../../lib/domain/stage/resolve.ts';
import type { Tx } from '../../../db/client.ts';
import { prepared } from '../../../db/prepared.ts';
import { matchActions, users } from '../../../db/schema/index.ts';
import { actorsOf, type SideActor } from '../../match-day/match-actions.ts';
import { approvedParticipants } from '../../match-day/participants.ts';
import { locate, readTournamentOfMatch, stagesAt, type LockedMatch, type MatchRow, type TournamentRow } from './store.ts';
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
  const sides = [a, b].filter((id): id is string => id !== null);
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
    },
    participants,
    ...day,
  };
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

/** A match's players' side (issue 22): who acts for each side, the report waiting or disputed, the history. */
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
      reason: a.reason,
      at: a.createdAt.toISOString(),
    })),
  };
}
