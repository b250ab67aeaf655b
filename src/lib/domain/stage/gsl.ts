/**
 * GSL groups (issue 59, decision 039): a group of four plays a small double elimination — two
 * opening matches (seed 1 v 4, 2 v 3), the winners' match between their winners, the elimination
 * match between their losers, and the decider between the winners' match's loser and the
 * elimination match's winner. The winners' match's winner is first, the decider's winner second,
 * its loser third, the elimination match's loser fourth. A group of three gives its top seed's
 * opening match a bye (and so the elimination match). Pure.
 */
import type { PlannedMatch } from './plan.ts';
import type { ResolvedMatch } from './resolve.ts';
import { blank, type StandingRow } from './standings.ts';

/** A group's matches by (round, position): the rows the stage stores. */
export const GSL_MATCHES = {
  openingHigh: { round: 1, position: 1 },
  openingLow: { round: 1, position: 2 },
  winners: { round: 2, position: 1 },
  elimination: { round: 2, position: 2 },
  decider: { round: 3, position: 1 },
} as const;
export type GslMatch = keyof typeof GSL_MATCHES;

/** Which of a group's five matches sits at (round, position). */
export const gslMatchAt = (round: number, position: number): GslMatch | null =>
  (Object.keys(GSL_MATCHES) as GslMatch[]).find((key) => GSL_MATCHES[key].round === round && GSL_MATCHES[key].position === position) ?? null;

/** Placement keys within a group (higher is better), as elimination stages keep them. */
const FIRST = 4;
const SECOND = 3;
const THIRD = 2;
const FOURTH = 1;

/** Every group's five matches, groups in order: each group's members in seed order. */
export function gslPlan(groups: readonly (readonly string[])[]): PlannedMatch[] {
  const plan: PlannedMatch[] = [];
  groups.forEach((members, g) => {
    const group = g + 1;
    const at = plan.length;
    const seat = (i: number) => ({ kind: 'fixed' as const, id: members[i] ?? null });
    const match = (key: GslMatch, a: PlannedMatch['a'], b: PlannedMatch['b'], out: Pick<PlannedMatch, 'winnerOut' | 'loserOut'> = {}) =>
      plan.push({ group, side: null, ...GSL_MATCHES[key], a, b, ...out });
    match('openingHigh', seat(0), seat(3));
    match('openingLow', seat(1), seat(2));
    match('winners', { kind: 'winner', match: at }, { kind: 'winner', match: at + 1 }, { winnerOut: FIRST });
    match('elimination', { kind: 'loser', match: at }, { kind: 'loser', match: at + 1 }, { loserOut: FOURTH });
    match('decider', { kind: 'loser', match: at + 2 }, { kind: 'winner', match: at + 3 }, { winnerOut: SECOND, loserOut: THIRD });
  });
  return plan;
}

/**
 * A group's table: those whose place is settled in it, with the still-playing between them (a
 * decider's two players are between the winners' match's winner and the elimination match's
 * loser), then by wins, fewer losses and seed. `members` in seed order; `matches` the group's.
 */
export function gslStandings(members: readonly string[], matches: readonly ResolvedMatch[]): StandingRow[] {
  const seed = new Map(members.map((id, i) => [id, i]));
  const rows = new Map(members.map((id) => [id, { ...blank(id), key: (FIRST + FOURTH) / 2 }]));
  for (const match of matches) {
    if (match.status !== 'completed' || match.bye) continue;
    for (const [id, own, their] of [
      [match.a, match.result?.scoreA ?? 0, match.result?.scoreB ?? 0],
      [match.b, match.result?.scoreB ?? 0, match.result?.scoreA ?? 0],
    ] as const) {
      const row = id ? rows.get(id) : undefined;
      if (!row) continue;
      row.played += 1;
      row.scoreFor += own;
      row.scoreAgainst += their;
      row.scoreDifference = row.scoreFor - row.scoreAgainst;
      if (match.winner === id) row.wins += 1;
      else row.losses += 1;
      const out = match.winner === id ? match.plan.winnerOut : match.plan.loserOut;
      if (out !== undefined) row.key = out;
    }
  }
  return [...rows.values()]
    .sort((x, y) => y.key - x.key || y.wins - x.wins || x.losses - y.losses || seed.get(x.participant)! - seed.get(y.participant)!)
    .map(({ key: _key, ...row }, index) => ({ ...row, points: row.wins, rank: index + 1 }));
}
