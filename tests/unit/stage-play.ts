/**
 * Shared by the stage-*.test.ts files (issue 21): plays a stage of the pure competition engine
 * to its end with chosen or random results, the way the service will — resolve, enter results
 * on whatever is ready, resolve again — so every property test drives the engine the same way.
 */
import { expect } from 'vitest';
import type { Slot } from '../../src/lib/domain/stage/format.ts';
import type { PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { judgeResult, type JudgedResult, type ResultInput } from '../../src/lib/domain/stage/result.ts';

export const ids = (n: number): string[] => Array.from({ length: n }, (_, i) => `p${i + 1}`);

/** A result judged by the engine itself (best of 1), so tests never hand-build an invalid one. */
export function judged(input: ResultInput, draws = false): JudgedResult {
  const verdict = judgeResult(input, { bestOf: 1, draws });
  if (!verdict.ok) throw new Error(`test result refused: ${verdict.reason}`);
  return verdict.result;
}

/** A best-of-1 win for `slot` with a score (16–x), or a draw when `slot` is null. */
export const winFor = (slot: Slot | null, loserScore = 10): JudgedResult =>
  slot === null ? judged({ scoreA: 8, scoreB: 8 }, true) : judged(slot === 'a' ? { scoreA: 16, scoreB: loserScore } : { scoreA: loserScore, scoreB: 16 });

/** A small deterministic generator (mulberry32) from a fast-check seed: many coins, one shrinkable number. */
export function random(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Enters `choose`'s result on every ready match, resolving again, until nothing is ready. */
export function playOut(
  plan: readonly PlannedMatch[],
  seeds: readonly (string | null)[],
  choose: (index: number, match: ResolvedMatch) => JudgedResult,
  entered: Map<number, EnteredResult> = new Map(),
  disqualified: ReadonlySet<string> = new Set(),
): { entered: Map<number, EnteredResult>; matches: ResolvedMatch[] } {
  for (let pass = 0; ; pass++) {
    // A stage can never need more passes than it has matches: each pass completes at least one.
    expect(pass).toBeLessThanOrEqual(plan.length);
    const matches = resolveStage(plan, seeds, entered, disqualified);
    const ready = matches.map((match, index) => ({ match, index })).filter(({ match }) => match.status === 'ready');
    if (ready.length === 0) return { entered, matches };
    for (const { match, index } of ready)
      entered.set(index, {
        a: match.a,
        b: match.b,
        result: choose(index, match),
      });
  }
}

/** Every participant placed twice in one (group, side, round) — should be none. */
export function doubleBookings(matches: readonly ResolvedMatch[]): string[] {
  const seen = new Map<string, Set<string>>();
  const twice: string[] = [];
  for (const match of matches) {
    const key = `${match.plan.group}:${match.plan.side}:${match.plan.round}`;
    const round = seen.get(key) ?? new Set<string>();
    seen.set(key, round);
    for (const id of [match.a, match.b]) {
      if (id === null) continue;
      if (round.has(id)) twice.push(`${id} in ${key}`);
      round.add(id);
    }
  }
  return twice;
}
