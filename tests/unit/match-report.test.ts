import { describe, expect, it } from 'vitest';
import { sameReport } from '../../src/lib/domain/match-report.ts';
import { answersChangedBy, answersChangedByEvent } from '../../src/server/serving/write-effects.ts';

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

describe('the held answers a players’ report marks', () => {
  const ID = '0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c';
  const OTHER = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
  const held = [
    '/',
    `/matches/${ID}`,
    `/api/matches/${ID}`,
    `/tournaments/${ID}`,
    `/tournament/${ID}/bracket`,
    `/api/tournaments/${ID}/stages`,
    '/leaderboards',
    '/api/stats/games',
    '/news',
    '/games/x',
    '/tournaments',
    `/tournaments/${OTHER}`,
  ];
  const tournament = [`/tournaments/${ID}`, `/tournament/${ID}/bracket`, `/api/tournaments/${ID}/stages`];
  const ratings = ['/', '/leaderboards', '/api/stats/games'];

  it('by its path, the matches; by the event it publishes, its tournament’s pages and reads, and the ratings for a result', () => {
    for (const action of ['report', 'confirm', 'dispute']) {
      expect(held.filter(answersChangedBy(`/api/matches/${ID}/${action}`, 'POST')), action).toEqual([`/matches/${ID}`, `/api/matches/${ID}`]);
    }
    // A confirmation (or an agreeing report) applies a result: `match`; a report waiting or disputed: `report`.
    expect(held.filter(answersChangedByEvent(ID, 'match')).sort()).toEqual([`/matches/${ID}`, `/api/matches/${ID}`, ...tournament, ...ratings].sort());
    expect(held.filter(answersChangedByEvent(ID, 'report')).sort()).toEqual([`/matches/${ID}`, `/api/matches/${ID}`, ...tournament].sort());
    // A result of a tournament that counts no statistics changes no rating.
    expect(held.filter(answersChangedByEvent(ID, 'match', false)).sort()).toEqual([`/matches/${ID}`, `/api/matches/${ID}`, ...tournament].sort());
  });
});
