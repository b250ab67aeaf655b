import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, sessions, users } from '../../src/server/db/schema/index.ts';
import { LOGIN_LIMIT } from '../../src/server/routes/auth.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

const userCount = async () => (await api.db.select({ n: count() }).from(users))[0]?.n ?? 0;

describe('registration and confirmation', () => {
  it('registers a player, sends a confirmation letter and refuses login until it is opened', async () => {
    const reg = await api.call('POST', '/api/auth/register', { body: { username: 'KozakSniper', email: 'kozak@example.test', password: 'hunter2hunter2' } });
    expect(reg.status).toBe(201);
    expect(reg.body.message).toBe('Реєстрація успішна! Перевірте пошту, щоб підтвердити акаунт.');
    const letter = api.outbox.findLast((l) => l.to === 'kozak@example.test');
    expect(letter?.link).toMatch(/^https:\/\/arena\.test\/confirm\?token=/);
    expect(letter?.text).toContain(letter?.link);

    const early = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: 'KozakSniper', password: 'hunter2hunter2' } });
    expect(early.status).toBe(403);
    expect(early.body.message).toMatch(/Пошту не підтверджено/);

    const token = api.letterToken('kozak@example.test');
    const confirmed = await api.call('GET', `/api/auth/confirm?token=${token}`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.message).toBe('Пошту підтверджено! Тепер можна увійти.');

    const again = await api.call('GET', `/api/auth/confirm?token=${token}`);
    expect(again.status).toBe(400);
    expect(again.body.message).toMatch(/недійсне або застаріле/);

    const login = await api.call<{ user: Record<string, unknown>; token: string; message: string }>('POST', '/api/auth/login', {
      body: { loginOrEmail: 'kozak@EXAMPLE.test', password: 'hunter2hunter2' },
    });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^[\w-]{43}$/);
    expect(login.body.message).toBeTruthy();
    expect(login.body.user).toMatchObject({ username: 'KozakSniper', email: 'kozak@example.test', role: 'user', teams: [], team: null });
    expect(login.body.user).not.toHaveProperty('passwordHash');
  });

  it('stores only hashes of tokens and an argon2id password hash', async () => {
    const [user] = await api.db.select().from(users).where(eq(users.username, 'KozakSniper'));
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/);
    const tokens = await api.db.select().from(emailTokens);
    const letters = api.outbox.map((l) => new URL(l.link ?? 'https://x').searchParams.get('token'));
    for (const row of tokens) expect(letters).not.toContain(row.tokenHash);
    const live = await api.db.select().from(sessions);
    expect(live.every((s) => /^[0-9a-f]{64}$/.test(s.tokenHash))).toBe(true);
  });

  it('refuses a taken nickname or email with 409, ignoring case, and stores nothing', async () => {
    const before = await userCount();
    const name = await api.call('POST', '/api/auth/register', { body: { username: 'kozaksniper', email: 'other@example.test', password: 'hunter2hunter2' } });
    expect(name.status).toBe(409);
    expect(name.body.message).toBe('Цей нікнейм уже зайнятий');
    const mail = await api.call('POST', '/api/auth/register', { body: { username: 'Another', email: 'KOZAK@example.test', password: 'hunter2hunter2' } });
    expect(mail.status).toBe(409);
    expect(mail.body.message).toBe('Цей email уже зареєстровано');
    expect(await userCount()).toBe(before);
  });

  it('rejects a made-up or missing confirmation token', async () => {
    const bogus = await api.call('GET', '/api/auth/confirm?token=not-a-real-token');
    expect(bogus.status).toBe(400);
    const missing = await api.call('GET', '/api/auth/confirm');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Поле «Токен» обовʼязкове');
  });

  it('resends a letter only to an unconfirmed account, answering the same for every address', async () => {
    await api.call('POST', '/api/auth/register', { body: { username: 'late_reader', email: 'late@example.test', password: 'hunter2hunter2' } });
    const sent = api.outbox.length;
    const forUnconfirmed = await api.call('POST', '/api/auth/resend-confirmation', { body: { email: 'late@example.test' }, ip: '198.51.100.7' });
    const forUnknown = await api.call('POST', '/api/auth/resend-confirmation', { body: { email: 'nobody@example.test' }, ip: '198.51.100.7' });
    const forConfirmed = await api.call('POST', '/api/auth/resend-confirmation', { body: { email: 'kozak@example.test' }, ip: '198.51.100.7' });
    expect([forUnconfirmed.status, forUnknown.status, forConfirmed.status]).toEqual([200, 200, 200]);
    expect(forUnknown.body).toEqual(forUnconfirmed.body);
    expect(forConfirmed.body).toEqual(forUnconfirmed.body);
    expect(api.outbox.length).toBe(sent + 1);
    expect(api.outbox.at(-1)?.to).toBe('late@example.test');
  });
});

describe('login, session and logout', () => {
  it('gives the same answer for a wrong password and an unknown login', async () => {
    const { user } = await api.signedIn('user', 'same_answer');
    const wrong = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: 'wrong-password' }, ip: '198.51.100.20' });
    const unknown = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: 'no_such_player', password: 'wrong-password' }, ip: '198.51.100.20' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.message).toBe('Неправильний логін або пароль');
  });

  it('returns the current user with role for a valid token and 401 otherwise', async () => {
    const { token, user } = await api.signedIn();
    const me = await api.call('GET', '/api/users/me', { token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ _id: user.id, username: user.username, role: 'user' });

    for (const bad of [undefined, 'made-up-token', `${token}x`]) {
      const res = await api.call('GET', '/api/users/me', bad ? { token: bad } : {});
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Потрібно увійти');
    }
  });

  it('refuses an expired token', async () => {
    const { token, user } = await api.signedIn();
    await api.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, user.id));
    expect((await api.call('GET', '/api/users/me', { token })).status).toBe(401);
  });

  it('revokes the token on logout', async () => {
    const { token } = await api.signedIn();
    const out = await api.call('POST', '/api/auth/logout', { token });
    expect(out.status).toBe(200);
    expect((await api.call('GET', '/api/users/me', { token })).status).toBe(401);
    expect((await api.call('POST', '/api/auth/logout', { token })).status).toBe(401);
  });

  it('slows repeated failed logins from one address with 429 and Retry-After, even for the right password', async () => {
    const { user, password } = await api.signedIn('user', 'target_of_guessing');
    const ip = '192.0.2.99';
    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      const res = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: `guess${i}`, password: 'nope-nope' }, ip });
      expect(res.status).toBe(401);
    }
    const blocked = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.message).toBe('Забагато спроб. Спробуйте пізніше.');
    const elsewhere = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '192.0.2.100' });
    expect(elsewhere.status).toBe(200);
  });

  it('locks one account after repeated failures from many addresses', async () => {
    const { user, password } = await api.signedIn('user', 'sprayed_account');
    for (let i = 0; i < LOGIN_LIMIT.max; i++) {
      await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: 'bad-guess' }, ip: `10.9.0.${i}` });
    }
    const blocked = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '10.9.1.1' });
    expect(blocked.status).toBe(429);
  });
});

describe('admin guard', () => {
  it('lets only an admin sign a user out everywhere: 401 for guests, 403 for players', async () => {
    const victim = await api.signedIn();
    const player = await api.signedIn();
    const admin = await api.signedIn('admin');
    const path = `/api/users/${victim.user.id}/sessions`;

    const guest = await api.call('DELETE', path);
    expect(guest.status).toBe(401);
    const forbidden = await api.call('DELETE', path, { token: player.token });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe('Доступ лише для адміністратора');
    expect((await api.call('GET', '/api/users/me', { token: victim.token })).status).toBe(200);

    const done = await api.call('DELETE', path, { token: admin.token });
    expect(done.status).toBe(200);
    expect((await api.call('GET', '/api/users/me', { token: victim.token })).status).toBe(401);
    expect((await api.call('GET', '/api/users/me', { token: admin.token })).status).toBe(200);

    const missing = await api.call('DELETE', `/api/users/00000000-0000-4000-8000-000000000000/sessions`, { token: admin.token });
    expect(missing.status).toBe(404);
    const badId = await api.call('DELETE', '/api/users/not-an-id/sessions', { token: admin.token });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toBe('Некоректний ідентифікатор');
  });
});
