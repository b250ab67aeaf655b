/**
 * A match's sides as people (issue 22): who acts for each side (the player, or the team's captain),
 * its history rows, and the notices a match sends. The stage service and the players' reports both
 * use these, so they live apart from either.
 */
import { inArray, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { MatchAction } from '../../lib/domain/match-day.ts';
import type { Slot } from '../../lib/domain/stage/format.ts';
import type { GameScore } from '../../lib/domain/stage/result.ts';
import type { Tx } from '../db/client.ts';
import { prepared } from '../db/prepared.ts';
import { matchActions, teams, users } from '../db/schema/index.ts';
import { announce, type Notice } from './notices.ts';

export interface SideActor {
  /** The user who acts for the participant: the player, or the team's captain. */
  userId: string;
  /** The participant's name: the player's or the team's. */
  name: string;
}

/** Who acts for a match's two sides, by user or by team id: prepared (db/prepared.ts), as every players' action asks it; longer lists are built each time. */
const sideActors = (solo: boolean) =>
  prepared((db) =>
    solo
      ? db
          .select({ id: users.id, name: users.username, userId: users.id })
          .from(users)
          .where(inArray(users.id, [sql.placeholder('a'), sql.placeholder('b')]))
          .prepare('side_actors_solo')
      : db
          .select({ id: teams.id, name: teams.name, userId: teams.captainId })
          .from(teams)
          .where(inArray(teams.id, [sql.placeholder('a'), sql.placeholder('b')]))
          .prepare('side_actors_teams'),
  );
const soloActors = sideActors(true);
const teamActors = sideActors(false);

/**
 * What each transaction has read of the sides, by participant id. A confirmation asked three times
 * for the same two sides (to check who acts, for the audit rows, for the statistics); the
 * transactions that ask rename no player or team and change no captain, so one read serves them
 * all. Only a transaction's reads are kept, and only as long as it lives.
 */
const readInTransaction = new WeakMap<Tx, Map<string, SideActor | null>>();

/** What `tx` has read of the sides so far: nothing outside a transaction, where nothing is kept. */
function readBy(tx: Tx): Map<string, SideActor | null> {
  if (!(tx instanceof PgTransaction)) return new Map();
  let known = readInTransaction.get(tx);
  if (!known) readInTransaction.set(tx, (known = new Map()));
  return known;
}

/** Who acts for each participant id (user ids in a solo tournament, team ids otherwise), and their names. */
export async function actorsOf(tx: Tx, soloOnly: boolean, ids: readonly (string | null)[]): Promise<Map<string, SideActor>> {
  const known = readBy(tx);
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  const missing = wanted.filter((id) => !known.has(id));
  if (missing.length > 0) {
    const rows =
      missing.length <= 2
        ? await (soloOnly ? soloActors : teamActors)(tx).execute({ a: missing[0], b: missing[1] ?? missing[0] })
        : soloOnly
          ? await tx.select({ id: users.id, name: users.username, userId: users.id }).from(users).where(inArray(users.id, missing))
          : await tx.select({ id: teams.id, name: teams.name, userId: teams.captainId }).from(teams).where(inArray(teams.id, missing));
    for (const id of missing) known.set(id, null);
    for (const r of rows) known.set(r.id, { userId: r.userId, name: r.name });
  }
  const actors = new Map<string, SideActor>();
  for (const id of wanted) {
    const actor = known.get(id);
    if (actor) actors.set(id, actor);
  }
  return actors;
}

export interface ActionRecord {
  matchId: string;
  kind: MatchAction;
  userId?: string | null;
  side?: Slot | null;
  scoreA?: number | null;
  scoreB?: number | null;
  games?: GameScore[] | null;
  reason?: string;
}

/** One row of a match's history: prepared (db/prepared.ts), as every players' action adds one. */
const actionInsert = prepared((db) =>
  db
    .insert(matchActions)
    .values({
      matchId: sql.placeholder('matchId'),
      kind: sql.placeholder('kind'),
      userId: sql.placeholder('userId'),
      side: sql.placeholder('side'),
      scoreA: sql.placeholder('scoreA'),
      scoreB: sql.placeholder('scoreB'),
      // As text: a placeholder's value goes through the column's JSON encoder, which would store a missing list as JSON null.
      games: sql`${sql.placeholder('games')}::jsonb`,
      reason: sql.placeholder('reason'),
      createdAt: sql`clock_timestamp()`,
    })
    .prepare('match_action'),
);

/** Adds rows to matches' histories (in the caller's transaction). */
export async function recordActions(tx: Tx, list: readonly ActionRecord[]): Promise<void> {
  // One statement each, stamped by the clock rather than the transaction's start, so a report and
  // the confirmation it triggered read back in the order they happened.
  for (const a of list) {
    await actionInsert(tx).execute({
      matchId: a.matchId,
      kind: a.kind,
      userId: a.userId ?? null,
      side: a.side ?? null,
      scoreA: a.scoreA ?? null,
      scoreB: a.scoreB ?? null,
      games: a.games ? JSON.stringify(a.games) : null,
      reason: a.reason ?? '',
    });
  }
}

export interface ReadyMatch {
  id: string;
  a: string | null;
  b: string | null;
  scheduledAt: Date | null;
}

/** `matchReady` to both sides of each match that just became ready with both participants known. */
export async function announceReady(tx: Tx, tournament: { id: string; title: string; soloOnly: boolean }, ready: readonly ReadyMatch[]): Promise<void> {
  const known = ready.filter((m) => m.a && m.b);
  if (known.length === 0) return;
  const actors = await actorsOf(
    tx,
    tournament.soloOnly,
    known.flatMap((m) => [m.a, m.b]),
  );
  const notices: Notice[] = [];
  for (const m of known) {
    const a = actors.get(m.a!);
    const b = actors.get(m.b!);
    if (!a || !b) continue;
    for (const [self, opponent] of [
      [a, b],
      [b, a],
    ] as const) {
      notices.push({
        userId: self.userId,
        kind: 'matchReady',
        params: { opponent: opponent.name, tournament: tournament.title, ...(m.scheduledAt ? { time: m.scheduledAt.toISOString() } : {}) },
        link: `/matches/${m.id}`,
        tournamentId: tournament.id,
      });
    }
  }
  await announce(tx, notices);
}
