/**
 * Check-in per match (issue 58): a tournament that asks for it (`matchCheckInMinutes`) gives both
 * sides of a ready match that long to say they are here, counted from when the match became ready
 * between them (`stage_matches.ready_at`), or from its scheduled time when that is later. Anyone
 * of a side checks it in (the player; any member of the team). Both in: the match is on. At the
 * end of the time a side alone present wins by forfeit; neither present, the match is flagged for
 * the organisers (as a call: the control room lists it) and they decide.
 *
 * Every write locks the tournament (`lockMatch`), as the reports do, and the end of a match's time
 * is claimed once in `match_rooms.check_in_outcome`: however many instances sweep and requests
 * check in at once, one outcome is written. A check-in that comes after the time ran out settles
 * the match first, as the sweep would, and is refused: the clock decides, not which got there first.
 */
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { CheckInOutcome } from '../../../lib/domain/match-day.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import type { Database, Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { matchCheckIns, matchRooms, stageMatches, stages, tournaments } from '../../db/schema/index.ts';
import { lockedView, changeLockedMatch } from '../competition/stages/match-changes.ts';
import { keepingTransaction, lockMatch, type LockedMatch, type Saved } from '../competition/stages/store.ts';
import { publishTournament } from '../live/live.ts';
import { actionWrite, actorsOf } from '../match-day/match-actions.ts';
import { matchLabel, tellOrganisers } from '../match-day/organiser-notices.ts';
import { SWEEPS, type Sweep } from '../sweeps.ts';
import { sideOfPerson } from './people.ts';

/** A match's check-in as its room and its page show it. */
export interface CheckInView {
  /** When the time runs out (ISO); null while the match is not ready. */
  by: string | null;
  /** Which sides checked in. */
  a: boolean;
  b: boolean;
  /** How it ended, once it did. */
  outcome: CheckInOutcome | null;
}

/** When a match's check-in time runs out: from when it became ready, or its time if later. */
export function checkInDeadline(row: { readyAt: Date | null; scheduledAt: Date | null }, minutes: number | null): Date | null {
  if (!minutes || !row.readyAt) return null;
  const from = Math.max(row.readyAt.getTime(), row.scheduledAt?.getTime() ?? 0);
  return new Date(from + minutes * 60_000);
}

/** Which of the match's present sides checked in. */
async function present(db: Tx, matchId: string, match: { a: string | null; b: string | null }): Promise<{ a: boolean; b: boolean }> {
  const ids = [match.a, match.b].filter((id): id is string => id !== null);
  if (ids.length === 0) return { a: false, b: false };
  const rows = await db
    .select({ participantId: matchCheckIns.participantId })
    .from(matchCheckIns)
    .where(and(eq(matchCheckIns.matchId, matchId), inArray(matchCheckIns.participantId, ids)));
  const came = new Set(rows.map((r) => r.participantId));
  return { a: match.a !== null && came.has(match.a), b: match.b !== null && came.has(match.b) };
}

async function outcomeOf(db: Tx, matchId: string): Promise<CheckInOutcome | null> {
  const [row] = await db.select({ outcome: matchRooms.checkInOutcome }).from(matchRooms).where(eq(matchRooms.matchId, matchId));
  return row?.outcome ?? null;
}

/** The match's check-in, or null when its tournament asks for none. */
export async function checkInView(db: Tx, found: LockedMatch): Promise<CheckInView | null> {
  const minutes = found.tournament.matchCheckInMinutes;
  if (!minutes) return null;
  const { row, match } = lockedView(found);
  const [came, outcome] = await Promise.all([present(db, row.id, match), outcomeOf(db, row.id)]);
  const by = match.status === 'ready' ? checkInDeadline(row, minutes) : null;
  return { by: by?.toISOString() ?? null, ...came, outcome };
}

/**
 * Whether the match waits for its sides to check in: its tournament asks for it, its time runs,
 * and not both came yet. Until then the match is not on: its veto and its reports wait.
 */
export async function awaitsCheckIn(db: Tx, found: LockedMatch): Promise<boolean> {
  const { row } = lockedView(found);
  if (!checkInDeadline(row, found.tournament.matchCheckInMinutes)) return false;
  return (await outcomeOf(db, row.id)) !== 'both';
}

/** Writes the check-in's outcome, once: null when another request or instance wrote one first. */
async function claimOutcome(tx: Tx, matchId: string, outcome: CheckInOutcome, now: Date): Promise<boolean> {
  const claimed = await tx
    .insert(matchRooms)
    .values({ matchId, checkInOutcome: outcome, checkInClosedAt: now })
    .onConflictDoUpdate({ target: matchRooms.matchId, set: { checkInOutcome: outcome, checkInClosedAt: now }, where: isNull(matchRooms.checkInOutcome) })
    .returning({ matchId: matchRooms.matchId });
  return claimed.length > 0;
}

/** What settling a match's check-in did, for its caller to publish once it commits. */
type Settled = { kind: 'match'; saved: Saved } | { kind: 'room'; tournamentId: string } | null;

/**
 * Ends the locked match's check-in if its time ran out by `now` and nobody ended it yet: a side
 * alone present wins by forfeit (the result is applied as an organiser's would be), neither present
 * flags the match for the organisers and tells them. Both present ended it when the second came.
 */
async function settleIfDue(tx: Tx, found: LockedMatch, now: Date): Promise<Settled> {
  const { tournament } = found;
  const { row, match } = lockedView(found);
  if (isFinished(tournament.status) || match.status !== 'ready' || !match.a || !match.b) return null;
  const deadline = checkInDeadline(row, tournament.matchCheckInMinutes);
  if (!deadline || deadline > now) return null;
  const came = await present(tx, row.id, match);
  const outcome: CheckInOutcome = came.a && came.b ? 'both' : came.a || came.b ? 'forfeit' : 'noShow';
  if (!(await claimOutcome(tx, row.id, outcome, now))) return null;
  if (outcome === 'both') return { kind: 'room', tournamentId: tournament.id };
  if (outcome === 'forfeit') {
    const absent: Slot = came.a ? 'b' : 'a';
    const saved = await changeLockedMatch(tx, found, { forfeit: absent }, null, (m) => [actionWrite({ matchId: m._id, kind: 'noShow', side: absent })]);
    // A forfeit the engine no longer takes (a later stage already seeded) is the organisers' to decide.
    if (saved.ok && !saved.stale && !saved.preview) return { kind: 'match', saved };
  }
  await tx.update(stageMatches).set({ calledAt: now }).where(eq(stageMatches.id, row.id));
  await together(tx, [actionWrite({ matchId: row.id, kind: 'noShow' })]);
  const actors = await actorsOf(tx, tournament.soloOnly, [match.a, match.b]);
  await tellOrganisers(tx, tournament, 'matchNoShow', matchLabel(actors.get(match.a)?.name, actors.get(match.b)?.name));
  return { kind: 'room', tournamentId: tournament.id };
}

function published(settled: Settled, matchId: string): void {
  if (!settled) return;
  if (settled.kind === 'room') return publishTournament({ tournamentId: settled.tournamentId, kind: 'room', matchId });
  const { after, version } = settled.saved;
  publishTournament({ tournamentId: after.tournament.id, kind: 'match', matchId, version, counted: after.tournament.statsEnabled });
}

const savedOf = (settled: Settled) => (settled?.kind === 'match' ? settled.saved : undefined);

export type CheckInRefusal = 'notFound' | 'off' | 'notSide' | 'finished' | 'decided' | 'notReady' | 'closed' | 'already';
export type CheckInDone = { ok: true; tournamentId: string; both: boolean } | { ok: false; reason: CheckInRefusal };

/** `POST /api/matches/{id}/check-in`: a person of a side checks it in. */
export async function checkInToMatch(db: Database, matchId: string, userId: string, now = new Date()): Promise<CheckInDone> {
  let settled: Settled = null;
  const done = await keepingTransaction(
    db,
    async (tx): Promise<CheckInDone> => {
      const found = await lockMatch(tx, matchId);
      if (!found) return { ok: false, reason: 'notFound' };
      const { tournament } = found;
      if (!tournament.matchCheckInMinutes) return { ok: false, reason: 'off' };
      const slot = await sideOfPerson(tx, found, userId);
      if (!slot) return { ok: false, reason: 'notSide' };
      if (isFinished(tournament.status)) return { ok: false, reason: 'finished' };
      const { row, match } = lockedView(found);
      if (match.status === 'completed') return { ok: false, reason: 'decided' };
      if (match.status !== 'ready' || !match.a || !match.b) return { ok: false, reason: 'notReady' };
      settled = await settleIfDue(tx, found, now);
      if (settled) return { ok: false, reason: 'closed' };
      const outcome = await outcomeOf(tx, matchId);
      // Both sides in: so is the caller's, whatever a burst of its own check-ins asks.
      if (outcome) return { ok: false, reason: outcome === 'both' ? 'already' : 'closed' };
      const participantId = slot === 'a' ? match.a : match.b;
      const written = await tx
        .insert(matchCheckIns)
        .values({ matchId, participantId, slot, userId })
        .onConflictDoNothing()
        .returning({ slot: matchCheckIns.slot });
      if (written.length === 0) return { ok: false, reason: 'already' };
      await together(tx, [actionWrite({ matchId, kind: 'checkIn', userId, side: slot })]);
      const came = await present(tx, row.id, match);
      const both = came.a && came.b;
      if (both) await claimOutcome(tx, matchId, 'both', now);
      return { ok: true, tournamentId: tournament.id, both };
    },
    () => savedOf(settled),
  );
  published(settled, matchId);
  if (done.ok) publishTournament({ tournamentId: done.tournamentId, kind: 'room', matchId });
  return done;
}

/** Matches whose check-in one sweep ends at most (the next tick takes the rest). */
const DUE_PER_RUN = 100;

/** The ready matches whose check-in time ran out by `now` and that nobody ended yet (only `matchId` when given). */
async function dueMatches(db: Tx, now: Date, matchId?: string): Promise<string[]> {
  const deadline = sql`greatest(${stageMatches.readyAt}, coalesce(${stageMatches.scheduledAt}, ${stageMatches.readyAt})) + ${tournaments.matchCheckInMinutes} * interval '1 minute'`;
  const rows = await db
    .select({ id: stageMatches.id })
    .from(stageMatches)
    .innerJoin(stages, eq(stages.id, stageMatches.stageId))
    .innerJoin(tournaments, eq(tournaments.id, stages.tournamentId))
    .leftJoin(matchRooms, eq(matchRooms.matchId, stageMatches.id))
    .where(
      and(
        eq(stageMatches.status, 'ready'),
        isNotNull(stageMatches.readyAt),
        isNotNull(tournaments.matchCheckInMinutes),
        isNull(matchRooms.checkInOutcome),
        sql`${deadline} <= ${now.toISOString()}::timestamptz`,
        matchId ? eq(stageMatches.id, matchId) : undefined,
      ),
    )
    .orderBy(stageMatches.readyAt)
    .limit(DUE_PER_RUN);
  return rows.map((r) => r.id);
}

/**
 * Ends the check-in of every match whose time ran out by `now` (only `matchId`'s when given), each
 * in its own transaction under its tournament's lock; returns how many it ended. Claimed in
 * `match_rooms`, so each is ended once whoever runs this at the same time.
 */
export async function closeDueCheckIns(db: Database, now: Date, matchId?: string): Promise<number> {
  let closed = 0;
  for (const id of await dueMatches(db, now, matchId)) {
    const settled = await keepingTransaction(
      db,
      async (tx) => {
        const found = await lockMatch(tx, id);
        return found ? settleIfDue(tx, found, now) : null;
      },
      savedOf,
    );
    if (!settled) continue;
    closed += 1;
    published(settled, id);
  }
  return closed;
}

/** The end of matches' check-in, every few seconds on every instance. */
export const matchCheckInSweep: Sweep = { name: 'match-check-in', everyMs: 5000, run: (db, now) => closeDueCheckIns(db, now) };

SWEEPS.push(matchCheckInSweep);
