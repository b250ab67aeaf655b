import { describe, expect, it } from 'vitest';
import { reportFormStart, sameReport } from '../../src/lib/domain/match-report.ts';

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

describe('reportFormStart', () => {
  const waiting = { state: 'reported', side: 'a', scoreA: 16, scoreB: 9, games: [] };

  it('starts a change of one’s own waiting report from what was sent', () => {
    expect(reportFormStart(waiting, 'a', 1)).toEqual({ scoreA: '16', scoreB: '9', games: [{ a: '', b: '' }] });
  });

  it('puts the sent games in the first rows of the best-of, the rest blank', () => {
    const sent = {
      ...waiting,
      scoreA: 2,
      scoreB: 0,
      games: [
        { a: 13, b: 7, map: 'Mirage' },
        { a: 13, b: 11 },
      ],
    };
    expect(reportFormStart(sent, 'a', 3)).toEqual({
      scoreA: '2',
      scoreB: '0',
      games: [
        { a: '13', b: '7' },
        { a: '13', b: '11' },
        { a: '', b: '' },
      ],
    });
  });

  it('starts blank with no report, the other side’s, or a disputed one', () => {
    const blank = { scoreA: '', scoreB: '', games: [{ a: '', b: '' }] };
    expect(reportFormStart(null, 'a', 1)).toEqual(blank);
    expect(reportFormStart(waiting, 'b', 1)).toEqual(blank);
    expect(reportFormStart({ ...waiting, state: 'disputed' }, 'a', 1)).toEqual(blank);
    expect(reportFormStart({ ...waiting, scoreA: 0, scoreB: null }, 'a', 1)).toEqual({ ...blank, scoreA: '0' });
  });
});
