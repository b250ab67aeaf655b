import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBracket, setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { draftStage } from '../../src/lib/domain/stage/build.ts';
import { GRAND_FINALS, type StageFormat, type StageSettings } from '../../src/lib/domain/stage/format.ts';
import type { PlannedMatch, Source } from '../../src/lib/domain/stage/plan.ts';
import { resetBy, resolveStage, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { eliminationPlacements } from '../../src/lib/domain/stage/standings.ts';
import { ids, playOut, random, winFor } from './stage-play.ts';

const FORMATS: { format: StageFormat; settings: StageSettings }[] = [
  { format: 'single_elimination', settings: {} },
  { format: 'single_elimination', settings: { thirdPlace: true } },
  ...GRAND_FINALS.map((grandFinal) => ({
    format: 'double_elimination' as const,
    settings: { grandFinal },
  })),
];

/**
 * A side as the plan says it must be, worked out here from the resolved feeders (not by the
 * engine): undefined while a feeder is unfinished.
 */
function expectedSide(source: Source, seeds: readonly (string | null)[], matches: readonly ResolvedMatch[]): string | null | undefined {
  switch (source.kind) {
    case 'seed':
      return seeds[source.index] ?? null;
    case 'fixed':
      return source.id;
    case 'winner':
    case 'loser': {
      const feeder = matches[source.match]!;
      if (feeder.status !== 'completed') return undefined;
      return source.kind === 'winner' ? feeder.winner : feeder.loser;
    }
    case 'reset': {
      const first = matches[source.match]!;
      if (first.status !== 'completed') return undefined;
      // Played again only when side b, the losers' champion, took the first final.
      return first.winner === first.b ? first[source.slot] : null;
    }
  }
}

/**
 * Every match's sides are its feeders' winners and losers; a completed played match counts the
 * stored result for exactly those sides (or is a forfeit of a disqualified side); a waiting match
 * has an unfinished feeder; a ready one has both sides and nothing counted.
 */
function expectConsistent(
  plan: readonly PlannedMatch[],
  seeds: readonly (string | null)[],
  entered: ReadonlyMap<number, EnteredResult>,
  matches: readonly ResolvedMatch[],
  disqualified: ReadonlySet<string> = new Set(),
) {
  matches.forEach((m, i) => {
    const a = expectedSide(plan[i]!.a, seeds, matches);
    const b = expectedSide(plan[i]!.b, seeds, matches);
    const where = `match ${i} (${m.plan.side} ${m.plan.round}.${m.plan.position})`;
    if (a === undefined || b === undefined) {
      expect(m.status, where).toBe('waiting');
      return;
    }
    expect([m.a, m.b], where).toEqual([a, b]);
    const stored = entered.get(i);
    const counts = stored && stored.a === a && stored.b === b ? stored.result : null;
    if (!a || !b)
      expect(m, where).toMatchObject({
        status: 'completed',
        bye: true,
        winner: a ?? b,
      });
    else if (counts)
      expect(m, where).toMatchObject({
        status: 'completed',
        result: counts,
        disqualification: false,
      });
    else if (disqualified.has(a) || disqualified.has(b))
      expect(m, where).toMatchObject({
        status: 'completed',
        disqualification: true,
        loser: disqualified.has(a) ? a : b,
      });
    else
      expect(m, where).toMatchObject({
        status: 'ready',
        result: null,
        winner: null,
      });
  });
}

/** Indices whose stored result counted in `before` and does not in `after`, by the sides rule. */
function dropped(entered: ReadonlyMap<number, EnteredResult>, before: readonly ResolvedMatch[], after: readonly ResolvedMatch[], changed: number): number[] {
  const counts = (m: ResolvedMatch, e: EnteredResult | undefined) =>
    e !== undefined && m.status === 'completed' && !m.disqualification && m.a === e.a && m.b === e.b;
  return before.map((_, i) => i).filter((i) => counts(before[i]!, entered.get(i)) && (i === changed || !counts(after[i]!, entered.get(i))));
}

const other = (winner: ResolvedMatch['result']) => (winner?.winner === 'a' ? 'b' : 'a');

describe('corrections cascade (issue 21, decision 013: never lock)', () => {
  it('a changed or withdrawn result drops exactly the later results it changed the sides of, for 2 to 64', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.constantFrom(...FORMATS), fc.boolean(), fc.integer(), (n, { format, settings }, withdraw, seed) => {
        const coin = random(seed);
        const { plan, seeds } = draftStage(format, settings, ids(n), 'standard');
        const { entered, matches: before } = playOut(plan, seeds, () => winFor(coin() < 0.5 ? 'a' : 'b'));
        const played = before.map((_, i) => i).filter((i) => before[i]!.result && !before[i]!.disqualification);
        const changed = played[Math.floor(coin() * played.length)]!;
        const corrected = new Map(entered);
        if (withdraw) corrected.delete(changed);
        else
          corrected.set(changed, {
            ...entered.get(changed)!,
            result: winFor(other(before[changed]!.result)),
          });
        const after = resolveStage(plan, seeds, corrected);

        expectConsistent(plan, seeds, corrected, after);
        expect(resetBy(before, after)).toEqual(dropped(entered, before, after, changed));
        if (withdraw) expect(after[changed]!.status).toBe('ready');
        else expect(after[changed]!.winner).toBe(before[changed]!.loser);
        // Replaying what was dropped completes the stage again, consistently.
        const replayed = playOut(plan, seeds, () => winFor(coin() < 0.5 ? 'a' : 'b'), corrected);
        expectConsistent(plan, seeds, replayed.entered, replayed.matches);
        expect(replayed.matches.every((m) => m.status === 'completed')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('lists nothing when the same stored results are read twice (results compared by value, not by object)', () => {
    const { plan, seeds } = draftStage('double_elimination', {}, ids(8), 'standard');
    const { entered, matches } = playOut(plan, seeds, () => winFor('a'));
    const reread = resolveStage(plan, seeds, structuredClone(entered));
    expect(resetBy(matches, reread)).toEqual([]);
  });

  it('a disqualified participant forfeits every match not yet played; results entered before stand', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.constantFrom(...FORMATS), fc.integer(), (n, { format, settings }, seed) => {
        const coin = random(seed);
        const participants = ids(n);
        const { plan, seeds } = draftStage(format, settings, participants, 'standard');
        // Play part of the stage: each ready match is played with probability ½, a few passes.
        const entered = new Map<number, EnteredResult>();
        for (let pass = 0; pass < 1 + Math.floor(coin() * 6); pass++) {
          resolveStage(plan, seeds, entered).forEach((m, i) => {
            if (m.status === 'ready' && coin() < 0.5)
              entered.set(i, {
                a: m.a,
                b: m.b,
                result: winFor(coin() < 0.5 ? 'a' : 'b'),
              });
          });
        }
        const before = resolveStage(plan, seeds, entered);
        const out = participants[Math.floor(coin() * n)]!;
        const disqualified = new Set([out]);
        const { entered: all, matches } = playOut(plan, seeds, () => winFor(coin() < 0.5 ? 'a' : 'b'), new Map(entered), disqualified);

        expectConsistent(plan, seeds, all, matches, disqualified);
        expect(matches.every((m) => m.status === 'completed')).toBe(true);
        // What was played before the disqualification still counts, with the same sides.
        before.forEach((m, i) => {
          if (m.result && !m.disqualification)
            expect(matches[i], `match ${i}`).toMatchObject({
              a: m.a,
              b: m.b,
              result: m.result,
              disqualification: false,
            });
        });
        // After it, the disqualified participant never wins a match that is played: it loses them all by forfeit.
        matches.forEach((m, i) => {
          if ((m.a === out || m.b === out) && !m.bye && !before[i]!.result)
            expect(m, `match ${i}`).toMatchObject({
              loser: out,
              disqualification: true,
            });
        });
        const placements = eliminationPlacements(participants, matches);
        expect(placements.map((p) => p.participant).sort()).toEqual([...participants].sort());
      }),
      { numRuns: 200 },
    );
  });
});

/** The legacy bracket's match at (round, position) for one of our winners' bracket matches. */
const legacyAt = (bracket: Bracket, m: ResolvedMatch) => bracket[m.plan.round - 1]!.matches[m.plan.position - 1]!;

describe('the same as the legacy single-elimination bracket (lib/domain/bracket.ts)', () => {
  it('pairs, advances and corrects exactly like createBracket + setResult, seeded order and standard, for 2 to 64', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.constantFrom('order' as const, 'standard' as const), fc.integer(), (n, seeding, seed) => {
        const coin = random(seed);
        const participants = ids(n);
        const { plan, seeds } = draftStage('single_elimination', {}, participants, seeding);
        let legacy = createBracket(participants, seeding);
        const compare = (matches: readonly ResolvedMatch[]) => {
          expect(matches).toHaveLength(legacy.flatMap((r) => r.matches).length);
          for (const m of matches) {
            const old = legacyAt(legacy, m);
            // The legacy bracket keeps a side it already knows in a match still waiting for the other.
            expect({ a: m.a, b: m.b, winner: m.winner }, `${m.plan.round}.${m.plan.position}`).toEqual({ a: old.a, b: old.b, winner: old.winner });
          }
        };
        expect(legacy[0]!.matches.map((m) => [m.a, m.b])).toEqual(seeds.flatMap((s, i) => (i % 2 === 0 ? [[s, seeds[i + 1]]] : [])));

        const entered = new Map<number, EnteredResult>();
        for (;;) {
          const matches = resolveStage(plan, seeds, entered);
          compare(matches);
          const ready = matches.findIndex((m) => m.status === 'ready');
          if (ready === -1) break;
          const m = matches[ready]!;
          const slot = coin() < 0.5 ? 'a' : 'b';
          entered.set(ready, { a: m.a, b: m.b, result: winFor(slot) });
          legacy = setResult(legacy, m.plan.round - 1, m.plan.position - 1, m[slot]!);
        }
        // A correction: the other side of a random played match wins; both engines clear what followed.
        const matches = resolveStage(plan, seeds, entered);
        const played = matches.map((_, i) => i).filter((i) => matches[i]!.result);
        const changed = played[Math.floor(coin() * played.length)]!;
        const m = matches[changed]!;
        entered.set(changed, {
          a: m.a,
          b: m.b,
          result: winFor(other(m.result)),
        });
        legacy = setResult(legacy, m.plan.round - 1, m.plan.position - 1, m.loser!);
        compare(resolveStage(plan, seeds, entered));
      }),
      { numRuns: 60 },
    );
  });

  it('seeds rating and manual stages in the standard bracket order', () => {
    for (const n of [2, 3, 5, 6, 8, 13, 32]) {
      for (const format of ['single_elimination', 'double_elimination'] as const) {
        const standard = draftStage(format, {}, ids(n), 'standard').seeds;
        expect(draftStage(format, {}, ids(n), 'rating', new Map([['p2', 2000]])).seeds).toEqual(standard);
        expect(draftStage(format, {}, ids(n), 'manual').seeds).toEqual(standard);
        expect(standard).toEqual(createBracket(ids(n), 'standard')[0]!.matches.flatMap((m) => [m.a, m.b]));
      }
    }
  });
});
