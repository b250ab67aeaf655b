import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftStage, gslGroupsFit, isStageFinished } from '../../src/lib/domain/stage/build.ts';
import { gslMatchAt, gslStandings } from '../../src/lib/domain/stage/gsl.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { doubleBookings, ids, playOut, random, winFor } from './stage-play.ts';

const sidesOf = (m: ResolvedMatch) => [m.a, m.b];
const at = (matches: readonly ResolvedMatch[], group: number, round: number, position: number) =>
  matches.find((m) => m.plan.group === group && m.plan.round === round && m.plan.position === position)!;

describe('GSL groups (issue 59)', () => {
  it('a group of four plays the openings 1 v 4 and 2 v 3, the winners’ match, the elimination match and the decider', () => {
    const draft = draftStage('gsl', { groups: 1 }, ids(4), 'order');
    expect(draft.plan).toHaveLength(5);
    expect(draft.plan.map((m) => gslMatchAt(m.round, m.position))).toEqual(['openingHigh', 'openingLow', 'winners', 'elimination', 'decider']);
    // p1 and p3 win the openings; p3 wins the winners' match; p4 the elimination match; p1 the decider.
    const wins: Record<string, string> = { '1.1': 'p1', '1.2': 'p3', '2.1': 'p3', '2.2': 'p4', '3.1': 'p1' };
    const { matches } = playOut(draft.plan, draft.seeds, (_, m) => winFor(m.a === wins[`${m.plan.round}.${m.plan.position}`] ? 'a' : 'b'));
    expect(sidesOf(at(matches, 1, 1, 1))).toEqual(['p1', 'p4']);
    expect(sidesOf(at(matches, 1, 1, 2))).toEqual(['p2', 'p3']);
    expect(sidesOf(at(matches, 1, 2, 1))).toEqual(['p1', 'p3']);
    expect(sidesOf(at(matches, 1, 2, 2))).toEqual(['p4', 'p2']);
    expect(sidesOf(at(matches, 1, 3, 1))).toEqual(['p1', 'p4']);
    const table = gslStandings(draft.groups[0]!, matches);
    expect(table.map((r) => r.participant)).toEqual(['p3', 'p1', 'p4', 'p2']);
    expect(table.map((r) => [r.wins, r.losses])).toEqual([
      [2, 0],
      [2, 1],
      [1, 2],
      [0, 2],
    ]);
  });

  it('while the decider waits, its two players stand between the group’s winner and the one out', () => {
    const draft = draftStage('gsl', { groups: 1 }, ids(4), 'order');
    const entered = new Map<number, EnteredResult>();
    for (let i = 0; i < 4; i++) {
      const m = resolveStage(draft.plan, draft.seeds, entered)[i]!;
      entered.set(i, { a: m.a, b: m.b, result: winFor(i === 3 ? 'b' : 'a') });
    }
    const matches = resolveStage(draft.plan, draft.seeds, entered);
    expect(matches[4]!.status).toBe('ready');
    const table = gslStandings(draft.groups[0]!, matches);
    expect(table[0]!.participant).toBe(at(matches, 1, 2, 1).winner);
    expect(table[3]!.participant).toBe(at(matches, 1, 2, 2).loser);
  });

  it('a group of three gives the top seed a bye, and so the elimination match: three matches are played', () => {
    const draft = draftStage('gsl', { groups: 1 }, ids(3), 'order');
    const { matches } = playOut(draft.plan, draft.seeds, () => winFor('b'));
    expect(matches.filter((m) => m.bye)).toHaveLength(2);
    expect(matches.filter((m) => !m.bye)).toHaveLength(3);
    expect(gslStandings(draft.groups[0]!, matches)).toHaveLength(3);
  });

  it('from 3 to 64 participants in the groups that fit, with any results: every match completes, nobody twice in a round, places 1–4 in each group', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 64 }), fc.integer({ min: 1, max: 16 }), fc.integer(), (n, groups, seed) => {
        fc.pre(gslGroupsFit(n, { groups }));
        const coin = random(seed);
        const draft = draftStage('gsl', { groups }, ids(n), 'rating');
        expect(draft.groups).toHaveLength(groups);
        for (const members of draft.groups) expect(members.length === 3 || members.length === 4).toBe(true);
        const { matches } = playOut(draft.plan, draft.seeds, () => winFor(coin() < 0.5 ? 'a' : 'b'));
        expect(matches.every((m) => m.status === 'completed')).toBe(true);
        expect(doubleBookings(matches)).toEqual([]);
        expect(isStageFinished('gsl', { groups }, draft.groups, matches)).toBe(true);
        draft.groups.forEach((members, g) => {
          const own = matches.filter((m) => m.plan.group === g + 1);
          const table = gslStandings(members, own);
          expect(table[0]!.participant).toBe(at(own, g + 1, 2, 1).winner);
          expect(table[1]!.participant).toBe(at(own, g + 1, 3, 1).winner);
          expect(table[2]!.participant).toBe(at(own, g + 1, 3, 1).loser);
          // The first never lost; in a group of four the second won twice (a bye is no win).
          expect(table[0]!.losses).toBe(0);
          if (members.length === 4) expect(table[1]!.wins).toBe(2);
        });
      }),
      { numRuns: 200 },
    );
  });

  it('groups fit only with three or four in each: 8 in 2, 7 in 2, 9 in the default 3; not 8 in 3 nor 5 in the default 2', () => {
    expect(gslGroupsFit(8, { groups: 2 })).toBe(true);
    expect(gslGroupsFit(7, { groups: 2 })).toBe(true);
    expect(gslGroupsFit(9, {})).toBe(true);
    expect(gslGroupsFit(8, { groups: 3 })).toBe(false);
    expect(gslGroupsFit(5, {})).toBe(false);
    expect(gslGroupsFit(2, {})).toBe(false);
  });
});
