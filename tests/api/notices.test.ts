/**
 * Match-day notices (issue 22): per-kind settings, the reader's language, the letters' outbox
 * (exactly once across senders, retries, a real SMTP server on loopback that answers, refuses or
 * hangs), and the tournament's finish announced once with each participant's place.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notifications, users } from '../../src/server/db/schema/index.ts';
import { parseEnv } from '../../src/server/env.ts';
import { createMailer, mailerFromEnv, type Letter, type Mailer } from '../../src/server/mail/mailer.ts';
import { announce, lettersKicked, MAIL_ATTEMPTS, MAIL_LEASE_MS, MAIL_RETRY_MS, sendDueLetters, type Notice } from '../../src/server/services/notices/notices.ts';
import { createTestApi } from '../support/api.ts';
import { admin as adminOf, player, stage, team, tournament, useTestApi, type Player } from '../support/builders.ts';

/** Where the app's letters go: kept here unless a test plugs in a real mailer. */
const kept: Letter[] = [];
let mailer: Mailer = { send: async (letter) => void kept.push(letter) };
// The app sends a request's letters right after it, as the runtime does (a test app does not by default).
const api = useTestApi({ mailer: { send: (letter) => mailer.send(letter) }, letterKick: true });
const SITE = 'https://arena.test';
const deps = { mailer: { send: (letter: Letter) => mailer.send(letter) }, siteUrl: SITE };

let adminToken: string;
beforeAll(async () => {
  adminToken = (await adminOf(api)).token;
});

const rowsOf = (userId: string, kind: Notice['kind']) =>
  api.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind)));

const bell = (who: Player, lang?: 'uk' | 'en') =>
  api.call<{ _id: string; text: string; kind: string | null; link: string | null; payload: Record<string, unknown> }[]>('GET', '/api/users/me/notifications', {
    token: who.token,
    ...(lang ? { headers: { cookie: `lang=${lang}` } } : {}),
  });

const matchReady = (userId: string, opponent = 'Rival'): Notice => ({
  userId,
  kind: 'matchReady',
  params: { tournament: 'Kyiv Cup', opponent },
  link: '/matches/00000000-0000-4000-8000-000000000001',
});

/** Every letter due now sent (and the request's own kick finished). */
async function drain(now = new Date()) {
  await lettersKicked(api.db);
  return sendDueLetters(api.db, deps, now);
}

describe('notice settings', () => {
  it('start with every kind on, and keep what the user turned off, each kind once', async () => {
    const me = await player(api);
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: [], email: [], push: [], telegram: [], emailConfirmed: true });
    const saved = await api.call('PUT', '/api/users/me/notice-settings', {
      token: me.token,
      body: { email: ['matchReady', 'checkInOpen', 'matchReady'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ bell: [], email: ['checkInOpen', 'matchReady'], push: [], telegram: [] });
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: [], email: ['checkInOpen', 'matchReady'], push: [], telegram: [], emailConfirmed: true });
  });

  it('refuse an unknown kind or channel in Ukrainian and change nothing', async () => {
    const me = await player(api);
    await api.call('PUT', '/api/users/me/notice-settings', { token: me.token, body: { bell: ['scoreReported'] } });
    for (const body of [{ bell: ['launchRocket'] }, { sms: ['matchReady'] }, { bell: 'matchReady' }, []]) {
      const refused = await api.call('PUT', '/api/users/me/notice-settings', { token: me.token, body });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/[а-яіїєґ]/i);
    }
    expect((await api.call('PUT', '/api/users/me/notice-settings', { token: me.token, body: { bell: ['x'] } })).body.message).toBe('Невідомий вид сповіщення');
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: ['scoreReported'], email: [], push: [], telegram: [], emailConfirmed: true });
  });

  it('decide where a notice goes: bell off keeps it out of the bell but sends the letter, email off sends none, both off stores nothing', async () => {
    const [bellOff, emailOff, bothOff] = [await player(api), await player(api), await player(api)];
    await api.call('PUT', '/api/users/me/notice-settings', { token: bellOff.token, body: { bell: ['matchReady'] } });
    await api.call('PUT', '/api/users/me/notice-settings', { token: emailOff.token, body: { email: ['matchReady'] } });
    await api.call('PUT', '/api/users/me/notice-settings', { token: bothOff.token, body: { bell: ['matchReady'], email: ['matchReady'] } });
    await announce(api.db, [matchReady(bellOff.user.id), matchReady(emailOff.user.id), matchReady(bothOff.user.id)]);

    expect((await bell(bellOff)).body.filter((n) => n.kind === 'matchReady')).toEqual([]);
    expect((await rowsOf(bellOff.user.id, 'matchReady')).map((r) => r.mailState)).toEqual(['pending']);
    expect((await bell(emailOff)).body.filter((n) => n.kind === 'matchReady')).toHaveLength(1);
    expect((await rowsOf(emailOff.user.id, 'matchReady')).map((r) => r.mailState)).toEqual([null]);
    expect(await rowsOf(bothOff.user.id, 'matchReady')).toEqual([]);

    await drain();
    expect(kept.filter((l) => l.to === bellOff.user.email)).toHaveLength(1);
    expect(kept.filter((l) => l.to === emailOff.user.email || l.to === bothOff.user.email)).toEqual([]);
  });

  it('send no letter to an address that is not confirmed', async () => {
    const me = await player(api);
    await api.db.update(users).set({ emailConfirmedAt: null }).where(eq(users.id, me.user.id));
    await announce(api.db, [matchReady(me.user.id)]);
    expect((await rowsOf(me.user.id, 'matchReady')).map((r) => r.mailState)).toEqual([null]);
    // The cabinet says so beside the settings.
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toMatchObject({ emailConfirmed: false });
  });
});

describe("the reader's language", () => {
  it('words the bell when read, in the language of the request, with the link and no outbox bookkeeping', async () => {
    const me = await player(api);
    await announce(api.db, [{ ...matchReady(me.user.id, 'Vitalii'), params: { tournament: 'Kyiv Cup', opponent: 'Vitalii', time: '2030-05-01T16:00:00Z' } }]);
    const [english] = (await bell(me, 'en')).body;
    expect(english).toMatchObject({ kind: 'matchReady', link: '/matches/00000000-0000-4000-8000-000000000001' });
    expect(english!.text).toBe('Your match against Vitalii (“Kyiv Cup”) is ready. Starts: 1 May 2030 at 19:00 (Kyiv time).');
    expect(Object.keys(english!.payload)).toEqual([]);
    expect((await bell(me)).body[0]!.text).toBe('Ваш матч проти Vitalii («Kyiv Cup») готовий. Початок: 1 травня 2030 р. о 19:00 (за Києвом).');
  });

  it('is taken at registration and sign-in from the chosen language, and by PUT /users/me/locale', async () => {
    const localeOf = async (id: string) => (await api.db.select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]!.locale;
    const name = `reader_${Date.now()}`;
    const registered = await api.call('POST', '/api/auth/register', {
      body: { username: name, email: `${name}@example.test`, password: 'correct-horse-9' },
      headers: { cookie: 'lang=en' },
    });
    expect(registered.status).toBe(201);
    const [row] = await api.db.select().from(users).where(eq(users.username, name));
    expect(row!.locale).toBe('en');

    const me = await player(api);
    expect(await localeOf(me.user.id)).toBe('uk');
    await api.call('POST', '/api/auth/login', { body: { loginOrEmail: me.user.username, password: me.password }, headers: { cookie: 'lang=en' } });
    expect(await localeOf(me.user.id)).toBe('en');
    // A client that chose nothing does not undo the reader's choice.
    await api.call('POST', '/api/auth/login', { body: { loginOrEmail: me.user.username, password: me.password } });
    expect(await localeOf(me.user.id)).toBe('en');

    expect((await api.call('PUT', '/api/users/me/locale', { token: me.token, body: { locale: 'uk' } })).status).toBe(200);
    expect(await localeOf(me.user.id)).toBe('uk');
    expect((await api.call('PUT', '/api/users/me/locale', { token: me.token, body: { locale: 'de' } })).status).toBe(400);
    expect(await localeOf(me.user.id)).toBe('uk');
  });
});

describe('the outbox', () => {
  it('sends each letter exactly once when two senders run at once', async () => {
    const me = await player(api);
    const sent: string[] = [];
    const slow: Mailer = {
      send: async (letter) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        sent.push(letter.subject);
      },
    };
    await drain();
    await announce(
      api.db,
      Array.from({ length: 12 }, (_, i) => ({ ...matchReady(me.user.id, `Rival ${i}`) })),
    );
    const runs = await Promise.all([sendDueLetters(api.db, { mailer: slow, siteUrl: SITE }), sendDueLetters(api.db, { mailer: slow, siteUrl: SITE })]);
    expect(runs[0]!.sent + runs[1]!.sent).toBe(12);
    expect(new Set(sent).size).toBe(12);
    expect(sent).toHaveLength(12);
    const rows = await rowsOf(me.user.id, 'matchReady');
    expect(rows.every((r) => r.mailState === 'sent' && r.mailAttempts === 1)).toBe(true);
    expect(rows.every((r) => r.mailAfter === null)).toBe(true);
  });

  it('sends a burst of letters with a few statements, not three a letter', async () => {
    await drain();
    const me = await player(api);
    await announce(
      api.db,
      Array.from({ length: 25 }, (_, i) => matchReady(me.user.id, `Burst ${i}`)),
    );
    const { result, queries } = await api.queriesOf(() => drain());
    expect(result).toEqual({ sent: 25, failed: 0, retried: 0 });
    // Three claims of up to ten with their readers, and each claim's letters settled in one.
    expect(queries.length).toBeLessThanOrEqual(6);
    expect((await rowsOf(me.user.id, 'matchReady')).every((r) => r.mailState === 'sent' && r.mailAttempts === 1)).toBe(true);
  });

  it('gives back the letters of a claim not yet tried when half its lease has gone, untouched, and sends them on the next run', async () => {
    await drain();
    const me = await player(api);
    await announce(api.db, [matchReady(me.user.id, 'Slow 1'), matchReady(me.user.id, 'Slow 2'), matchReady(me.user.id, 'Slow 3')]);
    const sent: string[] = [];
    // A mail server that takes longer than half the lease over the first letter.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const slow: Mailer = {
        send: async (letter) => {
          sent.push(letter.text);
          vi.setSystemTime(Date.now() + MAIL_LEASE_MS / 2 + 1000);
        },
      };
      const run = await sendDueLetters(api.db, { mailer: slow, siteUrl: SITE });
      expect(run).toEqual({ sent: 1, failed: 0, retried: 0 });
    } finally {
      vi.useRealTimers();
    }
    const rows = await rowsOf(me.user.id, 'matchReady');
    expect(rows.filter((r) => r.mailState === 'sent')).toHaveLength(1);
    // The other two as if never claimed: due at once, no attempt counted.
    expect(rows.filter((r) => r.mailState === 'pending').map((r) => [r.mailAttempts, r.mailAfter])).toEqual([
      [0, null],
      [0, null],
    ]);
    const next = await drain();
    expect(next.sent).toBe(2);
    expect(sent).toHaveLength(1);
    expect(new Set([...sent, ...kept.slice(-2).map((l) => l.text)]).size).toBe(3);
  });

  it('tries a failing letter again after the backoff (30 s, then doubling), not the 2-minute lease, then marks it failed; the bell keeps the notice', async () => {
    await drain();
    const me = await player(api);
    await announce(api.db, [matchReady(me.user.id)]);
    const refusing: Mailer = {
      send: async () => {
        throw new Error('550 no');
      },
    };
    const run = (at: Date) => sendDueLetters(api.db, { mailer: refusing, siteUrl: SITE }, at);
    const mine = async () => (await rowsOf(me.user.id, 'matchReady'))[0]!;
    let now = new Date(Date.now() + 1000);
    for (let attempt = 1; attempt < MAIL_ATTEMPTS; attempt++) {
      await run(now);
      const wait = MAIL_RETRY_MS * 2 ** (attempt - 1);
      const row = await mine();
      expect(row).toMatchObject({ mailState: 'pending', mailAttempts: attempt });
      // The clock is the backoff counted from the failure (the send's own moment added), no longer the claim's lease.
      expect(row.mailAfter!.getTime() - now.getTime()).toBeGreaterThanOrEqual(wait);
      expect(row.mailAfter!.getTime() - now.getTime()).toBeLessThan(wait + 5000);
      // Not a moment before the wait is over.
      await run(new Date(now.getTime() + wait - 1000));
      expect((await mine()).mailAttempts).toBe(attempt);
      now = new Date(row.mailAfter!.getTime() + 1);
    }
    // The first retry came at about 30 s, well inside the lease.
    expect(MAIL_RETRY_MS + 5000).toBeLessThan(MAIL_LEASE_MS);
    await run(now);
    expect(await mine()).toMatchObject({ mailState: 'failed', mailAttempts: MAIL_ATTEMPTS, mailAfter: null });
    expect((await bell(me)).body.filter((n) => n.kind === 'matchReady')).toHaveLength(1);
  });

  it('is sent right after the request that announced it when the app kicks, and waits for a sender when it does not', async () => {
    await drain();
    kept.length = 0;
    const [kicked, waiting] = [await player(api), await player(api)];
    await finishedBy([kicked]);
    await lettersKicked(api.db);
    const finishLetters = (who: Player) => kept.filter((l) => l.to === who.user.email && l.subject.includes('завершено'));
    expect(finishLetters(kicked)).toHaveLength(1);
    expect((await rowsOf(kicked.user.id, 'tournamentFinished'))[0]).toMatchObject({ mailState: 'sent', mailAfter: null });

    // A test app's default: no send outlives the request.
    const quiet = await createTestApi({ database: api.database });
    try {
      const cup = await tournament(quiet, { soloOnly: true, approved: [waiting] });
      expect((await quiet.call('PUT', `/api/tournaments/${cup.id}`, { token: adminToken, body: { title: cup.title, date: cup.date, game: cup.game, status: 'finished' } })).status).toBe(200);
      await lettersKicked(api.db);
      expect((await rowsOf(waiting.user.id, 'tournamentFinished'))[0]!.mailState).toBe('pending');
      expect(quiet.outbox).toEqual([]);
    } finally {
      await quiet.close();
    }
    await drain();
    expect(finishLetters(waiting)).toHaveLength(1);
  });
});

/** An SMTP server on loopback whose letters are read back with mailparser. */
async function smtp(options: Partial<SMTPServerOptions> = {}) {
  const letters: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          letters.push(parsed);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { url: `smtp://127.0.0.1:${port}`, letters, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A server that takes the connection and never says a word. */
async function silentServer() {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const smtpMailer = (url: string) =>
  createMailer({
    smtpUrl: url,
    from: 'Кіберарена <arena@arena.test>',
    outboxDir: '/nonexistent',
    timeouts: { connectionMs: 1000, greetingMs: 400, socketMs: 800 },
  });

/** A finished solo tournament: the action whose notice the letters carry. */
async function finishedBy(players: Player[]) {
  const cup = await tournament(api, { soloOnly: true, approved: players });
  const finished = await api.call('PUT', `/api/tournaments/${cup.id}`, {
    token: adminToken,
    body: { title: cup.title, date: cup.date, game: cup.game, status: 'finished' },
  });
  return { cup, finished };
}

describe('letters through a real SMTP server', () => {
  afterAll(() => {
    mailer = { send: async (letter) => void kept.push(letter) };
  });

  it('arrive with the subject, language and link of the reader', async () => {
    const server = await smtp();
    try {
      await drain();
      mailer = smtpMailer(server.url);
      const [english, ukrainian] = [await player(api), await player(api)];
      await api.call('PUT', '/api/users/me/locale', { token: english.token, body: { locale: 'en' } });
      const { cup, finished } = await finishedBy([english, ukrainian]);
      expect(finished.status).toBe(200);
      await drain();
      const letterTo = (who: Player) =>
        server.letters.find((l) => l.to && !Array.isArray(l.to) && l.to.value[0]?.address === who.user.email && /finished|завершено/.test(l.subject ?? ''));
      const en = letterTo(english);
      expect(en?.subject).toBe(`“${cup.title}” has finished`);
      expect(en?.headers.get('content-language')).toBe('en');
      expect(en?.text).toContain('Your result: participant.');
      expect(en?.text).toContain(`${SITE}/tournaments/${cup.id}`);
      expect(en?.html).toContain(`href="${SITE}/tournaments/${cup.id}"`);
      const uk = letterTo(ukrainian);
      expect(uk?.subject).toBe(`Турнір «${cup.title}» завершено`);
      expect(uk?.headers.get('content-language')).toBe('uk');
      expect(uk?.text).toContain('Ваш результат: учасник.');
      expect((await rowsOf(english.user.id, 'tournamentFinished'))[0]!.mailState).toBe('sent');
    } finally {
      await server.close();
    }
  });

  it('carry a match’s letters through the mailer SMTP_URL makes, as the runtime makes it: the reader’s language and subject, and the match’s link', async () => {
    const server = await smtp();
    const dataDir = await mkdtemp(join(tmpdir(), 'arena-mail-'));
    try {
      await drain();
      mailer = mailerFromEnv(parseEnv({ SMTP_URL: server.url, DATA_DIR: dataDir }));
      const [english, ukrainian] = [await player(api), await player(api)];
      await api.call('PUT', '/api/users/me/locale', { token: english.token, body: { locale: 'en' } });
      const cup = await tournament(api, { soloOnly: true, approved: [english, ukrainian] });
      // Drawing the stage makes the final ready: both players are told, each in their language.
      const match = (await stage(api, cup.id, { format: 'single_elimination' })).matches[0]!;
      await drain();
      const link = `${SITE}/matches/${match._id}`;
      // The letters about the match (the approvals' letters came before them).
      const lettersTo = (who: Player) =>
        server.letters.filter((l) => l.to && !Array.isArray(l.to) && l.to.value[0]?.address === who.user.email && l.text?.includes(link));
      expect(lettersTo(english)).toHaveLength(1);
      const [en] = lettersTo(english);
      expect(en?.subject).toBe(`Your match against ${ukrainian.user.username} is ready`);
      expect(en?.headers.get('content-language')).toBe('en');
      expect(en?.text).toContain(`Your next match in the tournament “${cup.title}” is ready: your opponent is ${ukrainian.user.username}.`);
      expect(en?.text).toContain(link);
      expect(en?.html).toContain(`href="${link}"`);
      // The sender is MAIL_FROM's default, read by parseEnv.
      expect(en?.from?.value[0]?.address).toBe('no-reply@kiberarena.local');
      const [uk] = lettersTo(ukrainian);
      expect(uk?.subject).toBe(`Ваш матч проти ${english.user.username} готовий`);
      expect(uk?.headers.get('content-language')).toBe('uk');
      expect(uk?.text).toContain(link);

      // The Ukrainian reader reports the score: the English one is asked to confirm, by letter too.
      const side = match.a === ukrainian.user.id ? { scoreA: 1, scoreB: 0 } : { scoreA: 0, scoreB: 1 };
      expect((await api.call('POST', `/api/matches/${match._id}/report`, { token: ukrainian.token, body: side })).status).toBe(200);
      await drain();
      expect(lettersTo(english)).toHaveLength(2);
      const reported = lettersTo(english)[1];
      expect(reported?.subject).toBe(`${ukrainian.user.username} reported the score ${side.scoreA}:${side.scoreB}`);
      expect(reported?.headers.get('content-language')).toBe('en');
      expect((await rowsOf(english.user.id, 'scoreReported'))[0]!.mailState).toBe('sent');
      // With SMTP_URL set, nothing is written to the outbox folder instead.
      expect(existsSync(join(dataDir, 'outbox'))).toBe(false);
    } finally {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  for (const [name, start] of [
    ['refuses the recipient', () => smtp({ onRcptTo: (_address, _session, callback) => callback(new Error('550 mailbox unavailable')) })],
    ['hangs without a greeting', silentServer],
  ] as const) {
    it(`that ${name} neither fails the action nor loses the bell's notice; the letter waits for another try`, async () => {
      const server = await start();
      try {
        await drain();
        mailer = smtpMailer(server.url);
        const me = await player(api);
        const { finished } = await finishedBy([me]);
        expect(finished.status).toBe(200);
        expect((await bell(me)).body.filter((n) => n.kind === 'tournamentFinished')).toHaveLength(1);
        await drain();
        const [row] = await rowsOf(me.user.id, 'tournamentFinished');
        expect(row).toMatchObject({ mailState: 'pending', mailAttempts: 1 });
        // Due again after the backoff from the failure, not after the claim's lease.
        expect(row!.mailAfter!.getTime()).toBeLessThanOrEqual(Date.now() + MAIL_RETRY_MS);
        expect(row!.mailAfter!.getTime()).toBeGreaterThan(Date.now() + MAIL_RETRY_MS - 10_000);
      } finally {
        await server.close();
      }
    });
  }

  it('take a letter back from a sender stuck on a hanging server once its lease ends, and deliver it once', async () => {
    const [silent, server] = [await silentServer(), await smtp()];
    try {
      await drain();
      const me = await player(api);
      await announce(api.db, [matchReady(me.user.id)]);
      const now = new Date();
      // A sender whose timeouts outlast the test: as good as one that died holding the letter.
      const hanging = createMailer({ smtpUrl: silent.url, from: 'arena@arena.test', outboxDir: '/nonexistent', timeouts: { connectionMs: 60_000, greetingMs: 60_000, socketMs: 60_000 } });
      const stuck = sendDueLetters(api.db, { mailer: hanging, siteUrl: SITE }, now);
      await vi.waitFor(async () => expect((await rowsOf(me.user.id, 'matchReady'))[0]!.mailAttempts).toBe(1));
      const other = (at: number) => sendDueLetters(api.db, { mailer: smtpMailer(server.url), siteUrl: SITE }, new Date(now.getTime() + at));
      // While the lease holds, nobody else takes it.
      await other(MAIL_LEASE_MS - 1000);
      expect((await rowsOf(me.user.id, 'matchReady'))[0]).toMatchObject({ mailState: 'pending', mailAttempts: 1 });
      await other(MAIL_LEASE_MS + 1000);
      expect((await rowsOf(me.user.id, 'matchReady'))[0]).toMatchObject({ mailState: 'sent', mailAttempts: 2, mailAfter: null });
      // The stuck send fails at last; its claim is gone, so it changes nothing.
      await silent.close();
      await stuck;
      expect((await rowsOf(me.user.id, 'matchReady'))[0]).toMatchObject({ mailState: 'sent', mailAttempts: 2, mailAfter: null });
      expect(server.letters.filter((l) => l.to && !Array.isArray(l.to) && l.to.value[0]?.address === me.user.email)).toHaveLength(1);
    } finally {
      await silent.close();
      await server.close();
    }
  });
});

describe('the finish of a tournament', () => {
  it('is announced once, with each player their place, however many admins finish it at once', async () => {
    const [first, second] = [await player(api), await player(api)];
    const cup = await tournament(api, { soloOnly: true, approved: [first, second] });
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const final = created.matches.find((m) => m.a && m.b)!;
    const played = await api.call('PATCH', `/api/matches/${final._id}`, { token: adminToken, body: { version: final.version, scoreA: 2, scoreB: 0 } });
    expect(played.status).toBe(200);
    const winner = final.a === first.user.id ? first : second;
    const loser = winner === first ? second : first;
    const body = { title: cup.title, date: cup.date, game: cup.game, status: 'finished' };
    const answers = await Promise.all([1, 2, 3].map(() => api.call('PUT', `/api/tournaments/${cup.id}`, { token: adminToken, body })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    const [won] = await rowsOf(winner.user.id, 'tournamentFinished');
    const lost = await rowsOf(loser.user.id, 'tournamentFinished');
    expect(lost).toHaveLength(1);
    expect(won!.params).toEqual({ tournament: cup.title, place: '1' });
    expect(lost[0]!.params).toEqual({ tournament: cup.title, place: '2' });
    expect(won!.link).toBe(`/tournaments/${cup.id}`);
    expect((await bell(loser, 'en')).body.find((n) => n.kind === 'tournamentFinished')!.text).toBe(`“${cup.title}” has finished. Your result: place 2.`);
  });

  it('reaches every member of a participating team, its captain too', async () => {
    const captain = await player(api);
    const squad = await team(api, captain, 5);
    const cup = await tournament(api, { approved: [squad] });
    await api.call('PUT', `/api/tournaments/${cup.id}`, { token: adminToken, body: { title: cup.title, date: cup.date, game: cup.game, status: 'finished' } });
    for (const member of squad.members) expect(await rowsOf(member, 'tournamentFinished')).toHaveLength(1);
  });
});
