import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  champion,
  createBracket,
  dependentResults,
  findProblem,
  matchState,
  nextSlot,
  progress,
  resetResult,
  roundCount,
  roundKind,
  setResult,
  standardOrder,
  type Bracket,
  type Seeding,
} from '../../src/lib/domain/bracket.ts';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `p${i + 1}`);
const firstRoundIds = (b: Bracket) => b[0]?.matches.flatMap((m) => [m.a, m.b]).filter((x) => x !== null) ?? [];
const readyMatches = (b: Bracket) =>
  b.flatMap((round, r) => round.matches.map((match, m) => ({ r, m, match }))).filter(({ match }) => matchState(match) === 'ready');

/** Plays every ready match with winners chosen by `pick` until none is left. */
function playOut(bracket: Bracket, pick: (i: number) => boolean): Bracket {
  let b = bracket;
  for (let step = 0; ; step++) {
    const ready = readyMatches(b);
    const first = ready[0];
    if (!first) return b;
    b = setResult(b, first.r, first.m, pick(step) ? (first.match.a as string) : (first.match.b as string));
    expect(findProblem(b, ids(firstRoundIds(bracket).length))).toBeNull();
  }
}

describe('bracket shape (SPEC §4)', () => {
  it('has ceil(log2 n) rounds, halving from 2^(rounds-1) first-round matches', () => {
    for (const [n, rounds, first] of [[2, 1, 1], [3, 2, 2], [4, 2, 2], [5, 3, 4], [8, 3, 4], [9, 4, 8], [128, 7, 64]] as const) {
      const b = createBracket(ids(n));
      expect(b).toHaveLength(rounds);
      expect(roundCount(n)).toBe(rounds);
      expect(b.map((r) => r.matches.length)).toEqual(Array.from({ length: rounds }, (_, i) => first / 2 ** i));
      expect(b.map((r) => r.round)).toEqual(Array.from({ length: rounds }, (_, i) => i + 1));
    }
  });

  it('pairs a power-of-two field in the order given', () => {
    const b = createBracket(ids(8));
    expect(b[0]?.matches.map((m) => [m.a, m.b])).toEqual([['p1', 'p2'], ['p3', 'p4'], ['p5', 'p6'], ['p7', 'p8']]);
    expect(b.slice(1).every((r) => r.matches.every((m) => !m.a && !m.b))).toBe(true);
  });

  it('advances a participant with a bye at once', () => {
    const b = createBracket(ids(3));
    expect(b[0]?.matches).toEqual([
      { a: 'p1', b: 'p2', winner: null, loser: null, comment: '' },
      { a: 'p3', b: null, winner: 'p3', loser: null, comment: '' },
    ]);
    expect(b[1]?.matches[0]).toMatchObject({ a: null, b: 'p3' });
  });

  it('seeds 1 against n with byes to the top seeds in standard seeding', () => {
    expect(standardOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    const b = createBracket(ids(6), 'standard');
    expect(b[0]?.matches.map((m) => [m.a, m.b])).toEqual([['p1', null], ['p4', 'p5'], ['p2', null], ['p3', 'p6']]);
    expect(b[1]?.matches.map((m) => [m.a, m.b])).toEqual([['p1', null], ['p2', null]]);
  });

  it('refuses fewer than two or repeated participants', () => {
    expect(() => createBracket(['p1'])).toThrow();
    expect(() => createBracket(['p1', 'p1'])).toThrow();
  });

  it('names the last three rounds and numbers the others', () => {
    expect([0, 1, 2, 3, 4].map((i) => roundKind(i, 5))).toEqual(['round', 'round', 'quarterfinal', 'semifinal', 'final']);
  });

  it('sends the winner of match i to match floor(i/2), slot a when i is even', () => {
    expect([0, 1, 2, 3, 6, 7].map(nextSlot)).toEqual([
      { match: 0, slot: 'a' },
      { match: 0, slot: 'b' },
      { match: 1, slot: 'a' },
      { match: 1, slot: 'b' },
      { match: 3, slot: 'a' },
      { match: 3, slot: 'b' },
    ]);
  });
});

const field = fc.record({ n: fc.integer({ min: 2, max: 128 }), seeding: fc.constantFrom<Seeding>('order', 'standard') });

describe('every bracket can be played to one champion (property)', () => {
  it('puts each participant exactly once in round 1 and never leaves a first-round match empty', () => {
    fc.assert(
      fc.property(field, ({ n, seeding }) => {
        const b = createBracket(ids(n), seeding);
        const seen = firstRoundIds(b);
        expect(seen.sort()).toEqual(ids(n).sort());
        expect(b[0]?.matches.every((m) => m.a || m.b)).toBe(true);
        expect(findProblem(b, ids(n))).toBeNull();
      }),
    );
  });

  it('yields exactly one champion, with every match completed, whatever the results', () => {
    fc.assert(
      fc.property(field, fc.array(fc.boolean(), { minLength: 1, maxLength: 200 }), ({ n, seeding }, coin) => {
        const played = playOut(createBracket(ids(n), seeding), (i) => coin[i % coin.length] ?? true);
        expect(progress(played)).toMatchObject({ completed: played.flatMap((r) => r.matches).length, percent: 100 });
        const winner = champion(played);
        expect(ids(n)).toContain(winner);
        // Everyone else lost exactly once.
        const losers = played.flatMap((r) => r.matches.map((m) => m.loser)).filter((x) => x !== null);
        expect(new Set(losers).size).toBe(n - 1);
        expect(losers).not.toContain(winner);
      }),
      { numRuns: 60 },
    );
  });

  it('never has a ready match with an unknown side', () => {
    fc.assert(
      fc.property(field, ({ n, seeding }) => {
        let b = createBracket(ids(n), seeding);
        for (;;) {
          for (const { match } of readyMatches(b)) expect(match.a && match.b).toBeTruthy();
          const next = readyMatches(b)[0];
          if (!next) break;
          b = setResult(b, next.r, next.m, next.match.b as string);
        }
        expect(champion(b)).not.toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it('withdraws a changed winner from every later round', () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 64 }), fc.nat(), (n, pickSeed) => {
        const done = playOut(createBracket(ids(n)), (i) => (i + pickSeed) % 3 !== 0);
        const candidates = done[0]?.matches.map((match, m) => ({ match, m })).filter(({ match }) => match.a && match.b) ?? [];
        const target = candidates[pickSeed % candidates.length];
        if (!target) return;
        const oldWinner = target.match.winner as string;
        const newWinner = target.match.loser as string;
        const cleared = dependentResults(done, 0, target.m);
        const changed = setResult(done, 0, target.m, newWinner);
        expect(findProblem(changed, ids(n))).toBeNull();
        const later = changed.slice(1).flatMap((r) => r.matches.flatMap((m) => [m.a, m.b, m.winner, m.loser]));
        expect(later).not.toContain(oldWinner);
        for (const { round, match } of cleared) expect(changed[round]?.matches[match]?.winner).toBeNull();
        expect(changed[1]?.matches[Math.floor(target.m / 2)]?.[target.m % 2 === 0 ? 'a' : 'b']).toBe(newWinner);
      }),
      { numRuns: 60 },
    );
  });
});

describe('results', () => {
  it('refuses a winner who is not a side, and a match that is not ready', () => {
    const b = createBracket(ids(4));
    expect(() => setResult(b, 0, 0, 'p3')).toThrow();
    expect(() => setResult(b, 1, 0, 'p1')).toThrow();
  });

  it('resets a result and everything that followed from it', () => {
    let b = createBracket(ids(4));
    b = setResult(b, 0, 0, 'p1');
    b = setResult(b, 0, 1, 'p4');
    b = setResult(b, 1, 0, 'p1', 'close game');
    expect(champion(b)).toBe('p1');
    expect(dependentResults(b, 0, 0)).toEqual([{ round: 1, match: 0 }]);
    const reset = resetResult(b, 0, 0);
    expect(reset[0]?.matches[0]).toMatchObject({ winner: null, loser: null });
    expect(reset[1]?.matches[0]).toMatchObject({ a: null, b: 'p4', winner: null, loser: null });
    expect(champion(reset)).toBeNull();
  });
});

describe('validation of a saved bracket', () => {
  const good = setResult(createBracket(ids(4)), 0, 0, 'p2');

  it('accepts a consistent bracket, also when more participants were approved after it was drawn', () => {
    expect(findProblem(good, ids(4))).toBeNull();
    expect(findProblem(good, ids(6))).toBeNull();
  });

  it('finds a winner who did not play the match', () => {
    const bad = structuredClone(good);
    (bad[0]!.matches[0]!).winner = 'p3';
    expect(findProblem(bad, ids(4))).toMatchObject({ kind: 'winnerNotSide', round: 1, match: 1 });
  });

  it('finds a winner who was not advanced, or a slot filled by someone else', () => {
    const notAdvanced = structuredClone(good);
    notAdvanced[1]!.matches[0]!.a = null;
    expect(findProblem(notAdvanced, ids(4))).toMatchObject({ kind: 'advancement', round: 2 });
    const smuggled = structuredClone(good);
    smuggled[1]!.matches[0]!.b = 'p3';
    expect(findProblem(smuggled, ids(4))).toMatchObject({ kind: 'advancement' });
  });

  it('finds strangers, missing participants and a wrong shape', () => {
    const stranger = structuredClone(good);
    stranger[0]!.matches[1]!.a = 'intruder';
    expect(findProblem(stranger, ids(4))?.kind).toMatch(/participants|unknownParticipant/);
    expect(findProblem(good.slice(0, 1), ids(4))).toEqual({ kind: 'shape' });
    const extraRound = [...structuredClone(good), { round: 3, matches: [{ a: null, b: null, winner: null, loser: null, comment: '' }] }];
    expect(findProblem(extraRound, ids(4))).toEqual({ kind: 'shape' });
    expect(findProblem([], ids(4))).toEqual({ kind: 'participants' });
    const twice = structuredClone(good);
    twice[0]!.matches[1]!.a = 'p1';
    expect(findProblem(twice, ids(4))).toEqual({ kind: 'participants' });
  });
});
