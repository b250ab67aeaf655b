import { describe, expect, it } from 'vitest';
import { defaultStageForm, formFromPlan, stageBody, tieBreakersOf } from '../../src/islands/stages/form.ts';
import { planOf, type PlannedStage, type StagePlanStep } from '../../src/lib/domain/stage/stage-plan.ts';
import type { Points } from '../../src/lib/domain/stage/format.ts';

/* A clone's stage plan (issue 56): what of the source's stages it keeps, and the form it fills in. */

const stage = (overrides: Partial<PlannedStage> & Pick<PlannedStage, 'id' | 'number'>): PlannedStage => ({
  name: '',
  format: 'single_elimination',
  seeding: 'order',
  settings: {},
  fromStageId: null,
  advance: null,
  ...overrides,
});

describe('planOf', () => {
  it('keeps the stages in their order, a hand-made seeding as application order, and playoffs by the number of the stage feeding them', () => {
    const groups = stage({ id: 'g', number: 1, name: 'Групи', format: 'round_robin', seeding: 'manual', settings: { groups: 2 } });
    const playoffs = stage({ id: 'p', number: 2, name: 'Плей-оф', seeding: 'standard', settings: { bestOf: 3 }, fromStageId: 'g', advance: 2 });
    expect(planOf([playoffs, groups])).toEqual([
      { name: 'Групи', format: 'round_robin', seeding: 'order', settings: { groups: 2 } },
      { name: 'Плей-оф', format: 'single_elimination', seeding: 'standard', settings: { bestOf: 3 }, from: { stage: 1, advance: 2 } },
    ]);
    expect(planOf([])).toEqual([]);
  });

  it('copies the settings, so the plan never shares them with the stage it came from', () => {
    const source = stage({ id: 's', number: 1, settings: { points: { win: 3, draw: 1, loss: 0 } } });
    const [step] = planOf([source]);
    (step!.settings.points as Points).win = 2;
    expect(source.settings.points).toEqual({ win: 3, draw: 1, loss: 0 });
  });
});

describe('formFromPlan', () => {
  const groups: StagePlanStep = { name: 'Групи', format: 'round_robin', seeding: 'rating', settings: { groups: 4, doubleRound: true, bestOf: 3, tieBreakers: ['headToHead'] } };
  const playoffs: StagePlanStep = { name: 'Плей-оф', format: 'single_elimination', seeding: 'order', settings: { thirdPlace: true }, from: { stage: 1, advance: 2 } };

  it('is the default form without a step', () => {
    expect(formFromPlan(undefined, [], ['a'])).toMatchObject({
      format: 'single_elimination',
      name: '',
      order: ['a'],
      fromStage: '',
      bestOfRules: [],
      tieBreakers: null,
      kept: {},
    });
  });

  it('fills in the step, and sends what the form has no field for as the plan had it', () => {
    const form = formFromPlan(groups, [], ['a', 'b']);
    expect(form).toMatchObject({ format: 'round_robin', name: 'Групи', seeding: 'rating', groups: 4, doubleRound: true, bestOf: 3, order: ['a', 'b'] });
    expect(stageBody(form)).toEqual({
      ok: true,
      body: { format: 'round_robin', name: 'Групи', seeding: 'rating', settings: { groups: 4, doubleRound: true, bestOf: 3, tieBreakers: ['headToHead'] } },
    });
  });

  it('takes playoffs from the stage created for the step feeding them, or from the approved participants when there is none', () => {
    expect(formFromPlan(playoffs, [{ _id: 'stage-1', number: 1 }])).toMatchObject({ fromStage: 'stage-1', advance: 2, thirdPlace: true });
    expect(formFromPlan(playoffs, [])).toMatchObject({ fromStage: '', advance: 2 });
  });
});

describe('the stage form’s best-of rules and tie-breakers (issue 57)', () => {
  it('sends best-of rules by side and round, a table’s rules for every side, and refuses a round that is no whole number', () => {
    const form = {
      ...defaultStageForm(),
      format: 'double_elimination' as const,
      bestOfRules: [
        { side: 'winners' as const, round: '3', bestOf: 3 },
        { side: 'grand_final' as const, round: '1', bestOf: 5 },
      ],
    };
    expect(stageBody(form)).toMatchObject({
      ok: true,
      body: {
        settings: {
          bestOfByRound: [
            { side: 'winners', round: 3, bestOf: 3 },
            { side: 'grand_final', round: 1, bestOf: 5 },
          ],
        },
      },
    });
    // A side the format has none of (the form kept it from another format) holds for every side.
    const table = { ...form, format: 'swiss' as const };
    expect(stageBody(table)).toMatchObject({
      ok: true,
      body: {
        settings: {
          bestOfByRound: [
            { round: 3, bestOf: 3 },
            { round: 1, bestOf: 5 },
          ],
        },
      },
    });
    for (const round of ['', '0', '65', '2.5', 'три']) {
      expect(stageBody({ ...form, bestOfRules: [{ side: '', round, bestOf: 3 }] }), round).toEqual({
        ok: false,
        message: 'Номер раунду в правилі — ціле число від 1 до 64',
      });
    }
  });

  it('sends the tie-breakers chosen for a table, none for a bracket, and refuses one chosen twice', () => {
    const swiss = { ...defaultStageForm(), format: 'swiss' as const };
    expect(tieBreakersOf(swiss)).toEqual(['buchholz', 'headToHead', 'scoreDifference']);
    expect(stageBody(swiss)).toMatchObject({ ok: true, body: { settings: {} } });
    expect(stageBody({ ...swiss, tieBreakers: ['medianBuchholz', 'wins'] })).toMatchObject({
      ok: true,
      body: { settings: { tieBreakers: ['medianBuchholz', 'wins'] } },
    });
    expect(stageBody({ ...swiss, tieBreakers: ['wins', 'wins'] })).toEqual({
      ok: false,
      message: 'Кожен показник додаткового рейтингу можна вибрати лише раз',
    });
    const bracket = { ...defaultStageForm(), tieBreakers: ['wins' as const] };
    expect(stageBody(bracket)).toMatchObject({ ok: true, body: { settings: {} } });
    expect((stageBody(bracket) as { body: { settings: Record<string, unknown> } }).body.settings).not.toHaveProperty('tieBreakers');
  });

  it('opens a plan’s step with its rules and tie-breakers', () => {
    const step: StagePlanStep = {
      name: '',
      format: 'swiss',
      seeding: 'order',
      settings: { bestOfByRound: [{ round: 4, bestOf: 3 }], tieBreakers: ['medianBuchholz'] },
    };
    expect(formFromPlan(step, [])).toMatchObject({ bestOfRules: [{ side: '', round: '4', bestOf: 3 }], tieBreakers: ['medianBuchholz'] });
  });
});
