import { describe, expect, it } from 'vitest';
import { formFromPlan, stageBody } from '../../src/islands/stages/form.ts';
import { planOf, type PlannedStage, type StagePlanStep } from '../../src/lib/domain/stage/stage-plan.ts';

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
    step!.settings.points!.win = 2;
    expect(source.settings.points!.win).toBe(3);
  });
});

describe('formFromPlan', () => {
  const groups: StagePlanStep = { name: 'Групи', format: 'round_robin', seeding: 'rating', settings: { groups: 4, doubleRound: true, bestOf: 3, tieBreakers: ['headToHead'] } };
  const playoffs: StagePlanStep = { name: 'Плей-оф', format: 'single_elimination', seeding: 'order', settings: { thirdPlace: true }, from: { stage: 1, advance: 2 } };

  it('is the default form without a step', () => {
    expect(formFromPlan(undefined, [], ['a'])).toMatchObject({ format: 'single_elimination', name: '', order: ['a'], fromStage: '', kept: {} });
  });

  it('fills in the step, and sends what the form has no field for as the plan had it', () => {
    const form = formFromPlan(groups, [], ['a', 'b']);
    expect(form).toMatchObject({ format: 'round_robin', name: 'Групи', seeding: 'rating', groups: 4, doubleRound: true, bestOf: 3, order: ['a', 'b'] });
    expect(stageBody(form)).toEqual({
      ok: true,
      body: { format: 'round_robin', name: 'Групи', seeding: 'rating', settings: { tieBreakers: ['headToHead'], groups: 4, doubleRound: true, bestOf: 3 } },
    });
  });

  it('takes playoffs from the stage created for the step feeding them, or from the approved participants when there is none', () => {
    expect(formFromPlan(playoffs, [{ _id: 'stage-1', number: 1 }])).toMatchObject({ fromStage: 'stage-1', advance: 2, thirdPlace: true });
    expect(formFromPlan(playoffs, [])).toMatchObject({ fromStage: '', advance: 2 });
  });
});
