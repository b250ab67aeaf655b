/**
 * Swiss with thresholds (issue 59, decision 039), as Valve runs the CS2 Majors' Swiss stages
 * (ValveSoftware/counter-strike_rules_and_regs, `major-supplemental-rulebook.md`): teams meet
 * opponents of the same win–loss record; `winsToAdvance` wins advance, `lossesToEliminate` losses
 * eliminate; round 1 pairs seed k with seed k + n/2; rounds 2–3 pair the highest seed with the
 * lowest one available that is not a rematch; later rounds take the top-most row of Valve's
 * priority table for a pool of six without a rematch. The seed within a record is the difficulty
 * score (Valve's Buchholz: the opponents' wins minus their losses), then the stage's seed.
 *
 * Valve's greedy rule for rounds 2–3 can leave the last two teams of a pool with only a rematch
 * (claabs/swiss-buchholz-problem found 400 such round-three pools); ours then searches back, the
 * highest seeds keeping the lowest partners they can, so the round has no rematch while one exists.
 * Pure and deterministic.
 */
import type { Pairing } from '../round-robin.ts';
import { bestOfFor, thresholdsOf, type StageSettings } from './format.ts';
import type { ResolvedMatch } from './resolve.ts';
import { groupStandings, type Placement, type StandingRow } from './standings.ts';

export interface Thresholds {
  winsToAdvance: number;
  lossesToEliminate: number;
}

/** A participant's record in a Swiss stage with thresholds. */
export interface SwissRecord {
  id: string;
  /** Its seed in the stage, 0 the highest: the last word on every order. */
  seed: number;
  /** A bye counts as a win. */
  wins: number;
  losses: number;
  /** Everyone it played (a rematch appears twice), byes not included. */
  opponents: string[];
  hadBye: boolean;
}

export type SwissOutcome = 'advanced' | 'eliminated' | null;

/** Valve's priority table for a pool of six (rounds 4 and 5 of a Major): the top-most row without a rematch is played. */
export const VALVE_SIX_TEAM_PRIORITY: readonly (readonly [number, number][])[] = [
  [
    [1, 6],
    [2, 5],
    [3, 4],
  ],
  [
    [1, 6],
    [2, 4],
    [3, 5],
  ],
  [
    [1, 5],
    [2, 6],
    [3, 4],
  ],
  [
    [1, 5],
    [2, 4],
    [3, 6],
  ],
  [
    [1, 4],
    [2, 6],
    [3, 5],
  ],
  [
    [1, 4],
    [2, 5],
    [3, 6],
  ],
  [
    [1, 6],
    [2, 3],
    [4, 5],
  ],
  [
    [1, 5],
    [2, 3],
    [4, 6],
  ],
  [
    [1, 3],
    [2, 6],
    [4, 5],
  ],
  [
    [1, 3],
    [2, 5],
    [4, 6],
  ],
  [
    [1, 4],
    [2, 3],
    [5, 6],
  ],
  [
    [1, 3],
    [2, 4],
    [5, 6],
  ],
  [
    [1, 2],
    [3, 6],
    [4, 5],
  ],
  [
    [1, 2],
    [3, 5],
    [4, 6],
  ],
  [
    [1, 2],
    [3, 4],
    [5, 6],
  ],
];

/** Where a record stands against the thresholds. */
export const outcomeOf = (record: Pick<SwissRecord, 'wins' | 'losses'>, thresholds: Thresholds): SwissOutcome =>
  record.wins >= thresholds.winsToAdvance ? 'advanced' : record.losses >= thresholds.lossesToEliminate ? 'eliminated' : null;

/** The most rounds a team can play: one short of both thresholds together. */
export const maxThresholdRounds = (thresholds: Thresholds): number => thresholds.winsToAdvance + thresholds.lossesToEliminate - 1;

/** Each member's record over `matches` (a group's resolved matches), members in seed order. */
export function swissRecords(members: readonly string[], matches: readonly ResolvedMatch[]): SwissRecord[] {
  const records = new Map(members.map((id, seed) => [id, { id, seed, wins: 0, losses: 0, opponents: [] as string[], hadBye: false }]));
  for (const match of matches) {
    if (match.status !== 'completed') continue;
    if (match.bye) {
      const winner = match.winner ? records.get(match.winner) : undefined;
      if (winner) {
        winner.wins += 1;
        winner.hadBye = true;
      }
      continue;
    }
    const a = match.a ? records.get(match.a) : undefined;
    const b = match.b ? records.get(match.b) : undefined;
    if (a && b) {
      a.opponents.push(b.id);
      b.opponents.push(a.id);
    }
    const winner = match.winner ? records.get(match.winner) : undefined;
    const loser = match.loser ? records.get(match.loser) : undefined;
    if (winner) winner.wins += 1;
    if (loser) loser.losses += 1;
  }
  return [...records.values()];
}

/** Valve's difficulty score of each record: the sum of its opponents' wins minus their losses, as they stand now. */
export function difficulties(records: readonly SwissRecord[]): Map<string, number> {
  const byId = new Map(records.map((r) => [r.id, r]));
  return new Map(
    records.map((record) => [
      record.id,
      record.opponents.reduce((sum, id) => {
        const opponent = byId.get(id);
        return opponent ? sum + opponent.wins - opponent.losses : sum;
      }, 0),
    ]),
  );
}

/** Valve's mid-stage seed: the record (more wins, then fewer losses), then the difficulty, then the stage's seed. */
export function midStageOrder(records: readonly SwissRecord[], difficulty: ReadonlyMap<string, number> = difficulties(records)): SwissRecord[] {
  return [...records].sort((x, y) => y.wins - x.wins || x.losses - y.losses || (difficulty.get(y.id) ?? 0) - (difficulty.get(x.id) ?? 0) || x.seed - y.seed);
}

export interface ThresholdRound {
  pairings: Pairing<string>[];
  bye: string | null;
}

/**
 * The next round of a group: the records of all its members (those who reached a threshold, and
 * `out` — the disqualified — are not paired). `round` is the round being paired, 1 the first.
 * An odd record pool sends its lowest seed down to the next pool; an odd last pool gives a bye to
 * its lowest seed who has not had one.
 */
export function thresholdRound(records: readonly SwissRecord[], round: number, thresholds: Thresholds, out: ReadonlySet<string> = new Set()): ThresholdRound {
  const active = records.filter((r) => outcomeOf(r, thresholds) === null && !out.has(r.id));
  if (round === 1) return firstRound(active);
  const difficulty = difficulties(records);
  const ordered = midStageOrder(active, difficulty);
  const pools: SwissRecord[][] = [];
  for (const record of ordered) {
    const last = pools.at(-1);
    if (last && last[0]!.wins === record.wins && last[0]!.losses === record.losses) last.push(record);
    else pools.push([record]);
  }
  const pairings: Pairing<string>[] = [];
  let bye: string | null = null;
  let carried: SwissRecord[] = [];
  pools.forEach((pool, index) => {
    const members = [...carried, ...pool];
    carried = [];
    if (members.length % 2 === 1) {
      if (index < pools.length - 1) carried = [members.pop()!];
      else {
        const at = members.findLastIndex((r) => !r.hadBye);
        bye = members.splice(at === -1 ? members.length - 1 : at, 1)[0]!.id;
      }
    }
    pairings.push(...pairPool(members, round));
  });
  return { pairings, bye };
}

/** Round 1: seed k meets seed k + n/2; with an odd count the lowest seed has the bye. */
function firstRound(active: readonly SwissRecord[]): ThresholdRound {
  const seeded = [...active].sort((x, y) => x.seed - y.seed);
  const bye = seeded.length % 2 === 1 ? seeded.pop()!.id : null;
  const half = seeded.length / 2;
  return { pairings: seeded.slice(0, half).map((r, i) => ({ a: r.id, b: seeded[half + i]!.id })), bye };
}

const metBefore = (x: SwissRecord, y: SwissRecord): boolean => x.opponents.includes(y.id);

/** One record pool (even, in mid-stage seed order) paired by Valve's rule for the round. */
export function pairPool(members: readonly SwissRecord[], round: number): Pairing<string>[] {
  if (members.length === 6 && round >= 4) {
    const row = VALVE_SIX_TEAM_PRIORITY.find((pairs) => pairs.every(([x, y]) => !metBefore(members[x - 1]!, members[y - 1]!)));
    if (row) return row.map(([x, y]) => ({ a: members[x - 1]!.id, b: members[y - 1]!.id }));
  }
  return (highestAgainstLowest(members) ?? fewestRematches(members)).map(([x, y]) => ({ a: x.id, b: y.id }));
}

/**
 * Valve's rule for rounds 2–3: the highest seed left meets the lowest seed left it has not played.
 * Where that leaves a later team only rematches, the search steps back and the higher team takes its
 * next-lowest partner instead, so the first pairing found is the nearest to Valve's without a
 * rematch; null when every pairing of the pool has one.
 */
export function highestAgainstLowest(members: readonly SwissRecord[]): [SwissRecord, SwissRecord][] | null {
  const taken = new Set<number>();
  const pairs: [SwissRecord, SwissRecord][] = [];
  const search = (): boolean => {
    const high = members.findIndex((_, i) => !taken.has(i));
    if (high === -1) return true;
    taken.add(high);
    for (let low = members.length - 1; low > high; low--) {
      if (taken.has(low) || metBefore(members[high]!, members[low]!)) continue;
      taken.add(low);
      pairs.push([members[high]!, members[low]!]);
      if (search()) return true;
      pairs.pop();
      taken.delete(low);
    }
    taken.delete(high);
    return false;
  };
  return search() ? pairs : null;
}

/** When no pairing avoids a rematch: the highest seed left takes the lowest it has not played, else the lowest. */
function fewestRematches(members: readonly SwissRecord[]): [SwissRecord, SwissRecord][] {
  const left = [...members];
  const pairs: [SwissRecord, SwissRecord][] = [];
  while (left.length > 1) {
    const high = left.shift()!;
    const fresh = left.findLastIndex((r) => !metBefore(high, r));
    const [low] = left.splice(fresh === -1 ? left.length - 1 : fresh, 1);
    pairs.push([high, low!]);
  }
  return pairs;
}

/** Whether a match between these records decides advancement or elimination for either side. */
export const decides = (records: readonly Pick<SwissRecord, 'wins' | 'losses'>[], thresholds: Thresholds): boolean =>
  records.some((r) => r.wins === thresholds.winsToAdvance - 1 || r.losses === thresholds.lossesToEliminate - 1);

/**
 * A group's table in a Swiss with thresholds: by record (more wins, then fewer losses), then the
 * difficulty score (in `buchholz`), then the stage's seed — Valve's mid-stage seed, which also
 * seeds the playoff. Each row says whether it advanced or was eliminated.
 */
export function thresholdStandings(members: readonly string[], matches: readonly ResolvedMatch[], thresholds: Thresholds): StandingRow[] {
  const records = swissRecords(members, matches);
  const difficulty = difficulties(records);
  const tallies = new Map(groupStandings(members, matches, { tieBreakers: [] }).map((row) => [row.participant, row]));
  return midStageOrder(records, difficulty).map((record, index) => {
    const outcome = outcomeOf(record, thresholds);
    return {
      ...tallies.get(record.id)!,
      wins: record.wins,
      losses: record.losses,
      buchholz: difficulty.get(record.id) ?? 0,
      rank: index + 1,
      ...(outcome ? { outcome } : {}),
    };
  });
}

/**
 * Each match's best-of: the stage's (`bestOfFor`), and in a Swiss with thresholds
 * `decidingBestOf` for a match that decides advancement or elimination — by the sides' records
 * before its round (Valve: such matches are best of three, the others best of one).
 */
export function matchBestOfs(settings: StageSettings, matches: readonly ResolvedMatch[]): number[] {
  const plain = matches.map((m) => bestOfFor(settings, m.plan));
  const thresholds = thresholdsOf(settings);
  const deciding = settings.decidingBestOf;
  if (!thresholds || deciding === undefined) return plain;
  const records = new Map<string, { wins: number; losses: number }>();
  const recordOf = (group: number | null, id: string) => {
    const key = `${group}:${id}`;
    if (!records.has(key)) records.set(key, { wins: 0, losses: 0 });
    return records.get(key)!;
  };
  const order = matches.map((_, i) => i).sort((x, y) => matches[x]!.plan.round - matches[y]!.plan.round || x - y);
  const result = [...plain];
  for (let at = 0; at < order.length;) {
    const round = matches[order[at]!]!.plan.round;
    const batch: number[] = [];
    while (at < order.length && matches[order[at]!]!.plan.round === round) batch.push(order[at++]!);
    for (const i of batch) {
      const { a, b, plan } = matches[i]!;
      if (a && b && decides([recordOf(plan.group, a), recordOf(plan.group, b)], thresholds)) result[i] = deciding;
    }
    for (const i of batch) {
      const { winner, loser, plan, status } = matches[i]!;
      if (status !== 'completed') continue;
      if (winner) recordOf(plan.group, winner).wins += 1;
      if (loser) recordOf(plan.group, loser).losses += 1;
    }
  }
  return result;
}

/**
 * The places a Swiss stage with thresholds gives: by record, those of the same record sharing a
 * band (two 3–0 teams share 1–2, three 3–1 teams 3–5 …), as a Major's Swiss stage has no single
 * winner; difficulty orders the playoff's seeds, not the places.
 */
export function recordPlacements(tables: readonly (readonly StandingRow[])[]): Placement[] {
  const rows = tables.flat().sort((x, y) => y.wins - x.wins || x.losses - y.losses);
  const placements: Placement[] = [];
  for (let at = 0; at < rows.length;) {
    const band = rows.filter((r) => r.wins === rows[at]!.wins && r.losses === rows[at]!.losses);
    for (const row of band) placements.push({ participant: row.participant, from: at + 1, to: at + band.length });
    at += band.length;
  }
  return placements;
}
