/**
 * Match-day notices (issue 22): per-kind settings, the reader's language, the letters' outbox
 * (exactly once across senders, retries, a real SMTP server on loopback that answers, refuses or
 * hangs), and the tournament's finish announced once with each participant's place.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, users } from '../../src/server/db/schema/index.ts';
import { createMailer, type Letter, type Mailer } from '../../src/server/mail/mailer.ts';
import { announce, lettersKicked, MAIL_ATTEMPTS, MAIL_LEASE_MS, sendDueLetters, type Notice } from '../../src/server/services/notices.ts';
import { admin as adminOf, player, stage, team, tournament, useTestApi, type Player } from '../support/builders.ts';

/** Where the app's letters go: kept here unless a test plugs in a real mailer. */
const kept: Letter[] = [];
let mailer: Mailer = { send: async (letter) => void kept.push(letter) };
const api = useTestApi({ mailer: { send: (letter) => mailer.send(letter) } });
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
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: [], email: [] });
    const saved = await api.call('PUT', '/api/users/me/notice-settings', {
      token: me.token,
      body: { email: ['matchReady', 'checkInOpen', 'matchReady'] },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.settings).toEqual({ bell: [], email: ['checkInOpen', 'matchReady'] });
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: [], email: ['checkInOpen', 'matchReady'] });
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
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: me.token })).body).toEqual({ bell: ['scoreReported'], email: [] });
  });

  it('decide where a notice goes: bell off keeps it out of the bell but sends the letter, email off sends none, both off stores nothing', async () => {
    const [bellOff, emailOff, bothOff] = [await player(api), await player(api), await player(api)];
    await api.call('PUT', '/api/users/me/notice-settings', { token: bellOff.token, body: { bell: ['matchReady'] } });
    await api.call('PUT', '/api/users/me/notice-settings', { token: emailOff.token, body: { email: ['matchReady'] } });
    await api.call('PUT', '/api/users/me/notice-settings', { token: bothOff.token, body: { bell: ['matchReady'], email: ['matchReady'] } });
    await announce(api.db, [matchReady(bellOff.user.id), matchReady(emailOff.user.id), matchReady(bothOff.user.id)]);

    expect((await bell(bellOff)).body.filter((n) => n.kind === 'matchReady')).toEqual([]);
    // Pending, or already sent by the kick after the request above.
    expect((await rowsOf(bellOff.user.id, 'matchReady')).map((r) => r.mailState !== null)).toEqual([true]);
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
  });
});

describe("the reader's language", () => {
  it('words the bell when read, in the language of the request, with the link and no outbox bookkeeping', async () => {
    const me = await player(api);
    await announce(api.db, [{ ...matchReady(me.user.id, 'Vitalii'), params: { tournament: 'Kyiv Cup', opponent: 'Vitalii', time: '2030-05-01T16:00:00Z' } }]);
    const [english] = (await bell(me, 'en')).body;
    expect(english).toMatchObject({ kind: 'matchReady', link: '/matches/00000000-0000-4000-8000-000000000001' });
    expect(english!.text).toBe('Your match against Vitalii (“Kyiv Cup”) is ready. Starts: 1 May 2030 at 19:00.');
    expect(Object.keys(english!.payload)).toEqual([]);
    expect((await bell(me)).body[0]!.text).toBe('Ваш матч проти Vitalii («Kyiv Cup») готовий. Початок: 1 травня 2030 р. о 19:00.');
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
    expect(rows.every((r) => r.payload.mailAfter === undefined)).toBe(true);
  });

  it('tries a failing letter again after a growing wait, then marks it failed; the bell keeps the notice', async () => {
    await drain();
    const me = await player(api);
    await announce(api.db, [matchReady(me.user.id)]);
    const refusing: Mailer = {
      send: async () => {
        throw new Error('550 no');
      },
    };
    let now = new Date(Date.now() + 1000);
    const run = (at: Date) => sendDueLetters(api.db, { mailer: refusing, siteUrl: SITE }, at);
    expect(await run(now)).toEqual({ sent: 0, failed: 0, retried: 1 });
    // Not before its wait is over.
    expect((await run(now)).retried).toBe(0);
    for (let attempt = 2; attempt <= MAIL_ATTEMPTS; attempt++) {
      now = new Date(now.getTime() + MAIL_LEASE_MS * 2 ** attempt);
      await run(now);
    }
    const [row] = await rowsOf(me.user.id, 'matchReady');
    expect(row).toMatchObject({ mailState: 'failed', mailAttempts: MAIL_ATTEMPTS });
    expect((await bell(me)).body.filter((n) => n.kind === 'matchReady')).toHaveLength(1);
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
        expect(row!.payload.mailAfter).toBeDefined();
      } finally {
        await server.close();
      }
    });
  }
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
