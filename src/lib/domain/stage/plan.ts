/**
 * Where each match of a stage takes its two sides from (issue 21, decision 013). An elimination
 * stage is a plan over its seeds: later matches are fed by earlier winners and losers, so the
 * whole stage follows from the seeds and the results (`resolve.ts`) and a corrected result can
 * never leave a later match inconsistent. Round robin and Swiss matches have fixed sides.
 */
import type { BracketSide, GrandFinal, Slot } from './format.ts';

export type Source =
  /** The stage's seed slot `index` (null there is a bye). */
  | { kind: 'seed'; index: number }
  /** The winner or the loser of an earlier match of the plan. */
  | { kind: 'winner' | 'loser'; match: number }
  /** A side fixed when the match was made (round robin, Swiss); null is a bye. */
  | { kind: 'fixed'; id: string | null }
  /** The grand final's reset: the same two again, played only when the losers' champion (b) won `match`. */
  | { kind: 'reset'; match: number; slot: Slot };

export interface PlannedMatch {
  /** 1 for group A; null outside groups. */
  group: number | null;
  side: BracketSide | null;
  /** 1-based within its group or bracket side. */
  round: number;
  /** 1-based within its round. */
  position: number;
  a: Source;
  b: Source;
  /**
   * How far a side whose run ends here got, for placements (higher is better): the winner's
   * when this match ends the stage for them, the loser's when the loser goes nowhere.
   */
  winnerOut?: number;
  loserOut?: number;
}

/**
 * The earlier match a planned side waits for, by the number people see (issue 57: «Winner of M3»):
 * a stage's matches are numbered M1…Mn in plan order. None for a seed, a fixed side or a reset.
 */
export const feedingMatch = (source: Source): { kind: 'winner' | 'loser'; number: number } | null =>
  source.kind === 'winner' || source.kind === 'loser' ? { kind: source.kind, number: source.match + 1 } : null;

/** The champion's and the runner-up's keys for placements. */
export const CHAMPION = 1000;
export const RUNNER_UP = 999;

/** Bracket size for n participants: the next power of two (at least 2). */
export const bracketSize = (participants: number): number => 2 ** Math.max(1, Math.ceil(Math.log2(Math.max(2, participants))));

/** Index of the match at (side, round, position) in a plan, or -1. */
function finder(plan: readonly PlannedMatch[]) {
  const index = new Map(plan.map((m, i) => [`${m.side}:${m.round}:${m.position}`, i]));
  return (side: BracketSide, round: number, position: number): number => {
    const found = index.get(`${side}:${round}:${position}`);
    if (found === undefined) throw new Error(`no match ${side} ${round}.${position}`);
    return found;
  };
}

/**
 * Single elimination over `size` seed slots (a power of two): losers leave at once, the later the
 * round the better their place; with `thirdPlace`, the semifinal losers meet for third.
 */
export function singleEliminationPlan(size: number, options: { thirdPlace?: boolean | undefined } = {}): PlannedMatch[] {
  const plan: PlannedMatch[] = [];
  const rounds = buildTree(size, plan);
  const third = Boolean(options.thirdPlace) && rounds >= 2;
  for (const match of plan) {
    if (match.round === rounds) Object.assign(match, { winnerOut: CHAMPION, loserOut: RUNNER_UP });
    else if (!(third && match.round === rounds - 1)) match.loserOut = match.round;
  }
  if (third) {
    const at = finder(plan);
    plan.push({
      group: null,
      side: 'third_place',
      round: 1,
      position: 1,
      a: { kind: 'loser', match: at('winners', rounds - 1, 1) },
      b: { kind: 'loser', match: at('winners', rounds - 1, 2) },
      winnerOut: RUNNER_UP - 1,
      loserOut: RUNNER_UP - 2,
    });
  }
  return plan;
}

function buildTree(size: number, plan: PlannedMatch[]): number {
  const rounds = Math.log2(size);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error('bracket size must be a power of two');
  const key = new Map<string, number>();
  for (let round = 1; round <= rounds; round++) {
    for (let position = 1; position <= size / 2 ** round; position++) {
      const feeder = (p: number): Source => ({ kind: 'winner', match: key.get(`${round - 1}:${p}`)! });
      const a: Source = round === 1 ? { kind: 'seed', index: 2 * (position - 1) } : feeder(2 * position - 1);
      const b: Source = round === 1 ? { kind: 'seed', index: 2 * (position - 1) + 1 } : feeder(2 * position);
      key.set(`${round}:${position}`, plan.length);
      plan.push({ group: null, side: 'winners', round, position, a, b });
    }
  }
  return rounds;
}

/**
 * Double elimination over `size` seed slots: a participant leaves after a second loss. The
 * losers' bracket alternates rounds that take the winners' bracket's losers (in reverse order
 * every other time, so early rematches are avoided) with rounds among its own winners. The grand
 * final is one match (`simple`), one plus a reset the losers' champion forces by winning the
 * first (`double`), or none: the two brackets' champions are then first and second.
 */
export function doubleEliminationPlan(size: number, options: { grandFinal?: GrandFinal | undefined } = {}): PlannedMatch[] {
  const grandFinal = options.grandFinal ?? 'double';
  const plan: PlannedMatch[] = [];
  const k = buildTree(size, plan);
  const wb = (round: number, position: number) => plan.findIndex((m) => m.side === 'winners' && m.round === round && m.position === position);
  const lb = (round: number, position: number) => plan.findIndex((m) => m.side === 'losers' && m.round === round && m.position === position);
  const losersRounds = 2 * (k - 1);
  for (let round = 1; round <= losersRounds; round++) {
    if (round === 1) {
      for (let p = 1; p <= size / 4; p++) {
        plan.push({ group: null, side: 'losers', round, position: p, a: { kind: 'loser', match: wb(1, 2 * p - 1) }, b: { kind: 'loser', match: wb(1, 2 * p) } });
      }
    } else if (round % 2 === 0) {
      const j = round / 2;
      const count = size / 2 ** (j + 1);
      for (let p = 1; p <= count; p++) {
        const dropped = j % 2 === 1 ? count + 1 - p : p;
        plan.push({ group: null, side: 'losers', round, position: p, a: { kind: 'winner', match: lb(round - 1, p) }, b: { kind: 'loser', match: wb(j + 1, dropped) } });
      }
    } else {
      const count = size / 2 ** ((round + 1) / 2 + 1);
      for (let p = 1; p <= count; p++) {
        plan.push({ group: null, side: 'losers', round, position: p, a: { kind: 'winner', match: lb(round - 1, 2 * p - 1) }, b: { kind: 'winner', match: lb(round - 1, 2 * p) } });
      }
    }
  }
  for (const match of plan) if (match.side === 'losers') match.loserOut = match.round;
  const winnersFinal = wb(k, 1);
  // With two participants there is no losers' bracket: the winners' final's loser is its champion.
  const losersChampion: Source = losersRounds > 0 ? { kind: 'winner', match: lb(losersRounds, 1) } : { kind: 'loser', match: winnersFinal };
  if (grandFinal === 'none') {
    plan[winnersFinal]!.winnerOut = CHAMPION;
    if (losersRounds > 0) plan[lb(losersRounds, 1)]!.winnerOut = RUNNER_UP;
    else plan[winnersFinal]!.loserOut = RUNNER_UP;
    return plan;
  }
  const first = plan.length;
  plan.push({ group: null, side: 'grand_final', round: 1, position: 1, a: { kind: 'winner', match: winnersFinal }, b: losersChampion, winnerOut: CHAMPION, loserOut: RUNNER_UP });
  if (grandFinal === 'double') {
    plan.push({
      group: null,
      side: 'grand_final',
      round: 2,
      position: 1,
      a: { kind: 'reset', match: first, slot: 'a' },
      b: { kind: 'reset', match: first, slot: 'b' },
      winnerOut: CHAMPION,
      loserOut: RUNNER_UP,
    });
  }
  return plan;
}
