/**
 * The SPEC's single-elimination bracket (rounds of `{a, b, winner, loser, comment}`, SPEC §3) as a
 * view of a single-elimination stage, and back (issue 21: "the SPEC contract stays"). The stage's
 * rows are the truth; `tournaments.bracket` keeps this projection for the SPEC's readers.
 */
import type { Bracket } from '../bracket.ts';
import type { EnteredResult, ResolvedMatch } from './resolve.ts';
import type { JudgedResult } from './result.ts';

/** The SPEC bracket of a resolved single-elimination stage: its winners' side, round by round. */
export function bracketOf(matches: readonly ResolvedMatch[], comments: readonly string[]): Bracket {
  const rounds: Bracket = [];
  matches.forEach((match, index) => {
    if (match.plan.side !== 'winners') return;
    const round = (rounds[match.plan.round - 1] ??= {
      round: match.plan.round,
      matches: [],
    });
    round.matches[match.plan.position - 1] = {
      a: match.a,
      b: match.b,
      winner: match.winner,
      loser: match.loser,
      comment: comments[index] ?? '',
    };
  });
  return rounds;
}

/**
 * A SPEC bracket as a stage's seeds and entered results (by plan index, winners' side in round
 * order as `singleEliminationPlan` lists it). A result keeps its earlier score when the same
 * sides and winner stood before (`previous`); a winner typed without a score has none.
 */
export function fromBracket(
  bracket: Bracket,
  previous: ReadonlyMap<number, EnteredResult> = new Map(),
): {
  seeds: (string | null)[];
  entered: Map<number, EnteredResult>;
  comments: string[];
} {
  const seeds = (bracket[0]?.matches ?? []).flatMap((m) => [m.a, m.b]);
  const entered = new Map<number, EnteredResult>();
  const comments: string[] = [];
  let index = 0;
  for (const round of bracket) {
    for (const match of round.matches) {
      comments[index] = match.comment;
      if (match.winner && match.a && match.b) {
        const winner = match.winner === match.a ? 'a' : 'b';
        const before = previous.get(index);
        const result: JudgedResult =
          before && before.a === match.a && before.b === match.b && before.result.winner === winner
            ? before.result
            : { scoreA: null, scoreB: null, games: [], forfeit: null, winner };
        entered.set(index, { a: match.a, b: match.b, result });
      }
      index++;
    }
  }
  return { seeds, entered, comments };
}
