/** «Мої матчі» (issue 22): which of a player's matches comes next. */
import type { MatchStatus } from './stage/format.ts';

/** Next first: a match ready to play, then by time (unscheduled last), then by round. */
export function nextFirst<M extends { status: MatchStatus; scheduledAt: string | null; round: number }>(a: M, b: M): number {
  const ready = Number(b.status === 'ready') - Number(a.status === 'ready');
  if (ready !== 0) return ready;
  const at = (m: M) => (m.scheduledAt ? Date.parse(m.scheduledAt) : Number.POSITIVE_INFINITY);
  return at(a) - at(b) || a.round - b.round;
}
