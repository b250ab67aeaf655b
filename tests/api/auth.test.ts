import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailTokens, notifications, sessions, users } from '../../src/server/db/schema/index.ts';
import { parseEnv } from '../../src/server/env.ts';
import type { Letter } from '../../src/server/mail/mailer.ts';
import { LOGIN_LIMITS } from '../../src/server/services/accounts/login-attempts.ts';
import { MAIL_RETRY_MS, sendDueLetters } from '../../src/server/services/notices/notices.ts';
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

  const wrongLogin = (loginOrEmail: string, ip: string) => api.call('POST', '/api/auth/login', { body: { loginOrEmail, password: 'nope-nope' }, ip });

  it('refuses an account from an address after 10 failures there, with 429, Retry-After and the minutes to wait, even for the right password', async () => {
    const { user, password } = await api.signedIn('user', 'target_of_guessing');
    const ip = '192.0.2.99';
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) expect((await wrongLogin(user.username, ip)).status).toBe(401);
    const blocked = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
    expect(blocked.body.message).toBe('Забагато спроб. Спробуйте знову через 15 хвилин.');
    const english = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip, headers: { cookie: 'lang=en' } });
    expect(english.body.message).toBe('Too many attempts. Try again in 15 minutes.');
    // The owner elsewhere is not locked out by this address.
    const elsewhere = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '192.0.2.100' });
    expect(elsewhere.status).toBe(200);
  });

  it('counts the username and the email of one account together', async () => {
    const { user } = await api.signedIn('user', 'two_names');
    const ip = '192.0.2.77';
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) expect((await wrongLogin(i % 2 === 0 ? user.username : user.email.toUpperCase(), ip)).status).toBe(401);
    expect((await wrongLogin(user.email, ip)).status).toBe(429);
    expect((await wrongLogin(user.username.toUpperCase(), ip)).status).toBe(429);
  });

  it('lets the others behind a shared address sign in after one of them failed 10 times', async () => {
    const guessed = await api.signedIn('user', 'club_victim');
    const neighbour = await api.signedIn('user', 'club_neighbour');
    const ip = '192.0.2.55';
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) await wrongLogin(guessed.user.username, ip);
    const other = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: neighbour.user.username, password: neighbour.password }, ip });
    expect(other.status).toBe(200);
  });

  it('does not let anyone lock a named player out: the right password from an address with no failures gets in', async () => {
    const { user, password } = await api.signedIn('user', 'sprayed_account');
    // Failures from many addresses, past the account's own ceiling.
    await Promise.all(Array.from({ length: LOGIN_LIMITS.account.max + 5 }, (_, i) => wrongLogin(user.username, `10.9.${Math.floor(i / 200)}.${i % 200}`)));
    const owner = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '10.9.9.9' });
    expect(owner.status).toBe(200);
    // An address that has failed against the account gets no further try while the ceiling holds.
    const again = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, ip: '10.9.0.1' });
    expect(again.status).toBe(429);
  });
});

/** The outbox rows of letters to `email` (services/notices/notices.ts keeps account letters beside notices). */
const lettersTo = (email: string) => api.db.select().from(notifications).where(sql`${notifications.payload} -> 'letter' ->> 'to' = ${email}`);
const tokensFor = (email: string) => api.db.select().from(emailTokens).where(eq(emailTokens.email, email));
const usersNamed = (username: string) => api.db.select().from(users).where(eq(users.username, username));

/**
 * A full disk for one address, inside the database: inserts into `table` about the account with
 * that email raise PostgreSQL's disk_full (53100), as writes do when the volume is out of space.
 */
async function diskFullFor(table: 'email_tokens' | 'notifications', email: string) {
  const name = `disk_full_${table}`;
  await api.db.execute(
    sql.raw(`create or replace function ${name}() returns trigger language plpgsql as $$
      begin
        if (select u.email from users u where u.id = new.user_id) = '${email}' then
          raise exception 'could not extend file: No space left on device' using errcode = 'disk_full';
        end if;
        return new;
      end $$`),
  );
  await api.db.execute(sql.raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`));
  return async () => {
    await api.db.execute(sql.raw(`drop trigger ${name} on ${table}`));
    await api.db.execute(sql.raw(`drop function ${name}()`));
  };
}

describe('a sign-up is one transaction with its token and its letter (issue 54)', () => {
  for (const table of ['email_tokens', 'notifications'] as const) {
    it(`leaves nothing when the ${table === 'email_tokens' ? 'token' : 'letter’s outbox row'} cannot be written, and the same name registers afterwards`, async () => {
      const username = `full_${table}`;
      const email = `${username}@example.test`;
      const body = { username, email, password: 'hunter2hunter2' };
      const ip = table === 'email_tokens' ? '198.51.100.54' : '198.51.100.55';
      const heal = await diskFullFor(table, email);
      let refused;
      try {
        refused = await api.call('POST', '/api/auth/register', { body, ip });
      } finally {
        await heal();
      }
      expect(refused.status, JSON.stringify(refused.body)).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(typeof refused.body.message).toBe('string');
      expect(JSON.stringify(refused.body)).not.toMatch(/\bat |disk_full|No space|stack/);
      expect(await usersNamed(username)).toEqual([]);
      expect(await tokensFor(email)).toEqual([]);
      expect(await lettersTo(email)).toEqual([]);
      expect(api.outbox.some((l) => l.to === email)).toBe(false);

      const again = await api.call('POST', '/api/auth/register', { body, ip });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(await usersNamed(username)).toHaveLength(1);
      const confirmed = await api.call('GET', `/api/auth/confirm?token=${api.letterToken(email)}`);
      expect(confirmed.status).toBe(200);
    });
  }

  it('queues a resent letter with its token: neither is kept when one fails', async () => {
    const email = 'resend_full@example.test';
    expect((await api.call('POST', '/api/auth/register', { body: { username: 'resend_full', email, password: 'hunter2hunter2' }, ip: '198.51.100.56' })).status).toBe(201);
    const [tokens, rows, sent] = [(await tokensFor(email)).length, (await lettersTo(email)).length, api.outbox.length];
    const heal = await diskFullFor('notifications', email);
    try {
      const refused = await api.call('POST', '/api/auth/resend-confirmation', { body: { email }, ip: '198.51.100.56' });
      expect(refused.status).toBe(503);
    } finally {
      await heal();
    }
    expect((await tokensFor(email)).length).toBe(tokens);
    expect((await lettersTo(email)).length).toBe(rows);
    expect(api.outbox.length).toBe(sent);
  });

  it('keeps an address change, its token and its letter together', async () => {
    const player = await api.signedIn();
    const moved = `${player.user.username}-moved@example.test`;
    const heal = await diskFullFor('notifications', player.user.email);
    try {
      const refused = await api.call('PUT', '/api/cabinet/me', { token: player.token, body: { email: moved } });
      expect(refused.status).toBe(503);
    } finally {
      await heal();
    }
    const [row] = await usersNamed(player.user.username);
    expect(row?.pendingEmail).toBeNull();
    expect(await tokensFor(moved)).toEqual([]);
    expect(await lettersTo(moved)).toEqual([]);
    const saved = await api.call('PUT', '/api/cabinet/me', { token: player.token, body: { email: moved } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(api.letterToken(moved)).toBeTruthy();
  });

  it('sends the letter after the commit from its outbox row, which then forgets the token', async () => {
    const email = 'outbox_reader@example.test';
    const reg = await api.call('POST', '/api/auth/register', { body: { username: 'outbox_reader', email, password: 'hunter2hunter2' }, ip: '198.51.100.57' });
    expect(reg.status).toBe(201);
    const [row] = await lettersTo(email);
    const [user] = await usersNamed('outbox_reader');
    expect(row).toMatchObject({ userId: user!.id, mailState: 'sent', mailAttempts: 1, link: null, payload: { mailOnly: true, letter: { kind: 'confirm', to: email } } });
    const letter = api.outbox.findLast((l) => l.to === email);
    expect(letter?.subject).toBe('Підтвердіть пошту на Кіберарені');
    // Not a notice: the bell of the account never shows it.
    const token = api.letterToken(email);
    expect((await api.call('GET', `/api/auth/confirm?token=${token}`)).status).toBe(200);
    const login = await api.call<{ token: string }>('POST', '/api/auth/login', { body: { loginOrEmail: email, password: 'hunter2hunter2' } });
    const bell = await api.call<unknown[]>('GET', '/api/users/me/notifications', { token: login.body.token });
    expect(bell.status).toBe(200);
    expect(JSON.stringify(bell.body)).not.toContain('Підтвердіть');
  });

  it('answers 201 when the mail server fails, and the outbox sends the letter on a later run', async () => {
    const delivered: Letter[] = [];
    let down = true;
    const mailer = {
      async send(letter: Letter) {
        if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
        delivered.push(letter);
      },
    };
    const flaky = await createTestApi({ database: api.database, mailer });
    try {
      const email = 'mail_down@example.test';
      const reg = await flaky.call('POST', '/api/auth/register', { body: { username: 'mail_down', email, password: 'hunter2hunter2' }, ip: '198.51.100.58' });
      expect(reg.status, JSON.stringify(reg.body)).toBe(201);
      const [waiting] = await lettersTo(email);
      expect(waiting).toMatchObject({ mailState: 'pending', mailAttempts: 1 });
      expect(waiting?.link).toMatch(/^\/confirm\?token=/);
      down = false;
      const run = await sendDueLetters(api.db, { mailer, siteUrl: 'https://arena.test' }, new Date(Date.now() + MAIL_RETRY_MS + 1000));
      expect(run.sent).toBeGreaterThanOrEqual(1);
      expect((await lettersTo(email))[0]).toMatchObject({ mailState: 'sent', mailAttempts: 2, link: null });
      const letter = delivered.find((l) => l.to === email);
      expect(letter?.link).toMatch(/^https:\/\/arena\.test\/confirm\?token=/);
      const token = new URL(letter!.link!).searchParams.get('token');
      expect((await flaky.call('GET', `/api/auth/confirm?token=${token}`)).status).toBe(200);
    } finally {
      await flaky.close();
    }
  });
});

describe('links in letters', () => {
  it('come from configuration, never from the Host the request names, for registration, resend and email change', async () => {
    // SITE_URL unset: the address the server listens on, as npm start prints it.
    const configured = parseEnv({ PORT: '4321' }).siteUrl;
    const local = await createTestApi({ database: api.database, siteUrl: configured });
    try {
      const evil = { host: 'evil.example', 'x-forwarded-host': 'evil.example' };
      const email = 'poisoned@example.test';
      await local.call('POST', 'http://evil.example/api/auth/register', { body: { username: 'host_poisoned', email, password: 'hunter2hunter2' }, headers: evil });
      await local.call('POST', 'http://evil.example/api/auth/resend-confirmation', { body: { email }, headers: evil });
      const player = await local.signedIn();
      await local.call('PUT', 'http://evil.example/api/cabinet/me', { token: player.token, body: { email: 'moved@example.test' }, headers: evil });
      const links = local.outbox.map((letter) => letter.link);
      expect(links).toHaveLength(3);
      for (const link of links) expect(link).toMatch(/^http:\/\/localhost:4321\/confirm\?token=/);
    } finally {
      await local.close();
    }
  });
});

describe('behind our own proxy (TRUST_PROXY)', () => {
  it('counts failures by the address our proxy saw, whatever the client wrote into X-Forwarded-For before it', async () => {
    const proxied = await createTestApi({ database: api.database, trustProxy: ['10.1.1.0/24'] });
    try {
      const { user, password } = await proxied.signedIn();
      const from = (forged: string) => ({ 'x-forwarded-for': `${forged}, 203.0.113.50` });
      for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) {
        const res = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: 'wrong-wrong' }, headers: from(`10.0.0.${i}`), ip: '10.1.1.1' });
        expect(res.status).toBe(401);
      }
      const forgedAgain = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, headers: from('10.0.0.200'), ip: '10.1.1.1' });
      expect(forgedAgain.status).toBe(429);
      const otherClient = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, headers: { 'x-forwarded-for': '203.0.113.51' }, ip: '10.1.1.1' });
      expect(otherClient.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it('counts a client that reached the port itself by its socket, whatever it writes into X-Forwarded-For', async () => {
    const proxied = await createTestApi({ database: api.database, trustProxy: ['10.1.1.0/24'] });
    try {
      const { user, password } = await proxied.signedIn();
      const forged = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i}` });
      for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) {
        const res = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: 'wrong-wrong' }, headers: forged(i), ip: '203.0.113.52' });
        expect(res.status).toBe(401);
      }
      const forgedAgain = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, headers: forged(200), ip: '203.0.113.52' });
      expect(forgedAgain.status).toBe(429);
      const throughProxy = await proxied.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password }, headers: forged(201), ip: '10.1.1.1' });
      expect(throughProxy.status).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('changing the password', () => {
  it('checks the old password at most 10 times for 20 parallel wrong guesses, and gives the place back when it is right', async () => {
    const { token, password } = await api.signedIn();
    const guess = (oldPassword: string) => api.call('PUT', '/api/cabinet/me/password', { token, body: { oldPassword, newPassword: 'brand-new-password' } });
    const results = await Promise.all(Array.from({ length: 20 }, () => guess('wrong-old-password')));
    expect(results.map((r) => r.status).sort().join(',')).toBe([...Array(10).fill(400), ...Array(10).fill(429)].join(','));
    expect(results.find((r) => r.status === 429)?.body.message).toBe('Забагато спроб. Спробуйте знову через 15 хвилин.');
    expect((await guess(password)).status).toBe(429);
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
