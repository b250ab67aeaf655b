/**
 * Elo ratings for players and teams (docs/decisions/004-rating.md). Pure: the server applies it
 * when a match is recorded, tests check it against hand-computed values.
 */

/** Where every player and team starts in a game. */
export const INITIAL_RATING = 1000;
/** K-factor while a side has played fewer than `PROVISIONAL_MATCHES` matches: new ratings move fast. */
export const K_PROVISIONAL = 32;
/** K-factor afterwards: established ratings move more slowly. */
export const K_ESTABLISHED = 24;
/** How many matches use the provisional K-factor (the first 30). */
export const PROVISIONAL_MATCHES = 30;
/** The logistic scale: a 400-point gap means the stronger side is expected to score 10 times as often. */
export const ELO_SCALE = 400;

/** A side's standing before a match: its rating and how many matches it has played in the game. */
export interface RatedSide {
  rating: number;
  matchesPlayed: number;
}

/** The K-factor of a side that has played `matchesPlayed` matches before this one. */
export const kFactor = (matchesPlayed: number): number => (matchesPlayed < PROVISIONAL_MATCHES ? K_PROVISIONAL : K_ESTABLISHED);

/** The score `rating` is expected to take against `opponent`: between 0 and 1. */
export const expectedScore = (rating: number, opponent: number): number => 1 / (1 + 10 ** ((opponent - rating) / ELO_SCALE));

/** Ratings are kept to two decimals, so every database stores and returns the same number. */
const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * New ratings after `winner` beat `loser` (a draw is `rateDraw`). Each side moves by
 * its own K-factor, so a newcomer beating a veteran gains more than the veteran loses.
 */
export function rateMatch(winner: RatedSide, loser: RatedSide): { winner: number; loser: number } {
  const expected = expectedScore(winner.rating, loser.rating);
  return {
    winner: round2(winner.rating + kFactor(winner.matchesPlayed) * (1 - expected)),
    loser: round2(loser.rating + kFactor(loser.matchesPlayed) * (0 - (1 - expected))),
  };
}

/**
 * New ratings after a draw (round robin and Swiss allow them; decision 004, "Draws"): each side
 * scores ½ against its expectation with its own K-factor, so the lower-rated side gains.
 */
export function rateDraw(a: RatedSide, b: RatedSide): { a: number; b: number } {
  const expected = expectedScore(a.rating, b.rating);
  return {
    a: round2(a.rating + kFactor(a.matchesPlayed) * (0.5 - expected)),
    b: round2(b.rating + kFactor(b.matchesPlayed) * (0.5 - (1 - expected))),
  };
}

/**
 * New ratings after a free-for-all lobby (decision 039): its final table as every pair of members
 * once, the better placed winning (a shared place a draw), each member moving by its own K-factor
 * divided by the lobby's size less one, from the ratings everyone had before the lobby. Two members
 * rate as one match; sixteen do not move sixteen times as far.
 */
export function rateLobby(sides: readonly RatedSide[], placements: readonly number[]): number[] {
  const others = sides.length - 1;
  return sides.map((side, i) => {
    if (others === 0) return side.rating;
    let gained = 0;
    sides.forEach((other, j) => {
      if (i === j) return;
      const score = placements[i]! < placements[j]! ? 1 : placements[i] === placements[j] ? 0.5 : 0;
      gained += score - expectedScore(side.rating, other.rating);
    });
    return round2(side.rating + (kFactor(side.matchesPlayed) / others) * gained);
  });
}

/** The current streak after one more result: positive for a run of wins, negative for a run of losses. */
export const nextStreak = (streak: number, won: boolean): number => (won ? (streak > 0 ? streak + 1 : 1) : streak < 0 ? streak - 1 : -1);

/** Win rate in percent (0–100); 0 before the first match. */
export const winRate = (won: number, played: number): number => (played > 0 ? (won / played) * 100 : 0);
