/**
 * A match's result (issue 21): scores, per-game scores of a best-of-N, a forfeit; the winner is
 * derived from them, never typed. Pure: the API validates with it and the editor previews with it.
 */
import type { Slot } from './format.ts';

export interface GameScore {
  a: number;
  b: number;
  /** The map it was played on, from the match's veto (issue 58): the server's to say, never a form's. */
  map?: string;
}

export interface ResultInput {
  scoreA?: number | undefined;
  scoreB?: number | undefined;
  games?: readonly GameScore[] | undefined;
  /** The side that forfeits: the other side wins whatever the score. */
  forfeit?: Slot | null | undefined;
}

export interface JudgedResult {
  /** Null only for a winner entered without a score (the SPEC bracket's quick "{name} won"). */
  scoreA: number | null;
  scoreB: number | null;
  games: GameScore[];
  forfeit: Slot | null;
  /** The winning side; null for a draw. */
  winner: Slot | null;
}

export type ResultRefusal = 'noScore' | 'draw' | 'bestOf' | 'gameDraw' | 'gamesAfterDecided' | 'gamesMismatch' | 'tooManyGames';

/** Games a side needs to take a best-of-N: 1 of 1, 2 of 3, 3 of 5. */
export const winsNeeded = (bestOf: number): number => Math.ceil(bestOf / 2);

const other = (slot: Slot): Slot => (slot === 'a' ? 'b' : 'a');

/**
 * Judges a result for a match played best of `bestOf`, where draws are allowed or not. Scores
 * of a best-of-1 are any points (16–12); of a best-of-N they count games won, and the match is
 * won at ⌈N/2⌉. Per-game scores, when given, decide the match score and must agree with it.
 */
export function judgeResult(input: ResultInput, rules: { bestOf: number; draws: boolean }): { ok: true; result: JudgedResult } | { ok: false; reason: ResultRefusal } {
  const games = [...(input.games ?? [])].map((g): GameScore => (g.map ? { a: g.a, b: g.b, map: g.map } : { a: g.a, b: g.b }));
  const forfeit = input.forfeit ?? null;
  if (forfeit) {
    return { ok: true, result: { scoreA: input.scoreA ?? 0, scoreB: input.scoreB ?? 0, games, forfeit, winner: other(forfeit) } };
  }
  let { scoreA, scoreB } = input;
  if (games.length > 0) {
    if (games.length > rules.bestOf) return { ok: false, reason: 'tooManyGames' };
    const won = { a: 0, b: 0 };
    for (const game of games) {
      if (game.a === game.b) return { ok: false, reason: 'gameDraw' };
      if (Math.max(won.a, won.b) >= winsNeeded(rules.bestOf)) return { ok: false, reason: 'gamesAfterDecided' };
      won[game.a > game.b ? 'a' : 'b'] += 1;
    }
    if ((scoreA !== undefined && scoreA !== won.a) || (scoreB !== undefined && scoreB !== won.b)) return { ok: false, reason: 'gamesMismatch' };
    scoreA = won.a;
    scoreB = won.b;
  }
  if (scoreA === undefined || scoreB === undefined) return { ok: false, reason: 'noScore' };
  if (scoreA === scoreB) {
    if (!rules.draws) return { ok: false, reason: 'draw' };
    // Best-of-N is odd (the API refuses even ones): only a single game can end level.
    if (rules.bestOf > 1) return { ok: false, reason: 'bestOf' };
    return { ok: true, result: { scoreA, scoreB, games, forfeit: null, winner: null } };
  }
  if (rules.bestOf > 1) {
    const high = Math.max(scoreA, scoreB);
    if (high !== winsNeeded(rules.bestOf) || scoreA + scoreB > rules.bestOf) return { ok: false, reason: 'bestOf' };
  }
  return { ok: true, result: { scoreA, scoreB, games, forfeit: null, winner: scoreA > scoreB ? 'a' : 'b' } };
}
