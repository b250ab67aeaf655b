import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema/index.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
const valid = { username: 'valid_name', email: 'valid@example.test', password: 'long-enough-1' };
const long = (n: number) => 'я'.repeat(n);

// Every bad body is refused with 400 and a Ukrainian sentence, and nothing is stored.
const cases: [string, string, { body?: unknown; raw?: string }, RegExp][] = [
  ['register', 'malformed JSON', { raw: '{"username": ' }, /коректним JSON/],
  ['register', 'empty body', { body: {} }, /обовʼязкове/],
  ['register', 'missing password', { body: { username: 'abc', email: 'a@b.test' } }, /«Пароль» обовʼязкове/],
  ['register', 'username of wrong type', { body: { ...valid, username: 12345 } }, /«Нікнейм» має неправильний тип/],
  ['register', 'username as array', { body: { ...valid, username: ['a', 'b'] } }, /неправильний тип/],
  ['register', 'null email', { body: { ...valid, email: null } }, /«Email» обовʼязкове/],
  ['register', 'invalid email', { body: { ...valid, email: 'not-an-email' } }, /Некоректний email/],
  ['register', 'too short username', { body: { ...valid, username: 'ab' } }, /закоротке/],
  ['register', 'too long username', { body: { ...valid, username: long(33) } }, /задовге \(не більше 32/],
  ['register', 'huge username', { body: { ...valid, username: long(20_000) } }, /задовге/],
  ['register', 'short password', { body: { ...valid, password: '1234567' } }, /«Пароль» закоротке/],
  ['register', 'too long password', { body: { ...valid, password: 'x'.repeat(129) } }, /«Пароль» задовге/],
  ['register', 'username with markup', { body: { ...valid, username: '<script>' } }, /Нікнейм може містити лише/],
  ['register', 'array body', { body: [valid] }, /неправильний тип|Некоректні/],
  ['login', 'malformed JSON', { raw: 'loginOrEmail=x' }, /коректним JSON/],
  ['login', 'empty body', { body: {} }, /обовʼязкове/],
  ['login', 'empty login', { body: { loginOrEmail: '   ', password: 'x' } }, /«Нікнейм або email» обовʼязкове/],
  ['login', 'password of wrong type', { body: { loginOrEmail: 'abc', password: 42 } }, /«Пароль» має неправильний тип/],
  ['login', 'too long login', { body: { loginOrEmail: long(300), password: 'x' } }, /задовге/],
  ['resend-confirmation', 'empty email', { body: { email: '' } }, /«Email» обовʼязкове/],
  ['resend-confirmation', 'invalid email', { body: { email: 'nope' } }, /Некоректний email/],
  ['resend-confirmation', 'email of wrong type', { body: { email: { $gt: '' } } }, /неправильний тип/],
];

describe('bad input on auth routes', () => {
  it.each(cases)('%s: %s → 400 with a Ukrainian message', async (route, _name, request, message) => {
    const before = (await api.db.select({ n: count() }).from(users))[0]?.n;
    const res = await api.call('POST', `/api/auth/${route}`, request);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body.message).toMatch(message);
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.ts|Error:/);
    expect((await api.db.select({ n: count() }).from(users))[0]?.n).toBe(before);
    expect(api.outbox).toHaveLength(0);
  });

  it('refuses a body that is not JSON with 415', async () => {
    const res = await api.call('POST', '/api/auth/register', { raw: 'username=a', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.message).toBe('Непідтримуваний тип даних');
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await api.call('POST', '/api/auth/register', { raw: JSON.stringify({ ...valid, username: 'x'.repeat(100_000) }) });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('Запит завеликий');
  });

  it('ignores fields it does not know, such as a role', async () => {
    const res = await api.call('POST', '/api/auth/register', { body: { ...valid, role: 'admin' } });
    expect(res.status).toBe(201);
    const [row] = await api.db.select().from(users);
    expect(row?.role).toBe('user');
  });
});
