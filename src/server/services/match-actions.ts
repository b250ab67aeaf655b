/**
 * A match's sides as people (issue 22): who acts for each side (the player, or the team's captain),
 * its history rows, and the notices a match sends. The stage service and the players' reports both
 * use these, so they live apart from either.
 */
import { inArray, sql } from 'drizzle-orm';
import type { MatchAction } from '../../lib/domain/match-day.ts';
import type { Slot } from '../../lib/domain/stage/format.ts';
import type { GameScore } from '../../lib/domain/stage/result.ts';
import type { Tx } from '../db/client.ts';
import { matchActions, teams, users } from '../db/schema/index.ts';
import { announce, type Notice } from './notices.ts';

export interface SideActor {
  /** The user who acts for the participant: the player, or the team's captain. */
  userId: string;
  /** The participant's name: the player's or the team's. */
  name: string;
}

/** Who acts for each participant id (user ids in a solo tournament, team ids otherwise), and their names. */
export async function actorsOf(tx: Tx, soloOnly: boolean, ids: readonly (string | null)[]): Promise<Map<string, SideActor>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  if (soloOnly) {
    const rows = await tx.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, wanted));
    return new Map(rows.map((r) => [r.id, { userId: r.id, name: r.name }]));
  }
  const rows = await tx.select({ id: teams.id, name: teams.name, captainId: teams.captainId }).from(teams).where(inArray(teams.id, wanted));
  return new Map(rows.map((r) => [r.id, { userId: r.captainId, name: r.name }]));
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

/** Adds rows to matches' histories (in the caller's transaction). */
export async function recordActions(tx: Tx, list: readonly ActionRecord[]): Promise<void> {
  // One statement each, stamped by the clock rather than the transaction's start, so a report and
  // the confirmation it triggered read back in the order they happened.
  for (const a of list) {
    await tx.insert(matchActions).values({
      matchId: a.matchId,
      kind: a.kind,
      userId: a.userId ?? null,
      side: a.side ?? null,
      scoreA: a.scoreA ?? null,
      scoreB: a.scoreB ?? null,
      games: a.games ?? null,
      reason: a.reason ?? '',
      createdAt: sql`clock_timestamp()`,
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
