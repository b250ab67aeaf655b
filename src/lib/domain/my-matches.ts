/** «Мої матчі» (issue 22): which of a player's matches comes next. */
import type { ReportState } from './match-day.ts';
import type { MatchStatus, Slot } from './stage/format.ts';

/** Next first: a match ready to play, then by time (unscheduled last), then by round. */
export function nextFirst<M extends { status: MatchStatus; scheduledAt: string | null; round: number }>(a: M, b: M): number {
  const ready = Number(b.status === 'ready') - Number(a.status === 'ready');
  if (ready !== 0) return ready;
  const at = (m: M) => (m.scheduledAt ? Date.parse(m.scheduledAt) : Number.POSITIVE_INFINITY);
  return at(a) - at(b) || a.round - b.round;
}

/** What «Мої матчі» offers me on a match: report it, answer the other side's report, wait, or the admin's dispute. */
export type MyMatchStep = 'report' | 'answer' | 'waiting' | 'disputed' | null;

/**
 * The step of a match for me: only a ready match can be reported; only the player, or the team's
 * captain (`canReport`), reports or answers; the one who reported waits for the other side.
 */
export function myMatchStep(m: { status: MatchStatus; reportState: ReportState | null; reportedBy: Slot | null; canReport: boolean; me: { slot: Slot } }): MyMatchStep {
  if (m.status !== 'ready') return null;
  if (m.reportState === 'disputed') return 'disputed';
  if (m.reportState === 'reported') return m.reportedBy === m.me.slot ? 'waiting' : m.canReport ? 'answer' : null;
  return m.canReport ? 'report' : null;
}
