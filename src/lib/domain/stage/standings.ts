/**
 * Tables and placements (issue 21). A round-robin or Swiss group is ranked by points, then by its
 * declared tie-breakers, each applied only among the participants still level, then by seed.
 * Elimination stages place by how far each participant got: 1, 2, then bands (3–4, 5–8…).
 */
import { DEFAULT_POINTS, type Points, type TieBreaker } from './format.ts';
import { RUNNER_UP } from './plan.ts';
import type { ResolvedMatch } from './resolve.ts';

export interface StandingRow {
  participant: string;
  /** 1-based; unique within the group (the seed settles full ties). */
  rank: number;
  played: number;
  wins: number;
  draws: number;
  losses: number;
  points: number;
  scoreFor: number;
  scoreAgainst: number;
  scoreDifference: number;
  /** Sum of the points of everyone this participant played (Swiss); with thresholds, Valve's difficulty score. */
  buchholz: number;
  /** Swiss with thresholds (issue 59): reached the wins that advance, or the losses that eliminate. */
  outcome?: 'advanced' | 'eliminated';
}

type Tally = Omit<StandingRow, 'rank'>;

/** A participant's row before any match: every count at 0 (GSL groups start from it too). */
export const blank = (participant: string): Tally => ({
  participant,
  played: 0,
  wins: 0,
  draws: 0,
  losses: 0,
  points: 0,
  scoreFor: 0,
  scoreAgainst: 0,
  scoreDifference: 0,
  buchholz: 0,
});

/** Points, wins, scores of `participants` over `matches` (completed ones; a bye is a win without a score). */
function tally(participants: readonly string[], matches: readonly ResolvedMatch[], points: Points): Map<string, Tally> {
  const rows = new Map(participants.map((p) => [p, blank(p)]));
  for (const match of matches) {
    if (match.status !== 'completed') continue;
    if (match.bye) {
      const row = match.winner ? rows.get(match.winner) : undefined;
      if (row) {
        row.wins += 1;
        row.points += points.win;
      }
      continue;
    }
    const sides = [
      [match.a, match.result?.scoreA ?? 0, match.result?.scoreB ?? 0],
      [match.b, match.result?.scoreB ?? 0, match.result?.scoreA ?? 0],
    ] as const;
    for (const [id, own, their] of sides) {
      const row = id ? rows.get(id) : undefined;
      if (!row) continue;
      row.played += 1;
      row.scoreFor += own;
      row.scoreAgainst += their;
      if (match.winner === null) {
        row.draws += 1;
        row.points += points.draw;
      } else if (match.winner === id) {
        row.wins += 1;
        row.points += points.win;
      } else {
        row.losses += 1;
        row.points += points.loss;
      }
    }
  }
  for (const row of rows.values()) row.scoreDifference = row.scoreFor - row.scoreAgainst;
  for (const match of matches) {
    if (match.status !== 'completed' || match.bye || !match.a || !match.b) continue;
    const a = rows.get(match.a);
    const b = rows.get(match.b);
    if (a && b) {
      a.buchholz += b.points;
      b.buchholz += a.points;
    }
  }
  return rows;
}

/** One tie-breaker's value for each of a level set of participants (higher is better). */
function breakerValues(breaker: TieBreaker, level: readonly string[], rows: Map<string, Tally>, matches: readonly ResolvedMatch[], points: Points) {
  if (breaker === 'headToHead') {
    const among = new Set(level);
    const mini = tally(
      level,
      matches.filter((m) => !m.bye && m.a && m.b && among.has(m.a) && among.has(m.b)),
      points,
    );
    return (id: string) => mini.get(id)!.points;
  }
  if (breaker === 'medianBuchholz') {
    // Buchholz without the best and the worst opponent (with three or more), so one walkover or one
    // giant met by chance does not decide the tie.
    const faced = new Map<string, number[]>();
    for (const m of matches) {
      if (m.status !== 'completed' || m.bye || !m.a || !m.b || !rows.has(m.a) || !rows.has(m.b)) continue;
      faced.set(m.a, [...(faced.get(m.a) ?? []), rows.get(m.b)!.points]);
      faced.set(m.b, [...(faced.get(m.b) ?? []), rows.get(m.a)!.points]);
    }
    return (id: string) => {
      const list = faced.get(id) ?? [];
      const sum = list.reduce((total, p) => total + p, 0);
      return list.length >= 3 ? sum - Math.max(...list) - Math.min(...list) : sum;
    };
  }
  return (id: string) => rows.get(id)![breaker];
}

/**
 * A group's table. `participants` in seed order (the last word on a full tie); `matches` the
 * group's resolved matches; `tieBreakers` in the order declared, after points.
 */
export function groupStandings(
  participants: readonly string[],
  matches: readonly ResolvedMatch[],
  options: { tieBreakers: readonly TieBreaker[]; points?: Points | undefined },
): StandingRow[] {
  const points = options.points ?? DEFAULT_POINTS;
  const rows = tally(participants, matches, points);
  const seed = new Map(participants.map((p, i) => [p, i]));
  const order = (level: string[], breakers: readonly ('points' | TieBreaker)[]): string[] => {
    if (level.length < 2 || breakers.length === 0) return level.sort((x, y) => seed.get(x)! - seed.get(y)!);
    const [breaker, ...rest] = breakers as ['points' | TieBreaker, ...('points' | TieBreaker)[]];
    const value = breaker === 'points' ? (id: string) => rows.get(id)!.points : breakerValues(breaker, level, rows, matches, points);
    const byValue = new Map<number, string[]>();
    for (const id of level) byValue.set(value(id), [...(byValue.get(value(id)) ?? []), id]);
    return [...byValue.entries()].sort(([x], [y]) => y - x).flatMap(([, tied]) => order(tied, rest));
  };
  return order([...participants], ['points', ...options.tieBreakers]).map((id, index) => ({ ...rows.get(id)!, rank: index + 1 }));
}

export interface Placement {
  participant: string;
  /** First and last place of the band this participant shares (equal when alone). */
  from: number;
  to: number;
}

/**
 * Final places in an elimination stage from each participant's last finished match: the
 * champion, the runner-up, then everyone out in the same round shares a band, the later round
 * ranking higher. Participants still playing are not placed yet; they do hold the places above
 * the bands already known.
 */
export function eliminationPlacements(participants: readonly string[], matches: readonly ResolvedMatch[]): Placement[] {
  const last = new Map<string, number | null>();
  const hasReset = matches.some((m) => m.plan.side === 'grand_final' && m.plan.round === 2);
  for (const match of matches) {
    if (match.status !== 'completed') continue;
    // The losers' champion won the first grand final: the reset decides, nobody is placed yet.
    const resetComing = hasReset && match.plan.side === 'grand_final' && match.plan.round === 1 && match.winner !== null && match.winner === match.b;
    for (const id of [match.a, match.b]) {
      if (!id) continue;
      const out = resetComing ? undefined : id === match.winner ? match.plan.winnerOut : id === match.loser ? match.plan.loserOut : undefined;
      last.set(id, out ?? null);
    }
  }
  const keyOf = (id: string): number | null => last.get(id) ?? null;
  const placed = participants.filter((id) => keyOf(id) !== null);
  const stillIn = participants.length - placed.length;
  const keys = [...new Set(placed.map((id) => keyOf(id)!))].sort((x, y) => y - x);
  const result: Placement[] = [];
  let next = 1;
  for (const key of keys) {
    const band = placed.filter((id) => keyOf(id) === key);
    // Those still playing will finish above anyone already out (but not above the champion).
    const from = next + (key >= RUNNER_UP ? 0 : stillIn);
    for (const id of band) result.push({ participant: id, from, to: from + band.length - 1 });
    next += band.length;
  }
  return result;
}

/** Places from a finished table: one place each, in table order. */
export const tablePlacements = (rows: readonly StandingRow[]): Placement[] => rows.map((r) => ({ participant: r.participant, from: r.rank, to: r.rank }));
