import { describe, expect, it } from 'vitest';
import { bestOfFor, type Points, type TieBreaker } from '../../src/lib/domain/stage/format.ts';
import type { PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult } from '../../src/lib/domain/stage/resolve.ts';
import { groupStandings } from '../../src/lib/domain/stage/standings.ts';
import { judged } from './stage-play.ts';

/** Resolved matches of one group from `[a, b, scoreA, scoreB]` rows (b null: a bye for a). */
function played(rows: readonly [string, string | null, number, number][]) {
  const plan: PlannedMatch[] = rows.map(([a, b], i) => ({
    group: 1,
    side: null,
    round: i + 1,
    position: 1,
    a: { kind: 'fixed', id: a },
    b: { kind: 'fixed', id: b },
  }));
  const entered = new Map<number, EnteredResult>(
    rows.flatMap(([a, b, scoreA, scoreB], i) => (b === null ? [] : [[i, { a, b, result: judged({ scoreA, scoreB }, true) }] as const])),
  );
  const matches = resolveStage(plan, [], entered);
  expect(matches.every((m) => m.status === 'completed')).toBe(true);
  return matches;
}

const order = (participants: string[], rows: Parameters<typeof played>[0], tieBreakers: TieBreaker[], points?: Points) =>
  groupStandings(participants, played(rows), { tieBreakers, points }).map((row) => row.participant);

describe('groupStandings (issue 21: points, then declared tie-breakers among the still level, then seed)', () => {
  // A, B and C finish on 7 points. Among the three: A beat B, drew C; B beat C — A 4, B 3, C 1.
  // Over the whole group C has by far the best score difference (+9 against +1 and +1), and the
  // seed order is C, B, A: only head-to-head among the three alone puts A, B, C.
  const threeWay: [string, string, number, number][] = [
    ['A', 'B', 1, 0],
    ['A', 'C', 0, 0],
    ['B', 'C', 1, 0],
    ['D', 'A', 1, 0],
    ['B', 'D', 0, 0],
    ['C', 'D', 5, 0],
    ['E', 'D', 1, 0],
    ['A', 'E', 1, 0],
    ['B', 'E', 1, 0],
    ['C', 'E', 5, 0],
  ];
  const seeds = ['C', 'B', 'A', 'D', 'E'];

  it('breaks a three-way tie on points by head-to-head among the three only', () => {
    const rows = groupStandings(seeds, played(threeWay), { tieBreakers: ['headToHead', 'scoreDifference', 'scoreFor'] });
    expect(rows.map((r) => [r.participant, r.points, r.scoreDifference])).toEqual([
      ['A', 7, 1],
      ['B', 7, 1],
      ['C', 7, 9],
      ['D', 4, -5],
      ['E', 3, -6],
    ]);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
  });

  it('applies the breakers in the order declared, the next one only among those still level', () => {
    // Score difference first: C (+9) alone; A and B stay level (+1) and A beat B.
    expect(order(seeds, threeWay, ['scoreDifference', 'headToHead'])).toEqual(['C', 'A', 'B', 'D', 'E']);
    // Score difference alone leaves A and B to the seed: B is seeded above A.
    expect(order(seeds, threeWay, ['scoreDifference'])).toEqual(['C', 'B', 'A', 'D', 'E']);
    // No breakers: points, then the seed.
    expect(order(seeds, threeWay, [])).toEqual(['C', 'B', 'A', 'D', 'E']);
  });

  it('ranks two level on points and head-to-head by score difference, then by score for', () => {
    // A and B drew; A beat C 3–0 (+3), B beat C 1–0 (+1).
    expect(
      order(
        ['B', 'A', 'C'],
        [
          ['A', 'B', 1, 1],
          ['A', 'C', 3, 0],
          ['B', 'C', 1, 0],
        ],
        ['headToHead', 'scoreDifference', 'scoreFor'],
      ),
    ).toEqual(['A', 'B', 'C']);
    // Both +1 over the group; B scored 5 to A's 4.
    expect(
      order(
        ['A', 'B', 'C'],
        [
          ['A', 'B', 2, 2],
          ['A', 'C', 2, 1],
          ['B', 'C', 3, 2],
        ],
        ['headToHead', 'scoreDifference', 'scoreFor'],
      ),
    ).toEqual(['B', 'A', 'C']);
  });

  it('ranks Swiss players level on points by Buchholz: the sum of their opponents’ points', () => {
    // Round 1: A beat B, C beat D 1–0. Round 2: A beat C, D beat B 10–0. C and D have 3 points each;
    // C met A (6) and D (3): Buchholz 9; D met C (3) and B (0): Buchholz 3 (A's is 3 too: B 0, C 3). D has the better score difference.
    const swiss: [string, string, number, number][] = [
      ['A', 'B', 1, 0],
      ['C', 'D', 1, 0],
      ['A', 'C', 1, 0],
      ['D', 'B', 10, 0],
    ];
    const rows = groupStandings(['D', 'C', 'A', 'B'], played(swiss), { tieBreakers: ['buchholz'] });
    expect(rows.map((r) => [r.participant, r.points, r.buchholz])).toEqual([
      ['A', 6, 3],
      ['C', 3, 9],
      ['D', 3, 3],
      ['B', 0, 9],
    ]);
    expect(order(['D', 'C', 'A', 'B'], swiss, ['scoreDifference', 'buchholz'])).toEqual(['A', 'D', 'C', 'B']);
  });

  it('ranks by median Buchholz without each one’s best and worst opponent, where plain Buchholz is level', () => {
    // X (6 points) met A 0, B 0 and C 12: Buchholz 12, median 0. Y (6) met D 3, E 3 and F 6: Buchholz
    // 12, median 3. F (6) met Y 6 and Z 0: two opponents, nothing cut, 6. Z loses everything.
    const rows: [string, string, number, number][] = [
      ['X', 'A', 1, 0],
      ['X', 'B', 1, 0],
      ['C', 'X', 1, 0],
      ['Y', 'D', 1, 0],
      ['Y', 'E', 1, 0],
      ['F', 'Y', 1, 0],
      ['C', 'Z', 1, 0],
      ['C', 'Z', 1, 0],
      ['C', 'Z', 1, 0],
      ['F', 'Z', 1, 0],
      ['D', 'Z', 1, 0],
      ['E', 'Z', 1, 0],
    ];
    const seeds = ['X', 'Y', 'F', 'C', 'D', 'E', 'A', 'B', 'Z'];
    const level = (list: string[]) => list.filter((p) => ['X', 'Y', 'F'].includes(p));
    expect(level(order(seeds, rows, ['buchholz']))).toEqual(['X', 'Y', 'F']);
    expect(level(order(seeds, rows, ['medianBuchholz']))).toEqual(['F', 'Y', 'X']);
    expect(order(seeds, rows, ['medianBuchholz'])[0]).toBe('C');
  });

  it('counts a Swiss bye as a win without a score and without an opponent for Buchholz', () => {
    const rows = groupStandings(
      ['A', 'B', 'C'],
      played([
        ['A', 'B', 2, 0],
        ['C', null, 0, 0],
      ]),
      { tieBreakers: ['buchholz'] },
    );
    expect(rows.map((r) => [r.participant, r.points, r.wins, r.played, r.scoreFor, r.buchholz])).toEqual([
      ['A', 3, 1, 1, 2, 0],
      ['C', 3, 1, 0, 0, 0],
      ['B', 0, 0, 1, 0, 3],
    ]);
  });

  it('settles a full tie by the seed order given', () => {
    const draws: [string, string, number, number][] = [
      ['a', 'b', 0, 0],
      ['b', 'c', 0, 0],
      ['c', 'a', 0, 0],
    ];
    const all: TieBreaker[] = ['headToHead', 'scoreDifference', 'scoreFor', 'buchholz', 'wins'];
    expect(order(['c', 'a', 'b'], draws, all)).toEqual(['c', 'a', 'b']);
    expect(order(['b', 'c', 'a'], draws, all)).toEqual(['b', 'c', 'a']);
  });

  it('uses custom points for a win, a draw and a loss', () => {
    // A: two wins, one loss (to B). B: one win, two draws. C: a win, a draw, a loss. D: a draw, two losses.
    const rows: [string, string, number, number][] = [
      ['A', 'B', 0, 1],
      ['A', 'C', 2, 0],
      ['A', 'D', 2, 0],
      ['B', 'C', 1, 1],
      ['B', 'D', 1, 1],
      ['C', 'D', 1, 0],
    ];
    const standard = groupStandings(['A', 'B', 'C', 'D'], played(rows), { tieBreakers: [] });
    expect(standard.map((r) => [r.participant, r.points, r.wins, r.draws, r.losses])).toEqual([
      ['A', 6, 2, 0, 1],
      ['B', 5, 1, 2, 0],
      ['C', 4, 1, 1, 1],
      ['D', 1, 0, 1, 2],
    ]);
    const custom = groupStandings(['A', 'B', 'C', 'D'], played(rows), { tieBreakers: [], points: { win: 3, draw: 2, loss: 0 } });
    expect(custom.map((r) => [r.participant, r.points])).toEqual([
      ['B', 7],
      ['A', 6],
      ['C', 5],
      ['D', 2],
    ]);
  });
});

describe('bestOfFor (issue 57: best-of by round)', () => {
  // Bo1 until the quarter-finals (round 3 of 5), Bo3 from them, Bo5 in the grand final; the losers' side Bo3 from its round 4.
  const settings = {
    bestOf: 1,
    bestOfByRound: [
      { round: 3, bestOf: 3 },
      { side: 'grand_final' as const, round: 1, bestOf: 5 },
      { side: 'losers' as const, round: 4, bestOf: 3 },
      { side: 'losers' as const, round: 1, bestOf: 1 },
    ],
  };
  it('takes the latest rule that has started for the match’s side, its own side’s before every side’s', () => {
    const of = (side: 'winners' | 'losers' | 'grand_final' | null, round: number) => bestOfFor(settings, { side, round });
    expect([1, 2, 3, 4, 5].map((r) => of('winners', r))).toEqual([1, 1, 3, 3, 3]);
    expect([1, 2, 3, 4, 5, 6].map((r) => of('losers', r))).toEqual([1, 1, 3, 3, 3, 3]);
    expect([of('grand_final', 1), of('grand_final', 2)]).toEqual([5, 5]);
    // A table stage's rounds follow the rules for every side.
    expect([1, 2, 3].map((r) => of(null, r))).toEqual([1, 1, 3]);
  });
  it('falls back to the stage’s best-of, and to 1', () => {
    expect(bestOfFor({ bestOf: 3 }, { side: 'winners', round: 2 })).toBe(3);
    expect(bestOfFor({}, { side: null, round: 1 })).toBe(1);
    expect(bestOfFor({ bestOf: 3, bestOfByRound: [{ round: 2, bestOf: 5 }] }, { side: null, round: 1 })).toBe(3);
  });
});
