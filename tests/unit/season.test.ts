import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  joinRefusal,
  parsePoints,
  POINTS_MAX,
  POINTS_PLACES_MAX,
  pointsFor,
  pointsRefusal,
  pointsText,
  seasonTable,
  type CountedTournament,
} from '../../src/lib/domain/season.ts';

/* Seasons (issue 59): what a points table may be, who may join, and how the season's table ranks. */

const POINTS = [100, 70, 50, 35];
const names: Record<string, string> = { a: 'Альфа', b: 'Браво', c: 'Вега', d: 'Гамма', e: 'Ґава' };
const nameOf = (id: string) => names[id] ?? id;
const cup = (id: string, date: string, places: [string, number, number?][]): CountedTournament => ({
  id,
  date,
  placements: places.map(([participant, from, to]) => ({ participant, from, to: to ?? from })),
});
const summary = (rows: ReturnType<typeof seasonTable>) => rows.map((r) => [r.rank, r.participant, r.total, r.best]);

describe('a points table', () => {
  it.each([
    [[100], null],
    [[100, 70, 70, 0], null],
    [Array.from({ length: POINTS_PLACES_MAX }, () => 1), null],
    [[POINTS_MAX, 0], null],
    [[], 'empty'],
    [Array.from({ length: POINTS_PLACES_MAX + 1 }, () => 1), 'tooMany'],
    [[10, 1.5], 'notInteger'],
    [[10, '5'], 'notInteger'],
    [[10, Number.NaN], 'notInteger'],
    [[10, -1], 'negative'],
    [[POINTS_MAX + 1], 'tooHigh'],
    [[50, 70], 'increasing'],
  ])('%j is refused for %j', (points, refusal) => {
    expect(pointsRefusal(points)).toBe(refusal);
  });

  it('gives each place its points and 0 past the last', () => {
    expect([1, 2, 4, 5, 64].map((place) => pointsFor(POINTS, place))).toEqual([100, 70, 35, 0, 0]);
  });

  it('reads as one line and back', () => {
    expect(pointsText(POINTS)).toBe('100, 70, 50, 35');
    expect(parsePoints('100, 70;50  35\n')).toEqual(POINTS);
    expect(pointsRefusal(parsePoints('100, 7.5'))).toBe('notInteger');
    expect(pointsRefusal(parsePoints(' '))).toBe('empty');
  });
});

describe('joining a season', () => {
  const season = { gameId: 'g', organisationId: 'o', soloOnly: false };
  it('takes a tournament of the same host, game and kind', () => {
    expect(joinRefusal(season, { gameId: 'g', organisationId: 'o', soloOnly: false })).toBeNull();
    // The site's own season takes the site's own tournaments.
    expect(joinRefusal({ ...season, organisationId: null }, { gameId: 'g', organisationId: null, soloOnly: false })).toBeNull();
    // A season of no kind yet takes either; the first decides.
    expect(joinRefusal({ ...season, soloOnly: null }, { gameId: 'g', organisationId: 'o', soloOnly: true })).toBeNull();
  });

  it('refuses another host, then another game, then another kind', () => {
    expect(joinRefusal(season, { gameId: 'x', organisationId: 'p', soloOnly: true })).toBe('otherOrganisation');
    expect(joinRefusal(season, { gameId: 'g', organisationId: null, soloOnly: false })).toBe('otherOrganisation');
    expect(joinRefusal({ ...season, organisationId: null }, { gameId: 'g', organisationId: 'o', soloOnly: false })).toBe('otherOrganisation');
    expect(joinRefusal(season, { gameId: 'x', organisationId: 'o', soloOnly: true })).toBe('otherGame');
    expect(joinRefusal(season, { gameId: 'g', organisationId: 'o', soloOnly: true })).toBe('otherKind');
  });
});

describe('the season’s table', () => {
  it('adds up points by final place across tournaments, highest total first, with each tournament’s place and points', () => {
    const rows = seasonTable(
      POINTS,
      [cup('t1', '2030-01-01', [['a', 1], ['b', 2], ['c', 3], ['d', 4]]), cup('t2', '2030-02-01', [['b', 1], ['c', 2], ['a', 3], ['e', 5]])],
      nameOf,
    );
    expect(summary(rows)).toEqual([
      [1, 'b', 170, 1],
      [2, 'a', 150, 1],
      [3, 'c', 120, 2],
      [4, 'd', 35, 4],
      [5, 'e', 0, 5],
    ]);
    // The most recent tournament first.
    expect(rows[1]!.results).toEqual([
      { tournament: 't2', from: 3, to: 3, points: 50 },
      { tournament: 't1', from: 1, to: 1, points: 100 },
    ]);
  });

  it('counts a shared band as its best place', () => {
    const rows = seasonTable(POINTS, [cup('t1', '2030-01-01', [['a', 1], ['b', 2], ['c', 3, 4], ['d', 3, 4]])], nameOf);
    expect(summary(rows)).toEqual([
      [1, 'a', 100, 1],
      [2, 'b', 70, 2],
      [3, 'c', 50, 3],
      [3, 'd', 50, 3],
    ]);
    expect(rows[2]!.results[0]).toEqual({ tournament: 't1', from: 3, to: 4, points: 50 });
  });

  it('breaks a tie on points by the best single place', () => {
    // a: 70 + 70 = 140, b: 100 + 35 + 5 = 140 with a win: b first.
    const points = [100, 70, 50, 35, 5];
    const rows = seasonTable(
      points,
      [cup('t1', '2030-01-01', [['a', 2], ['b', 1]]), cup('t2', '2030-02-01', [['b', 4], ['a', 2]]), cup('t3', '2030-03-01', [['b', 5]])],
      nameOf,
    );
    expect(summary(rows)).toEqual([
      [1, 'b', 140, 1],
      [2, 'a', 140, 2],
    ]);
  });

  it('then by the most recent tournament where the two fared differently', () => {
    // Both 150 with a win; in the last tournament c placed and a did not, so c ranks higher though a was better before.
    const rows = seasonTable(
      POINTS,
      [
        cup('t1', '2030-01-01', [['a', 1], ['c', 3]]),
        cup('t2', '2030-02-01', [['a', 3], ['c', 1]]),
        cup('t3', '2030-03-01', [['c', 9]]),
      ],
      nameOf,
    );
    expect(summary(rows)).toEqual([
      [1, 'c', 150, 1],
      [2, 'a', 150, 1],
    ]);
    // Both placed in the last one: the better place there wins.
    const both = seasonTable(
      POINTS,
      [cup('t1', '2030-01-01', [['a', 1], ['c', 2]]), cup('t2', '2030-02-01', [['c', 1], ['a', 2]])],
      nameOf,
    );
    expect(summary(both).map(([, id]) => id)).toEqual(['c', 'a']);
  });

  it('shares the rank of rows nothing tells apart, ordered by name', () => {
    const rows = seasonTable(POINTS, [cup('t1', '2030-01-01', [['d', 3, 4], ['a', 3, 4]])], nameOf);
    expect(summary(rows)).toEqual([
      [1, 'a', 50, 3],
      [1, 'd', 50, 3],
    ]);
    // Ґ after Г, as the Ukrainian alphabet has it.
    const letters = seasonTable(POINTS, [cup('t1', '2030-01-01', [['e', 2, 3], ['d', 2, 3]])], nameOf);
    expect(letters.map((r) => r.participant)).toEqual(['d', 'e']);
  });

  it('is empty without a counted tournament, and takes one place per participant and tournament', () => {
    expect(seasonTable(POINTS, [], nameOf)).toEqual([]);
    const rows = seasonTable(POINTS, [cup('t1', '2030-01-01', [['a', 1], ['a', 2]])], nameOf);
    expect(rows).toEqual([{ rank: 1, participant: 'a', total: 100, best: 1, results: [{ tournament: 't1', from: 1, to: 1, points: 100 }] }]);
  });

  it('for any results: totals add up, the order never goes against the rules, and ranks are 1 or follow the row above', () => {
    const place = fc.record({ participant: fc.constantFrom('a', 'b', 'c', 'd', 'e'), from: fc.integer({ min: 1, max: 8 }) });
    const tournaments = fc.array(
      fc.record({ date: fc.integer({ min: 0, max: 1000 }), places: fc.array(place, { maxLength: 6 }) }),
      { maxLength: 5 },
    );
    fc.assert(
      fc.property(tournaments, (list) => {
        const counted = list.map((t, i) =>
          cup(`t${i}`, new Date(Date.UTC(2030, 0, 1) + t.date * 86_400_000).toISOString(), t.places.map((p) => [p.participant, p.from] as [string, number])),
        );
        const rows = seasonTable(POINTS, counted, nameOf);
        for (const row of rows) expect(row.total).toBe(row.results.reduce((sum, r) => sum + r.points, 0));
        rows.forEach((row, i) => {
          const above = rows[i - 1];
          if (!above) return expect(row.rank).toBe(1);
          expect(above.total).toBeGreaterThanOrEqual(row.total);
          if (above.total === row.total) expect(above.best).toBeLessThanOrEqual(row.best);
          expect([above.rank, i + 1]).toContain(row.rank);
        });
      }),
    );
  });
});
