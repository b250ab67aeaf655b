import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftStage } from '../../src/lib/domain/stage/build.ts';
import { GRAND_FINALS, type StageSettings } from '../../src/lib/domain/stage/format.ts';
import { doubleEliminationPlan, singleEliminationPlan, type PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { roundSlot, scheduleStage, type SchedulableMatch } from '../../src/lib/domain/stage/schedule.ts';

const START = new Date('2030-05-01T15:00:00Z');
const minutes = (at: Date) => (at.getTime() - START.getTime()) / 60_000;

/** A plan's matches as the schedule sees them, all waiting unless `completed` names them. */
const matchesOf = (plan: readonly PlannedMatch[], completed: ReadonlySet<number> = new Set()): SchedulableMatch[] =>
  plan.map((m, i) => ({ id: `m${i}`, group: m.group, side: m.side, round: m.round, status: completed.has(i) ? 'completed' : 'waiting' }));

/** The plan matches a match takes its sides from. */
const feeders = (m: PlannedMatch): number[] => [m.a, m.b].flatMap((s) => (s.kind === 'winner' || s.kind === 'loser' || s.kind === 'reset' ? [s.match] : []));

const elimination = fc.oneof(
  fc.record({ k: fc.integer({ min: 1, max: 7 }), thirdPlace: fc.boolean() }).map(({ k, thirdPlace }) => singleEliminationPlan(2 ** k, { thirdPlace })),
  fc
    .record({ k: fc.integer({ min: 1, max: 7 }), grandFinal: fc.constantFrom(...GRAND_FINALS) })
    .map(({ k, grandFinal }) => doubleEliminationPlan(2 ** k, { grandFinal })),
);

describe('play order of a stage’s rounds', () => {
  it('every elimination match is played after the matches that feed it', () => {
    fc.assert(
      fc.property(elimination, (plan) => {
        const matches = matchesOf(plan);
        plan.forEach((m, i) => {
          for (const f of feeders(m)) expect(roundSlot(matches[i]!, matches)).toBeGreaterThan(roundSlot(matches[f]!, matches));
        });
      }),
    );
  });

  it('slots run back to back from 0: no empty round slot in the schedule', () => {
    fc.assert(
      fc.property(elimination, (plan) => {
        const matches = matchesOf(plan);
        const slots = new Set(matches.map((m) => roundSlot(m, matches)));
        expect([...slots].sort((x, y) => x - y)).toEqual([...Array(slots.size).keys()]);
      }),
    );
  });

  it('double elimination of 8: winners 0,1,2, losers 1–4, grand final 5 and its reset 6', () => {
    const matches = matchesOf(doubleEliminationPlan(8, { grandFinal: 'double' }));
    const slotOf = (side: string, round: number) =>
      roundSlot(
        matches.find((m) => m.side === side && m.round === round)!,
        matches,
      );
    expect([1, 2, 3].map((r) => slotOf('winners', r))).toEqual([0, 1, 2]);
    expect([1, 2, 3, 4].map((r) => slotOf('losers', r))).toEqual([1, 2, 3, 4]);
    expect([slotOf('grand_final', 1), slotOf('grand_final', 2)]).toEqual([5, 6]);
  });

  it('the third-place match is played beside the final', () => {
    const matches = matchesOf(singleEliminationPlan(8, { thirdPlace: true }));
    const final = matches.find((m) => m.side === 'winners' && m.round === 3)!;
    const third = matches.find((m) => m.side === 'third_place')!;
    expect(roundSlot(third, matches)).toBe(roundSlot(final, matches));
  });

  it('round robin groups play their rounds at once', () => {
    const settings: StageSettings = { groups: 2 };
    const plan = draftStage('round_robin', settings, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 'order').plan;
    const matches = matchesOf(plan);
    for (const m of matches) expect(roundSlot(m, matches)).toBe(m.round - 1);
    expect(new Set(matches.map((m) => m.group))).toEqual(new Set([1, 2]));
  });
});

describe('scheduleStage', () => {
  it('puts each open match at start + slot × round length, and leaves played ones alone', () => {
    fc.assert(
      fc.property(elimination, fc.integer({ min: 1, max: 24 * 60 }), fc.array(fc.boolean(), { maxLength: 300 }), (plan, roundMinutes, played) => {
        const completed = new Set(plan.flatMap((_, i) => (played[i] ? [i] : [])));
        const matches = matchesOf(plan, completed);
        const done = scheduleStage(matches, START, roundMinutes);
        if (!done.ok) {
          expect([done.reason, completed.size]).toEqual(['nothingLeft', plan.length]);
          return;
        }
        expect(done.times.map((t) => t.id).sort()).toEqual(
          matches
            .filter((m) => m.status !== 'completed')
            .map((m) => m.id)
            .sort(),
        );
        for (const { id, at } of done.times)
          expect(minutes(at)).toBe(
            roundSlot(
              matches.find((m) => m.id === id)!,
              matches,
            ) * roundMinutes,
          );
      }),
    );
  });

  it('one round: only its open matches, all at the start', () => {
    const matches = matchesOf(doubleEliminationPlan(8), new Set([0]));
    const done = scheduleStage(matches, START, 30, { round: 1 });
    expect(done.ok && done.times.map((t) => [t.id, minutes(t.at)])).toEqual([
      ['m1', 0],
      ['m2', 0],
      ['m3', 0],
    ]);
    const losers = scheduleStage(matches, START, 30, { round: 2, side: 'losers' });
    expect(losers.ok && losers.times.length).toBe(2);
  });

  it('one round of one group, or of every group', () => {
    const matches = matchesOf(draftStage('round_robin', { groups: 2 }, ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 'order').plan);
    const both = scheduleStage(matches, START, 30, { round: 2 });
    const one = scheduleStage(matches, START, 30, { round: 2, group: 2 });
    expect(both.ok && both.times.length).toBe(4);
    expect(one.ok && one.times.map((t) => matches.find((m) => m.id === t.id)!.group)).toEqual([2, 2]);
  });

  it('refuses a round the stage does not have, and a round already played', () => {
    const matches = matchesOf(singleEliminationPlan(4), new Set([0, 1]));
    expect(scheduleStage(matches, START, 30, { round: 3 })).toEqual({ ok: false, reason: 'roundNotFound' });
    expect(scheduleStage(matches, START, 30, { round: 1, side: 'losers' })).toEqual({ ok: false, reason: 'roundNotFound' });
    expect(scheduleStage(matches, START, 30, { round: 1 })).toEqual({ ok: false, reason: 'nothingLeft' });
  });

  it('refuses a schedule any of whose times would pass the year 9999, and keeps one that ends on its last second', () => {
    const matches = matchesOf(doubleEliminationPlan(8, { grandFinal: 'double' }));
    const last = new Date('9999-12-31T23:59:59.999Z');
    expect(scheduleStage(matches, new Date('9999-12-31T23:59:59Z'), 1)).toEqual({ ok: false, reason: 'pastLastYear' });
    expect(scheduleStage(matches, last, 1, { round: 1 }).ok).toBe(true);
    // Seven slots of a day each from a week before the last second: the reset lands on it.
    const fits = scheduleStage(matches, new Date(last.getTime() - 6 * 24 * 60 * 60_000), 24 * 60);
    expect(fits.ok && Math.max(...fits.times.map((t) => t.at.getTime()))).toBe(last.getTime());
    expect(scheduleStage(matches, new Date(last.getTime() - 6 * 24 * 60 * 60_000 + 1), 24 * 60)).toEqual({ ok: false, reason: 'pastLastYear' });
  });
});
