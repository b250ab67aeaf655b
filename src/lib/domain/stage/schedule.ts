/**
 * A stage's schedule (issue 22): the admin gives a start and a round length, and every match not
 * yet played gets `start + slot × roundMinutes`, where `slot` is its round's place in play order.
 *
 * Play order, by the stage's shape (each round starts only after every round that feeds it):
 * - round robin and Swiss: round n is slot n − 1, every group at once;
 * - single elimination: round n is slot n − 1; the third-place match is played beside the final;
 * - double elimination: winners' round n is slot n − 1 and losers' round n is slot n (a losers'
 *   round takes the losers of the winners' round before it, so the losers' bracket runs one slot
 *   behind); the grand final follows the later of the two brackets' finals, its reset one slot after.
 */
import { pastLastYear } from '../moments.ts';
import type { BracketSide, MatchStatus } from './format.ts';

/** A round of a stage: its group (round robin, Swiss), its side (elimination) and its number. */
export interface RoundRef {
  group: number | null;
  side: BracketSide | null;
  round: number;
}

export interface SchedulableMatch extends RoundRef {
  id: string;
  status: MatchStatus;
}

/** Longest round the form and the API accept: one day. */
export const MAX_ROUND_MINUTES = 24 * 60;

/** The play slot (0 for the first) of a round among a stage's rounds. */
export function roundSlot(ref: RoundRef, rounds: readonly RoundRef[]): number {
  const last = (side: BracketSide) => rounds.reduce((max, r) => (r.side === side ? Math.max(max, r.round) : max), 0);
  switch (ref.side) {
    case null:
    case 'winners':
      return ref.round - 1;
    case 'third_place':
      return Math.max(0, last('winners') - 1);
    case 'losers':
      return ref.round;
    case 'grand_final':
      return Math.max(last('winners') - 1, last('losers')) + ref.round;
  }
}

/** Which matches a schedule covers: all of the stage's, or one round (a side's; one group's or every group's). */
export interface ScheduleScope {
  round: number;
  /** Elimination stages: the bracket side; the winners' when absent. */
  side?: BracketSide | undefined;
  /** Round robin and Swiss: one group; every group when absent. */
  group?: number | undefined;
}

/** `pastLastYear`: a round would start after the last year the site keeps (domain/moments.ts). */
export type ScheduleRefusal = 'roundNotFound' | 'nothingLeft' | 'pastLastYear';

export type Scheduled = { ok: true; times: { id: string; at: Date }[] } | { ok: false; reason: ScheduleRefusal };

/**
 * The new time of each match not yet played: one round at `start`, or the whole stage at
 * `start + slot × roundMinutes`. A played match keeps its time. Refused whole when any time would
 * pass the last year the site keeps, as a typed date would be.
 */
export function scheduleStage(matches: readonly SchedulableMatch[], start: Date, roundMinutes: number, scope?: ScheduleScope): Scheduled {
  const chosen = scope
    ? matches.filter(
        (m) =>
          m.round === scope.round &&
          (scope.side === undefined ? m.side === null || m.side === 'winners' : m.side === scope.side) &&
          (scope.group === undefined || m.group === scope.group),
      )
    : matches;
  if (chosen.length === 0) return { ok: false, reason: 'roundNotFound' };
  const open = chosen.filter((m) => m.status !== 'completed');
  if (open.length === 0) return { ok: false, reason: 'nothingLeft' };
  const step = roundMinutes * 60_000;
  const times = open.map((m) => ({ id: m.id, at: new Date(start.getTime() + (scope ? 0 : roundSlot(m, matches) * step)) }));
  if (times.some((t) => pastLastYear(t.at))) return { ok: false, reason: 'pastLastYear' };
  return { ok: true, times };
}
