import { describe, expect, it } from 'vitest';
import { sameReport } from '../../src/lib/domain/match-report.ts';

describe('sameReport', () => {
  const games = [
    { a: 10, b: 5 },
    { a: 3, b: 9 },
    { a: 8, b: 1 },
  ];

  it('agrees on the same match score, keeping the games whichever side gave them', () => {
    expect(sameReport({ scoreA: 2, scoreB: 1, games }, { scoreA: 2, scoreB: 1, games: [] })).toEqual({ scoreA: 2, scoreB: 1, games });
    expect(sameReport({ scoreA: 2, scoreB: 1, games: [] }, { scoreA: 2, scoreB: 1, games })).toEqual({ scoreA: 2, scoreB: 1, games });
    expect(sameReport({ scoreA: 1, scoreB: 1, games: [] }, { scoreA: 1, scoreB: 1, games: [] })).toEqual({ scoreA: 1, scoreB: 1, games: [] });
  });

  it('differs on another match score, or on other games when both gave them', () => {
    expect(sameReport({ scoreA: 2, scoreB: 1, games: [] }, { scoreA: 1, scoreB: 2, games: [] })).toBeNull();
    expect(sameReport({ scoreA: 2, scoreB: 0, games: [] }, { scoreA: 2, scoreB: 1, games: [] })).toBeNull();
    expect(sameReport({ scoreA: 2, scoreB: 1, games }, { scoreA: 2, scoreB: 1, games: [games[1]!, games[0]!, games[2]!] })).toBeNull();
    expect(sameReport({ scoreA: 2, scoreB: 1, games }, { scoreA: 2, scoreB: 1, games: games.slice(0, 2) })).toBeNull();
  });
});
