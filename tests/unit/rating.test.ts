import { describe, expect, it } from 'vitest';
import { addTotals, readCount, statProblem, winnerSide } from '../../src/lib/domain/match-result.ts';
import { expectedScore, INITIAL_RATING, kFactor, nextStreak, rateDraw, rateLobby, rateMatch, winRate } from '../../src/lib/domain/rating.ts';

const fresh = { rating: INITIAL_RATING, matchesPlayed: 0 };

describe('Elo rating', () => {
  it('starts at 1000 and moves 16 points between two newcomers', () => {
    expect(rateMatch(fresh, fresh)).toEqual({ winner: 1016, loser: 984 });
  });

  it('expects the stronger side to win more often: 200 points is about 76 %', () => {
    expect(expectedScore(1000, 1000)).toBe(0.5);
    expect(expectedScore(1200, 1000)).toBeCloseTo(0.759747, 6);
    expect(expectedScore(1000, 1200)).toBeCloseTo(0.240253, 6);
    expect(expectedScore(1400, 1000)).toBeCloseTo(10 / 11, 10);
  });

  it('gives little for beating a weaker side and much for an upset', () => {
    const strong = { rating: 1200, matchesPlayed: 10 };
    const weak = { rating: 1000, matchesPlayed: 10 };
    expect(rateMatch(strong, weak)).toEqual({ winner: 1207.69, loser: 992.31 });
    expect(rateMatch(weak, strong)).toEqual({ winner: 1024.31, loser: 1175.69 });
  });

  it('uses K 32 for the first 30 matches, then 24', () => {
    expect(kFactor(0)).toBe(32);
    expect(kFactor(29)).toBe(32);
    expect(kFactor(30)).toBe(24);
    expect(kFactor(500)).toBe(24);
    const veteran = { rating: 1000, matchesPlayed: 30 };
    expect(rateMatch(veteran, fresh)).toEqual({ winner: 1012, loser: 984 });
    // A newcomer beating a veteran of 1200: +24.31 for the newcomer, −18.23 for the veteran.
    expect(rateMatch(fresh, { rating: 1200, matchesPlayed: 40 })).toEqual({ winner: 1024.31, loser: 1181.77 });
  });

  it('keeps two decimals, so every database stores the same number', () => {
    const { winner, loser } = rateMatch({ rating: 1016, matchesPlayed: 1 }, fresh);
    expect(winner).toBe(1031.26);
    expect(loser).toBe(984.74);
  });

  it('is symmetric between equal K-factors: what one gains the other loses', () => {
    for (const [a, b] of [
      [1000, 1000],
      [1500, 1320.5],
      [870.25, 2010],
    ] as const) {
      const result = rateMatch({ rating: a, matchesPlayed: 3 }, { rating: b, matchesPlayed: 7 });
      expect(result.winner - a).toBeCloseTo(b - result.loser, 1);
      expect(result.winner).toBeGreaterThan(a);
      expect(result.loser).toBeLessThan(b);
    }
  });
});

describe('streaks and win rate', () => {
  it('counts wins up and losses down, restarting when the run breaks', () => {
    const runs = [true, true, true, false, false, true].reduce<number[]>((acc, won) => [...acc, nextStreak(acc.at(-1) ?? 0, won)], []);
    expect(runs).toEqual([1, 2, 3, -1, -2, 1]);
    expect(nextStreak(0, false)).toBe(-1);
  });

  it('gives the win rate in percent, 0 before any match', () => {
    expect(winRate(0, 0)).toBe(0);
    expect(winRate(3, 4)).toBe(75);
    expect(winRate(1, 3)).toBeCloseTo(33.333, 3);
  });
});

describe('match results', () => {
  it('name the higher score the winner, and no one on equal scores', () => {
    expect(winnerSide(13, 7)).toBe(1);
    expect(winnerSide(5, 9)).toBe(2);
    expect(winnerSide(4, 4)).toBeNull();
  });

  it('read typed numbers, anything else as 0', () => {
    expect(['12', ' 7 ', '0', '', 'abc', '-3', '2.5', '1e3', '99999999999999999999'].map(readCount)).toEqual([12, 7, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('accept only the game’s numeric fields, percentages up to 100', () => {
    const fields = [
      { fieldName: 'kills', fieldType: 'number' },
      { fieldName: 'accuracy', fieldType: 'percentage' },
      { fieldName: 'time', fieldType: 'time' },
      { fieldName: 'hero', fieldType: 'string' },
    ];
    expect(statProblem({ kills: 30, accuracy: 100, time: 40 }, fields)).toBeNull();
    expect(statProblem({ hero: 1 }, fields)).toEqual({ kind: 'unknown', field: 'hero' });
    expect(statProblem({ deaths: 1 }, fields)).toEqual({ kind: 'unknown', field: 'deaths' });
    expect(statProblem({ accuracy: 101 }, fields)).toEqual({ kind: 'percent', field: 'accuracy' });
  });

  it('add a match’s stats to the running totals', () => {
    expect(addTotals({ kills: 20, deaths: 3 }, { kills: 15, assists: 2 })).toEqual({ kills: 35, deaths: 3, assists: 2 });
  });
});

describe('Elo rating of a draw (issue 21)', () => {
  it('changes nothing between equal ratings with equal K-factors', () => {
    expect(rateDraw(fresh, fresh)).toEqual({ a: 1000, b: 1000 });
    expect(rateDraw({ rating: 1250, matchesPlayed: 40 }, { rating: 1250, matchesPlayed: 40 })).toEqual({ a: 1250, b: 1250 });
  });

  it('moves the favourite down and the underdog up by K · (½ − E)', () => {
    // E(1200 vs 1000) = 0.759747: 32 · 0.259747 = 8.3119.
    expect(rateDraw({ rating: 1200, matchesPlayed: 10 }, { rating: 1000, matchesPlayed: 10 })).toEqual({ a: 1191.69, b: 1008.31 });
    expect(rateDraw({ rating: 1000, matchesPlayed: 10 }, { rating: 1200, matchesPlayed: 10 })).toEqual({ a: 1008.31, b: 1191.69 });
    // E(1016 vs 984) = 1 / (1 + 10^−0.08) = 0.545922: 32 · 0.045922 = 1.4695.
    expect(rateDraw({ rating: 1016, matchesPlayed: 1 }, { rating: 984, matchesPlayed: 1 })).toEqual({ a: 1014.53, b: 985.47 });
  });

  it('uses each side’s own K-factor', () => {
    // The veteran (K 24) loses 24 · 0.259747 = 6.2339, the newcomer (K 32) gains 8.3119.
    expect(rateDraw({ rating: 1200, matchesPlayed: 40 }, { rating: 1000, matchesPlayed: 0 })).toEqual({ a: 1193.77, b: 1008.31 });
  });

  it('lands halfway between winning and losing the same match', () => {
    for (const [a, b] of [
      [1000, 1000],
      [1500, 1320.5],
      [870.25, 2010],
    ] as const) {
      const one = { rating: a, matchesPlayed: 3 };
      const two = { rating: b, matchesPlayed: 35 };
      const drawn = rateDraw(one, two);
      expect(drawn.a).toBeCloseTo((rateMatch(one, two).winner + rateMatch(two, one).loser) / 2, 1);
      expect(drawn.b).toBeCloseTo((rateMatch(two, one).winner + rateMatch(one, two).loser) / 2, 1);
    }
  });
});

describe('rating a free-for-all lobby (decision 039)', () => {
  const fresh = (n: number) => Array.from({ length: n }, () => ({ rating: INITIAL_RATING, matchesPlayed: 0 }));

  it('rates two members exactly as one match, and a shared place as a draw', () => {
    const one = { rating: 1200, matchesPlayed: 10 };
    const two = { rating: 1000, matchesPlayed: 40 };
    const won = rateMatch(two, one);
    expect(rateLobby([one, two], [2, 1])).toEqual([won.loser, won.winner]);
    const drawn = rateDraw(one, two);
    expect(rateLobby([one, two], [1, 1])).toEqual([drawn.a, drawn.b]);
  });

  it('moves equal newcomers by 32 · (wins − ½ · others) / others: the first of four gains 16, the last loses 16', () => {
    // Each pair is expected ½: the winner beats 3 (32 · 1.5 / 3 = 16), the second beats 2 (32 · 0.5 / 3 = 5.33).
    expect(rateLobby(fresh(4), [1, 2, 3, 4])).toEqual([1016, 1005.33, 994.67, 984]);
    // Sixteen: the winner still gains 16, not 16 times as much.
    const sixteen = rateLobby(
      fresh(16),
      Array.from({ length: 16 }, (_, i) => i + 1),
    );
    expect(sixteen[0]).toBe(1016);
    expect(sixteen[15]).toBe(984);
  });

  it('keeps the sum of equal-K ratings, and rewards an upset more than an expected win', () => {
    const sides = [1400, 1200, 1000, 800].map((rating) => ({ rating, matchesPlayed: 50 }));
    const expected = rateLobby(sides, [1, 2, 3, 4]);
    const upset = rateLobby(sides, [4, 3, 2, 1]);
    expect(expected.reduce((a, b) => a + b, 0)).toBeCloseTo(4400, 1);
    expect(upset.reduce((a, b) => a + b, 0)).toBeCloseTo(4400, 1);
    expect(upset[3]! - 800).toBeGreaterThan(expected[0]! - 1400);
    expect(rateLobby([{ rating: 1100, matchesPlayed: 3 }], [1])).toEqual([1100]);
  });
});
