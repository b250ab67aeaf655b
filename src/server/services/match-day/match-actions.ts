/**
 * A match's sides as people (issue 22): who acts for each side (the player, or the team's captain),
 * its history rows, and the notices a match sends. The stage service and the players' reports both
 * use these, so they live apart from either.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { alias, unionAll } from 'drizzle-orm/pg-core';
import type { MatchAction, NoticeSettings } from '../../../lib/domain/match-day.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import type { GameScore } from '../../../lib/domain/stage/result.ts';
import type { Tx } from '../../db/client.ts';
import { perTransaction } from '../../db/per-transaction.ts';
import { together } from '../../db/together.ts';
import { prepared } from '../../db/prepared.ts';
import { matchActions, stageMatches, teams, users } from '../../db/schema/index.ts';
import { knowReaders, noticeWrites, type Notice, type NoticeWrites } from '../notices/notices.ts';

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
const readBy = perTransaction<string, SideActor | null>();

const captains = alias(users, 'captain');

/**
 * Who acts for a stage match's two stored sides, and how each wants their notices: one statement,
 * prepared (db/prepared.ts). A participant is a user or a team by id: both are asked, one answers.
 */
const sidesOfMatch = prepared((db) => {
  const onSide = (id: typeof users.id | typeof teams.id) => or(eq(id, stageMatches.participantA), eq(id, stageMatches.participantB));
  const ofMatch = eq(stageMatches.id, sql.placeholder('matchId'));
  return unionAll(
    db
      .select({ id: users.id, name: users.username, userId: users.id, confirmed: users.emailConfirmedAt, settings: users.noticeSettings })
      .from(stageMatches)
      .innerJoin(users, onSide(users.id))
      .where(ofMatch),
    db
      .select({ id: teams.id, name: teams.name, userId: captains.id, confirmed: captains.emailConfirmedAt, settings: captains.noticeSettings })
      .from(stageMatches)
      .innerJoin(teams, onSide(teams.id))
      .innerJoin(captains, eq(captains.id, teams.captainId))
      .where(ofMatch),
  ).prepare('sides_of_match');
});

/** Who acts for a match's sides and how they want their notices (`readSides`). */
export type KnownSides = readonly { id: string; name: string; userId: string; confirmed: Date | null; settings: NoticeSettings }[];

/**
 * Who acts for a match's sides and how they want their notices, read before a players' action opens
 * its transaction (match-reports.ts): nothing a competition write changes, so the transaction takes
 * them as known (`knowSides`) and holds its tournament's lock for the checks and the writes alone.
 */
export async function readSides(db: Tx, matchId: string): Promise<KnownSides> {
  return sidesOfMatch(db).execute({ matchId });
}

/** Tells a transaction the sides read before it (`readSides`): `actorsOf` and notices.ts `announce` ask only for others. */
export function knowSides(tx: Tx, sides: KnownSides): void {
  const known = readBy(tx);
  for (const r of sides) known.set(r.id, { userId: r.userId, name: r.name });
  knowReaders(
    tx,
    sides.map((r) => ({ id: r.userId, confirmed: r.confirmed, settings: r.settings })),
  );
}

/** The side `userId` acts for in a match (the player, or the team's captain), or null. */
export function actingSide(match: { a: string | null; b: string | null }, actors: ReadonlyMap<string, SideActor>, userId: string): Slot | null {
  if (match.a && actors.get(match.a)?.userId === userId) return 'a';
  if (match.b && actors.get(match.b)?.userId === userId) return 'b';
  return null;
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

/**
 * A row of a match's history, as a write for `together` (db/together.ts): sent with the action's other
 * writes in one statement. Stamped by the clock rather than the transaction's start, so a report and
 * the confirmation it triggered read back in the order they were sent; rows of one statement would
 * tie, so an action sends at most one in each. The embedded database's clock counts milliseconds,
 * in which two actions on one match fit: a row is stamped at least a microsecond after the match's
 * latest, so the history keeps its order (its match's actions are written under its tournament's lock).
 */
export function actionWrite(a: ActionRecord): SQL {
  const games = a.games ? JSON.stringify(a.games) : null;
  return sql`insert into ${matchActions} (id, match_id, kind, user_id, side, score_a, score_b, games, reason, created_at)
    values (${randomUUID()}, ${a.matchId}, ${a.kind}, ${a.userId ?? null}, ${a.side ?? null}, ${a.scoreA ?? null}::int, ${a.scoreB ?? null}::int, ${games}::jsonb, ${a.reason ?? ''},
      greatest(clock_timestamp(), (select max(created_at) + interval '1 microsecond' from ${matchActions} where match_id = ${a.matchId})))`;
}

export interface ReadyMatch {
  id: string;
  a: string | null;
  b: string | null;
  scheduledAt: Date | null;
}

/** What a match's ready notice says of its tournament: its zone for the time, and its check-in per match (issue 58). */
type ReadyTournament = { id: string; title: string; soloOnly: boolean; timeZone?: string | null | undefined; matchCheckInMinutes?: number | null | undefined };

/** `matchReady` to both sides of each match that just became ready with both participants known. */
export async function announceReady(tx: Tx, tournament: ReadyTournament, ready: readonly ReadyMatch[]): Promise<void> {
  const notices = await readyNotices(tx, tournament, ready);
  await together(tx, notices.writes, notices.signal);
  notices.sent();
}

/** `announceReady`'s notices as writes, for a caller that sends them with its own (notices.ts `noticeWrites`). */
export async function readyNotices(tx: Tx, tournament: ReadyTournament, ready: readonly ReadyMatch[]): Promise<NoticeWrites> {
  const known = ready.filter((m) => m.a && m.b);
  const actors = await actorsOf(
    tx,
    tournament.soloOnly,
    known.flatMap((m) => [m.a, m.b]),
  );
  const notices: Notice[] = [];
  const now = Date.now();
  for (const m of known) {
    // Its check-in's time runs from now, or from its time if later (services/match-room/check-in.ts).
    const checkInBy = tournament.matchCheckInMinutes
      ? new Date(Math.max(now, m.scheduledAt?.getTime() ?? 0) + tournament.matchCheckInMinutes * 60_000).toISOString()
      : null;
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
        params: {
          opponent: opponent.name,
          tournament: tournament.title,
          ...(m.scheduledAt ? { time: m.scheduledAt.toISOString() } : {}),
          ...(checkInBy ? { checkInBy } : {}),
          ...((m.scheduledAt || checkInBy) && tournament.timeZone ? { timeZone: tournament.timeZone } : {}),
        },
        link: `/matches/${m.id}`,
        tournamentId: tournament.id,
      });
    }
  }
  return noticeWrites(tx, notices);
}
