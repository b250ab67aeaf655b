import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftStage } from '../../src/lib/domain/stage/build.ts';
import { GRAND_FINALS, STAGE_SEEDINGS, type GrandFinal, type StageSettings } from '../../src/lib/domain/stage/format.ts';
import { bracketSize, doubleEliminationPlan, type PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { eliminationPlacements, type Placement } from '../../src/lib/domain/stage/standings.ts';
import { doubleBookings, ids, playOut, random, winFor } from './stage-play.ts';

type Elimination = { format: 'single_elimination'; thirdPlace: boolean } | { format: 'double_elimination'; grandFinal: GrandFinal };

const ELIMINATIONS: Elimination[] = [
  { format: 'single_elimination', thirdPlace: false },
  { format: 'single_elimination', thirdPlace: true },
  ...GRAND_FINALS.map((grandFinal) => ({
    format: 'double_elimination' as const,
    grandFinal,
  })),
];

const settingsOf = (e: Elimination): StageSettings => (e.format === 'single_elimination' ? { thirdPlace: e.thirdPlace } : { grandFinal: e.grandFinal });

/** Bands as text, best first: ['1', '2', '3–4', '5–8']. */
function bands(placements: readonly Placement[]): string[] {
  const seen = new Map(placements.map((p) => [p.from, p.from === p.to ? `${p.from}` : `${p.from}–${p.to}`]));
  return [...seen.entries()].sort(([x], [y]) => x - y).map(([, text]) => text);
}

/** The bands partition the participants: everyone once, bands back to back from 1 to n, each as wide as it is full. */
function expectPartition(participants: readonly string[], placements: readonly Placement[]) {
  expect(placements.map((p) => p.participant).sort()).toEqual([...participants].sort());
  let next = 1;
  for (const from of [...new Set(placements.map((p) => p.from))].sort((x, y) => x - y)) {
    const band = placements.filter((p) => p.from === from);
    expect(from).toBe(next);
    for (const p of band) expect(p.to).toBe(from + band.length - 1);
    next += band.length;
  }
  expect(next - 1).toBe(participants.length);
}

const find = (matches: readonly ResolvedMatch[], side: string, round: number, position = 1) =>
  matches.find((m) => m.plan.side === side && m.plan.round === round && m.plan.position === position)!;
const lastRound = (matches: readonly ResolvedMatch[], side: string) => Math.max(0, ...matches.filter((m) => m.plan.side === side).map((m) => m.plan.round));

/** Who the stage's own last matches say came first and second, read from the matches, not from placements. */
function finalists(e: Elimination, matches: readonly ResolvedMatch[]): { first: string; second: string } {
  const winnersFinal = find(matches, 'winners', lastRound(matches, 'winners'));
  if (e.format === 'single_elimination') return { first: winnersFinal.winner!, second: winnersFinal.loser! };
  if (e.grandFinal === 'none') {
    const losers = lastRound(matches, 'losers');
    return {
      first: winnersFinal.winner!,
      second: losers ? find(matches, 'losers', losers).winner! : winnersFinal.loser!,
    };
  }
  const first = find(matches, 'grand_final', 1);
  const reset = e.grandFinal === 'double' ? find(matches, 'grand_final', 2) : undefined;
  const decider = reset && !reset.bye ? reset : first;
  return { first: decider.winner!, second: decider.loser! };
}

describe('elimination stages played with random results (issue 21)', () => {
  it('complete every match, book nobody twice in a round and end with one champion, for 2 to 64 in every format', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 64 }),
        fc.constantFrom(...ELIMINATIONS),
        fc.constantFrom(...STAGE_SEEDINGS),
        fc.integer(),
        (n, e, seeding, seed) => {
          const coin = random(seed);
          const participants = ids(n);
          const ratings = new Map(participants.filter(() => coin() < 0.7).map((id) => [id, Math.floor(coin() * 2000)]));
          const { plan, seeds } = draftStage(e.format, settingsOf(e), participants, seeding, ratings);
          expect(seeds).toHaveLength(bracketSize(n));
          expect(seeds.filter((s) => s !== null).sort()).toEqual([...participants].sort());
          const { matches } = playOut(plan, seeds, () => winFor(coin() < 0.5 ? 'a' : 'b'));

          // Byes never strand anyone: nothing is left waiting or ready.
          expect(matches.filter((m) => m.status !== 'completed')).toEqual([]);
          expect(doubleBookings(matches)).toEqual([]);

          const placements = eliminationPlacements(participants, matches);
          expectPartition(participants, placements);
          const { first, second } = finalists(e, matches);
          expect(placements.filter((p) => p.from === 1)).toEqual([{ participant: first, from: 1, to: 1 }]);
          expect(placements.filter((p) => p.from === 2)).toEqual([{ participant: second, from: 2, to: 2 }]);

          if (e.format === 'double_elimination') {
            // Everyone but the two finalists leaves after exactly two losses; a bye is not a loss.
            const losses = new Map(participants.map((id) => [id, 0]));
            for (const m of matches) if (!m.bye && m.loser) losses.set(m.loser, losses.get(m.loser)! + 1);
            for (const id of participants) if (id !== first && id !== second) expect(losses.get(id), `${id} of ${n}`).toBe(2);
            // The champion lost at most once; the runner-up once or twice (the reset final).
            expect(losses.get(first)).toBeLessThanOrEqual(1);
            expect(losses.get(second)).toBeGreaterThanOrEqual(1);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('leaves the grand final reset empty unless the losers’ champion wins the first final', () => {
    for (const bWins of [false, true]) {
      const plan = doubleEliminationPlan(4, { grandFinal: 'double' });
      const { matches } = playOut(plan, ['p1', 'p4', 'p2', 'p3'], (_, m) =>
        winFor(m.plan.side === 'grand_final' && m.plan.round === 1 ? (bWins ? 'b' : 'a') : 'a'),
      );
      const reset = find(matches, 'grand_final', 2);
      // p1 wins the winners' bracket without a loss, so a second final is owed only after p1's first loss.
      expect(find(matches, 'grand_final', 1).a).toBe('p1');
      expect(reset.bye).toBe(!bWins);
      expect([reset.a, reset.b]).toEqual(bWins ? ['p1', find(matches, 'grand_final', 1).b] : [null, null]);
    }
  });
});

describe('elimination placements (issue 21: bands 1, 2, 3–4, 5–8 …)', () => {
  // Each case plays the favourite (side a) everywhere; the bands follow from the structure alone.
  const played = (plan: PlannedMatch[], seeds: (string | null)[]) => playOut(plan, seeds, () => winFor('a')).matches;

  it.each([
    // n, third place, expected bands: worked out by hand from the standard bracket of n (byes to the top seeds).
    [8, false, ['1', '2', '3–4', '5–8']],
    [8, true, ['1', '2', '3', '4', '5–8']],
    // 6 of 8: seeds 1 and 2 skip round 1, so only two play in round 1 and lose there.
    [6, false, ['1', '2', '3–4', '5–6']],
    // 5 of 8: only 4 v 5 is played in round 1.
    [5, false, ['1', '2', '3–4', '5']],
    // 3 of 4: seed 1 skips the semifinal; the other semifinal's loser is third.
    [3, false, ['1', '2', '3']],
    [3, true, ['1', '2', '3']],
    [2, true, ['1', '2']],
  ] as const)('single elimination of %i (third place %s) places %j', (n, thirdPlace, expected) => {
    const participants = ids(n);
    const { plan, seeds } = draftStage('single_elimination', { thirdPlace }, participants, 'standard');
    const placements = eliminationPlacements(participants, played(plan, seeds));
    expect(bands(placements)).toEqual(expected);
    expectPartition(participants, placements);
  });

  it.each([
    [8, ['1', '2', '3', '4', '5–6', '7–8']],
    // 6 of 8: both round-1 losers get a bye in losers' round 1, so nobody leaves there.
    [6, ['1', '2', '3', '4', '5–6']],
    [5, ['1', '2', '3', '4', '5']],
    [3, ['1', '2', '3']],
    [2, ['1', '2']],
  ] as const)('double elimination of %i places %j', (n, expected) => {
    const participants = ids(n);
    for (const grandFinal of GRAND_FINALS) {
      const { plan, seeds } = draftStage('double_elimination', { grandFinal }, participants, 'standard');
      const placements = eliminationPlacements(participants, played(plan, seeds));
      expect(bands(placements), grandFinal).toEqual(expected);
      expectPartition(participants, placements);
    }
  });

  it('puts the semifinal losers in 3–4 and the quarterfinal losers in 5–8 (8, standard, favourites win)', () => {
    const participants = ids(8);
    const { plan, seeds } = draftStage('single_elimination', {}, participants, 'standard');
    const placements = eliminationPlacements(participants, played(plan, seeds));
    // Standard 8: 1–8, 4–5, 2–7, 3–6; side a wins: p1, p4, p2, p3; then p1, p2; p1 champion.
    const at = (id: string) => placements.find((p) => p.participant === id)!;
    expect(at('p1')).toMatchObject({ from: 1, to: 1 });
    expect(at('p2')).toMatchObject({ from: 2, to: 2 });
    for (const id of ['p4', 'p3']) expect(at(id)).toMatchObject({ from: 3, to: 4 });
    for (const id of ['p8', 'p5', 'p7', 'p6']) expect(at(id)).toMatchObject({ from: 5, to: 8 });
  });

  it('holds the places above the known bands for those still playing', () => {
    const participants = ids(8);
    const { plan, seeds } = draftStage('single_elimination', {}, participants, 'standard');
    // Only round 1 played (side a wins: p1, p4, p2, p3): four are out and share 5–8.
    const start = resolveStage(plan, seeds, new Map());
    const entered = new Map(start.flatMap((m, i) => (m.plan.round === 1 ? [[i, { a: m.a, b: m.b, result: winFor('a') }] as const] : [])));
    const placements = eliminationPlacements(participants, resolveStage(plan, seeds, entered));
    expect(placements.map((p) => p.participant).sort()).toEqual(['p5', 'p6', 'p7', 'p8']);
    for (const p of placements) expect([p.from, p.to]).toEqual([5, 8]);
  });
});
