import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerInput } from '../../src/lib/api/auth.ts';
import { describeIssue } from '../../src/server/validation.ts';

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
});
