import { describe, expect, it } from 'vitest';
import { defaultStageForm, formFromPlan, settingsOf, stageBody } from '../../src/islands/stages/form.ts';
import { defaultFfaForm, ffaSettings } from '../../src/islands/stages/ffa-form.ts';
import { stageCreateInput } from '../../src/lib/api/stages.ts';

/** The stage form set to a free-for-all stage with these fields. */
const ffaForm = (ffa: Partial<ReturnType<typeof defaultFfaForm>> = {}) => ({
  ...defaultStageForm(),
  format: 'free_for_all' as const,
  ffa: { ...defaultFfaForm(), ...ffa },
});

describe('creating a free-for-all stage in the form (issue 59)', () => {
  it('sends lobby size, games, advance and the points, and nothing of two-sided matches; the API takes the body as it is', () => {
    const form = { ...ffaForm(), bestOf: 3, veto: true, bestOfRules: [{ side: '' as const, round: '2', bestOf: 3 }] };
    expect(settingsOf(form)).toMatchObject({ ffa: true, matches: false, points: false, tieBreakers: false });
    const body = stageBody(form);
    expect(body).toEqual({
      ok: true,
      body: {
        format: 'free_for_all',
        seeding: 'order',
        settings: { lobbySize: 16, games: 3, advance: 4, points: { placement: [10, 6, 5, 4, 3, 2, 1, 1], kill: 1 } },
      },
    });
    expect(stageCreateInput.safeParse(body.ok && body.body).success).toBe(true);
  });

  it('leaves advance out when empty (one lobby, the final), and reads points separated by commas, spaces or semicolons', () => {
    expect(ffaSettings({ ...defaultFfaForm(), advance: ' ', placementPoints: '15;12 10,8', killPoints: '2' })).toEqual({
      ok: true,
      settings: { lobbySize: 16, games: 3, points: { placement: [15, 12, 10, 8], kill: 2 } },
    });
  });

  it('says what is wrong, field by field', () => {
    expect(ffaSettings({ ...defaultFfaForm(), lobbySize: '1' })).toEqual({ ok: false, message: 'Гравців у лобі — ціле число від 2 до 100' });
    expect(ffaSettings({ ...defaultFfaForm(), games: '0' })).toEqual({ ok: false, message: 'Ігор у лобі — ціле число від 1 до 20' });
    expect(ffaSettings({ ...defaultFfaForm(), advance: '16' })).toEqual({
      ok: false,
      message: 'Далі з кожного лобі проходять від 1 до 15: менше, ніж гравців у лобі',
    });
    expect(ffaSettings({ ...defaultFfaForm(), placementPoints: '10, -1' })).toEqual({
      ok: false,
      message: 'Очки за місця — цілі числа від 0 до 1000 через кому',
    });
    expect(ffaSettings({ ...defaultFfaForm(), placementPoints: '' })).toEqual({ ok: false, message: 'Очки за місця — цілі числа від 0 до 1000 через кому' });
    expect(ffaSettings({ ...defaultFfaForm(), killPoints: '1.5' })).toEqual({ ok: false, message: 'Очки за вбивство — ціле число від 0 до 1000' });
  });

  it('refills its fields from a clone’s plan', () => {
    const form = formFromPlan(
      { name: 'Лобі', format: 'free_for_all', seeding: 'order', settings: { lobbySize: 20, games: 4, advance: 5, points: { placement: [12, 9], kill: 2 } } },
      [],
    );
    expect(form.ffa).toEqual({ lobbySize: '20', games: '4', advance: '5', placementPoints: '12, 9', killPoints: '2' });
    expect(form.kept).toEqual({});
  });
});
