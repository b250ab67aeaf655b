import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { counterFrom, limitText } from '../../src/components/Field.tsx';
import { EMAIL_MAX, IMAGE_ADDRESS_MAX, TOURNAMENT_DESCRIPTION_MAX, TOURNAMENT_TITLE_MAX, USERNAME_MAX } from '../../src/lib/api/limits.ts';
import { CONDITION_MAX_LENGTH } from '../../src/lib/domain/stat-fields.ts';
import { loginInput, registerInput, usernameSchema } from '../../src/lib/api/auth.ts';
import { achievementInput } from '../../src/lib/api/game-management.ts';
import { imageInput } from '../../src/lib/api/games.ts';
import { tournamentInput } from '../../src/lib/api/tournaments.ts';
import { defaultLocale, setLocaleResolver, type Locale } from '../../src/lib/i18n/index.ts';
import { describeIssue, tightest } from '../../src/server/api/validation.ts';

/** Runs `work` as if the reader had chosen `locale`. */
function inLocale<T>(locale: Locale, work: () => T): T {
  setLocaleResolver(() => locale);
  try {
    return work();
  } finally {
    setLocaleResolver(() => defaultLocale);
  }
}

function message(schema: z.ZodType, input: unknown): string {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  const issue = result.error.issues[0];
  if (!issue) throw new Error('no issue');
  return describeIssue(issue, input);
}

describe('validation messages', () => {
  it('names a missing field by its Ukrainian label', () => {
    expect(message(registerInput, { email: 'a@b.test', password: '12345678' })).toBe('Поле «Нікнейм» обовʼязкове');
  });

  it('tells a wrong type from a missing value', () => {
    expect(message(registerInput, { username: 42, email: 'a@b.test', password: '12345678' })).toBe('Поле «Нікнейм» має неправильний тип');
  });

  it('gives bounds for too long and too short values', () => {
    expect(message(registerInput, { username: 'ab', email: 'a@b.test', password: '12345678' })).toBe(
      'Поле «Нікнейм» закоротке (щонайменше 3 символів)',
    );
    expect(message(registerInput, { username: 'abc', email: 'a@b.test', password: 'x'.repeat(200) })).toBe(
      'Поле «Пароль» задовге (не більше 128 символів)',
    );
    // A list counts its items, not characters.
    expect(message(z.object({ sides: z.array(z.string()).min(2) }), { sides: ['a'] })).toBe('Поле «sides» закоротке (щонайменше 2)');
  });

  it('calls a number too large or too small, and names the field’s own bound, not the safe-integer one', () => {
    const kills = z.object({ kills: z.number().int().min(0).max(99) });
    expect(message(kills, { kills: 100 })).toBe('Поле «kills» завелике (не більше 99)');
    expect(message(kills, { kills: -1 })).toBe('Поле «kills» замале (щонайменше 0)');
    const huge = kills.safeParse({ kills: 1e308 });
    if (huge.success) throw new Error('expected a failure');
    expect(describeIssue(tightest(huge.error.issues)!, { kills: 1e308 })).toBe('Поле «kills» завелике (не більше 99)');
    expect(inLocale('en', () => describeIssue(tightest(huge.error.issues)!, { kills: 1e308 }))).toBe('The field "kills" is too large (at most 99)');
  });

  it('asks for an ISO date and time in words, not zod’s', () => {
    expect(message(z.object({ date: z.iso.datetime() }), { date: 'завтра' })).toBe('Дата й час мають бути у форматі ISO 8601, наприклад 2030-05-01T16:00:00Z');
    // A schema's own message stays first.
    expect(message(z.object({ date: z.iso.datetime({ error: () => 'Своє' }) }), { date: 'завтра' })).toBe('Своє');
  });

  it('explains a bad email and a bad id', () => {
    expect(message(registerInput, { username: 'abc', email: 'nope', password: '12345678' })).toBe('Некоректний email');
    expect(message(z.object({ id: z.uuid() }), { id: 'x' })).toBe('Некоректний ідентифікатор');
  });

  it('refuses a body that is not an object', () => {
    expect(message(registerInput, 'text')).toBe('Некоректні дані запиту');
  });

  it('accepts Cyrillic nicknames and trims spaces', () => {
    expect(registerInput.parse({ username: '  Козак_1 ', email: ' a@b.test ', password: '12345678' })).toMatchObject({
      username: 'Козак_1',
      email: 'a@b.test',
    });
  });

  it('names the limit in the reader’s language, number and noun alike', () => {
    const tooLong = { username: 'abc', email: 'a@b.test', password: 'x'.repeat(200) };
    expect(inLocale('en', () => message(registerInput, tooLong))).toBe('The field "Password" is too long (at most 128 characters)');
    expect(inLocale('en', () => message(registerInput, { ...tooLong, password: '1' }))).toBe('The field "Password" is too short (at least 8 characters)');
  });
});

describe('length limits in forms', () => {
  it('shows the limits the schemas enforce, so the form and the server agree', () => {
    expect(usernameSchema.maxLength).toBe(USERNAME_MAX);
    expect(tournamentInput.shape.title.maxLength).toBe(TOURNAMENT_TITLE_MAX);
    expect(tournamentInput.shape.description.unwrap().maxLength).toBe(TOURNAMENT_DESCRIPTION_MAX);
    expect(imageInput.unwrap().maxLength).toBe(IMAGE_ADDRESS_MAX);
    expect(loginInput.shape.loginOrEmail.maxLength).toBe(EMAIL_MAX);
    expect(achievementInput.shape.condition.maxLength).toBe(CONDITION_MAX_LENGTH);
  });

  it('shows the counter only over the last tenth of the limit (at least the last 10 characters)', () => {
    expect(counterFrom(40)).toBe(30);
    expect(counterFrom(1000)).toBe(900);
  });

  it('says what is left, or how far over the limit a value is, naming the limit', () => {
    expect(limitText('Назва команди', 35, 40)).toBe('Використано 35 з 40 символів');
    expect(limitText('Назва команди', 43, 40)).toBe('«Назва команди» — не довше 40 символів; зараз 43');
    expect(inLocale('en', () => limitText('Team name', 41, 40))).toBe('"Team name" takes at most 40 characters; now 41');
  });
});
