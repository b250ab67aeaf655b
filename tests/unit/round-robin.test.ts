import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { roundRobin } from '../../src/lib/domain/round-robin.ts';

const players = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const pairKey = (a: string, b: string) => [a, b].sort().join('–');

describe('a round robin', () => {
  // Counts as brackets-manager (MIT, Drarig29/brackets-manager.js) makes them: 5 participants in
  // one group play 5 rounds of 10 matches, a double round 10 rounds of 20 (decision 013).
  it('gives 5 participants 5 rounds and 10 matches, twice that in a double round', () => {
    const single = roundRobin(players(5));
    expect(single).toHaveLength(5);
    expect(single.flatMap((round) => round.pairings)).toHaveLength(10);
    const double = roundRobin(players(5), { double: true });
    expect(double).toHaveLength(10);
    expect(double.flatMap((round) => round.pairings)).toHaveLength(20);
  });

  it('pairs 4 participants by the circle method: the first stays, the others turn', () => {
    expect(roundRobin(['A', 'B', 'C', 'D']).map((round) => round.pairings.map(({ a, b }) => `${a}-${b}`))).toEqual([
      ['A-D', 'B-C'],
      ['C-A', 'D-B'],
      ['A-B', 'C-D'],
    ]);
  });

  it('has no rounds for fewer than two participants', () => {
    expect(roundRobin([])).toEqual([]);
    expect(roundRobin(['p1'])).toEqual([]);
  });

  it('meets everyone once, nobody twice in a round, and every odd participant rests once, for 2 to 64', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), (n) => {
        const ids = players(n);
        const rounds = roundRobin(ids);
        expect(rounds).toHaveLength(n % 2 === 0 ? n - 1 : n);
        const met = new Map<string, number>();
        const rested = new Map<string, number>();
        const home = new Map(ids.map((id) => [id, 0]));
        for (const { pairings, rests } of rounds) {
          const playing = pairings.flatMap(({ a, b }) => [a, b]);
          expect(new Set(playing).size).toBe(playing.length);
          expect(playing.length + (rests === null ? 0 : 1)).toBe(n);
          if (rests !== null) rested.set(rests, (rested.get(rests) ?? 0) + 1);
          for (const { a, b } of pairings) {
            expect(a).not.toBe(b);
            met.set(pairKey(a, b), (met.get(pairKey(a, b)) ?? 0) + 1);
            home.set(a, home.get(a)! + 1);
            home.set(b, home.get(b)! - 1);
          }
        }
        expect(met.size).toBe((n * (n - 1)) / 2);
        expect([...met.values()].every((count) => count === 1)).toBe(true);
        expect(rested.size).toBe(n % 2 === 0 ? 0 : n);
        expect([...rested.values()].every((count) => count === 1)).toBe(true);
        // Sides are shared out: nobody is side a more than once more than side b, or the reverse.
        expect(Math.max(...[...home.values()].map(Math.abs))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('in a double round meets everyone twice, once on each side', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 32 }), (n) => {
        const rounds = roundRobin(players(n), { double: true });
        expect(rounds).toHaveLength(2 * (n % 2 === 0 ? n - 1 : n));
        const directed = new Set(rounds.flatMap((round) => round.pairings.map(({ a, b }) => `${a}>${b}`)));
        expect(directed.size).toBe(n * (n - 1));
      }),
    );
  });
});
