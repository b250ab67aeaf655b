import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { swissOrder, swissRound, type SwissEntry } from '../../src/lib/domain/swiss.ts';

const entry = (id: string, points = 0, rating: number | null = null, opponents: string[] = [], hadBye = false): SwissEntry => ({ id, points, rating, opponents, hadBye });
const asText = (round: ReturnType<typeof swissRound>) => round.pairings.map(({ a, b }) => `${a}-${b}`);

/** Plays `rounds` Swiss rounds between `n` participants; `winsA` says, per match, whether side a won. */
function play(n: number, rounds: number, winsA: (round: number, match: number) => boolean) {
  const table = new Map(Array.from({ length: n }, (_, i) => [`p${i + 1}`, entry(`p${i + 1}`, 0, 1500 - i * 10)]));
  const played: ReturnType<typeof swissRound>[] = [];
  for (let r = 0; r < rounds; r++) {
    const round = swissRound([...table.values()]);
    played.push(round);
    round.pairings.forEach(({ a, b }, m) => {
      const [winner] = winsA(r, m) ? [a] : [b];
      for (const [self, other] of [[a, b], [b, a]] as const) {
        const e = table.get(self)!;
        table.set(self, { ...e, points: e.points + (self === winner ? 1 : 0), opponents: [...e.opponents, other] });
      }
    });
    if (round.bye) {
      const e = table.get(round.bye)!;
      table.set(round.bye, { ...e, points: e.points + 1, hadBye: true });
    }
  }
  return played;
}

describe('Swiss pairing', () => {
  it('ranks by points, then rating with the unrated last, then the order given', () => {
    const order = swissOrder([entry('a', 1, null), entry('b', 1, 1400), entry('c', 2, 1000), entry('d', 1, 1600), entry('e', 1, null)]);
    expect(order.map((e) => e.id)).toEqual(['c', 'd', 'b', 'a', 'e']);
  });

  it('pairs the first round top half against bottom half by rating: 1 v 3, 2 v 4', () => {
    const round = swissRound([entry('p4', 0, 1200), entry('p1', 0, 1800), entry('p3', 0, 1400), entry('p2', 0, 1600)]);
    expect(asText(round)).toEqual(['p1-p3', 'p2-p4']);
    expect(round.bye).toBeNull();
  });

  it('pairs a first round of eight 1 v 5 … 4 v 8 in seed order, and of seven gives the last seed the bye first', () => {
    const eight = ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'].map((id) => entry(id, 0));
    expect(asText(swissRound(eight))).toEqual(['s1-s5', 's2-s6', 's3-s7', 's4-s8']);
    const seven = swissRound(eight.slice(0, 7));
    expect(seven.bye).toBe('s7');
    expect(asText(seven)).toEqual(['s1-s4', 's2-s5', 's3-s6']);
  });

  it('gives the bye to the lowest-ranked participant who has not had one', () => {
    const round = swissRound([entry('a', 2), entry('b', 1), entry('c', 1), entry('d', 0, null, [], true), entry('e', 0)]);
    expect(round.bye).toBe('e');
    const next = swissRound([entry('a', 2), entry('b', 1), entry('c', 1), entry('d', 0, null, [], true), entry('e', 0, null, [], true)]);
    expect(next.bye).toBe('c');
  });

  it('steps past a rematch to the next-ranked opponent, searching back when needed', () => {
    // a and b have met; c and d have met: a–c and b–d avoid both.
    const round = swissRound([entry('a', 2, null, ['b']), entry('b', 2, null, ['a']), entry('c', 1, null, ['d']), entry('d', 1, null, ['c'])]);
    expect(asText(round)).toEqual(['a-c', 'b-d']);
  });

  it('still pairs everyone when a rematch cannot be avoided', () => {
    const all = ['a', 'b', 'c', 'd'];
    const round = swissRound(all.map((id) => entry(id, 0, null, all.filter((other) => other !== id))));
    expect(round.pairings).toHaveLength(2);
    expect(new Set(round.pairings.flatMap(({ a, b }) => [a, b]))).toEqual(new Set(all));
  });

  it('pairs everyone once a round, with no rematch while one can be avoided, and distinct byes, for 2 to 64', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (n, coins) => {
        // As many rounds as a Swiss of n usually has, and few enough that a round without a rematch exists.
        const rounds = Math.min(Math.ceil(Math.log2(n)) + 1, Math.floor(n / 2));
        const played = play(n, rounds, (r, m) => coins[(r * 7 + m) % coins.length]!);
        const met = new Set<string>();
        const byes: string[] = [];
        for (const { pairings, bye } of played) {
          const playing = pairings.flatMap(({ a, b }) => [a, b]);
          expect(new Set(playing).size).toBe(playing.length);
          expect(playing.length + (bye ? 1 : 0)).toBe(n);
          expect(bye !== null).toBe(n % 2 === 1);
          if (bye) byes.push(bye);
          for (const { a, b } of pairings) {
            const key = [a, b].sort().join('–');
            expect(met.has(key), `rematch ${key} among ${n}`).toBe(false);
            met.add(key);
          }
        }
        expect(new Set(byes).size).toBe(byes.length);
      }),
      { numRuns: 150 },
    );
  });
});
