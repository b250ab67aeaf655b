/**
 * A stage's state from its plan, its seeds and the results entered (issue 21). Pure and total:
 * every match is waiting, ready or completed; a bye passes its participant on at once; a
 * disqualified participant forfeits each match as it comes; a result whose sides are no longer
 * the match's (an earlier result was corrected) no longer counts — that is the cascade.
 */
import type { MatchStatus } from './format.ts';
import type { PlannedMatch, Source } from './plan.ts';
import type { JudgedResult } from './result.ts';

/** A result as stored: the two sides it was played between and what it was. */
export interface EnteredResult {
  a: string | null;
  b: string | null;
  result: JudgedResult;
}

export interface ResolvedMatch {
  plan: PlannedMatch;
  a: string | null;
  b: string | null;
  status: MatchStatus;
  /** The result that counts; null while unplayed and for a bye. */
  result: JudgedResult | null;
  winner: string | null;
  loser: string | null;
  /** Completed without being played: one side (or none) ever came, or a reset that was not needed. */
  bye: boolean;
  /** Completed because a disqualified side forfeited it. */
  disqualification: boolean;
}

interface SideState {
  known: boolean;
  id: string | null;
}

function sourceState(source: Source, seeds: readonly (string | null)[], done: readonly ResolvedMatch[]): SideState {
  switch (source.kind) {
    case 'seed':
      return { known: true, id: seeds[source.index] ?? null };
    case 'fixed':
      return { known: true, id: source.id };
    case 'winner':
    case 'loser': {
      const feeder = done[source.match];
      if (feeder?.status !== 'completed') return { known: false, id: null };
      return { known: true, id: source.kind === 'winner' ? feeder.winner : feeder.loser };
    }
    case 'reset': {
      const first = done[source.match];
      if (first?.status !== 'completed') return { known: false, id: null };
      // Not needed when the winners' champion (a) won the first final: both sides stay empty.
      if (first.winner === null || first.winner === first.a) return { known: true, id: null };
      return { known: true, id: first[source.slot] };
    }
  }
}

/**
 * Resolves every match of `plan` in order (each source points at an earlier match). `entered`
 * holds the stored results by plan index; `disqualified` participants forfeit.
 */
export function resolveStage(
  plan: readonly PlannedMatch[],
  seeds: readonly (string | null)[],
  entered: ReadonlyMap<number, EnteredResult>,
  disqualified: ReadonlySet<string> = new Set(),
): ResolvedMatch[] {
  const done: ResolvedMatch[] = [];
  plan.forEach((planned, index) => {
    const a = sourceState(planned.a, seeds, done);
    const b = sourceState(planned.b, seeds, done);
    const base = { plan: planned, a: a.id, b: b.id, result: null, winner: null, loser: null, bye: false, disqualification: false };
    if (!a.known || !b.known) {
      done.push({ ...base, status: 'waiting' });
      return;
    }
    if (!a.id || !b.id) {
      done.push({ ...base, status: 'completed', winner: a.id ?? b.id, bye: true });
      return;
    }
    const stored = entered.get(index);
    const counts = stored && stored.a === a.id && stored.b === b.id ? stored.result : null;
    const outA = disqualified.has(a.id);
    const outB = disqualified.has(b.id);
    // A result entered before the disqualification stands; what is left to play is forfeited.
    const result: JudgedResult | null =
      counts ?? (outA || outB ? { scoreA: 0, scoreB: 0, games: [], forfeit: outA ? 'a' : 'b', winner: outA ? 'b' : 'a' } : null);
    if (!result) {
      done.push({ ...base, status: 'ready' });
      return;
    }
    const { winner } = result;
    done.push({
      ...base,
      status: 'completed',
      result,
      winner: winner ? (winner === 'a' ? a.id : b.id) : null,
      loser: winner ? (winner === 'a' ? b.id : a.id) : null,
      disqualification: !counts,
    });
  });
  return done;
}

/** The same result, compared by value: `before` and `after` may be resolved from results read separately. */
const sameResult = (x: JudgedResult, y: JudgedResult): boolean =>
  x.scoreA === y.scoreA &&
  x.scoreB === y.scoreB &&
  x.forfeit === y.forfeit &&
  x.winner === y.winner &&
  x.games.length === y.games.length &&
  x.games.every((game, i) => game.a === y.games[i]?.a && game.b === y.games[i]?.b);

/**
 * Matches whose entered result counted in `before` and no longer counts in `after`: what a change
 * resets (the changed match itself included). Compared by sides and value, not by object identity:
 * results read from storage twice are different objects and must not look reset.
 */
export function resetBy(before: readonly ResolvedMatch[], after: readonly ResolvedMatch[]): number[] {
  const reset: number[] = [];
  before.forEach((match, index) => {
    if (!match.result || match.disqualification) return;
    const now = after[index];
    const stands = now?.result && !now.disqualification && now.a === match.a && now.b === match.b && sameResult(now.result, match.result);
    if (!stands) reset.push(index);
  });
  return reset;
}

/** Whether every match of the stage is completed (byes included). */
export const isStageComplete = (matches: readonly ResolvedMatch[]): boolean => matches.length > 0 && matches.every((m) => m.status === 'completed');
