/**
 * Telegram (issue 60, decision 043), the whole road against a Bot API stand-in on loopback
 * (tests/support/telegram-service.ts): a player links their chat by a one-time deep link, the bot's
 * updates come to the webhook only with its secret, notices go to the chat in the reader's language
 * with a button, as the reader's settings say; Telegram throttling, failing, slow or down delays a
 * message, never the action, and loses nothing; a chat that blocked the bot is unlinked; /next,
 * /checkin and /stop work; an organisation's channel is checked with Telegram and announced to
 * through the outbox; with no bot the feature is off.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentSaved } from '../../src/lib/api/tournaments.ts';
import {
  endpointDeliveries,
  notifications,
  organisationEndpoints,
  telegramDeliveries,
  telegramLinks,
  telegramLinkTokens,
  tournaments,
  users,
} from '../../src/server/db/schema/index.ts';
import { sendDueDeliveries } from '../../src/server/services/integrations/deliveries.ts';
import { sendDueTelegrams, TELEGRAM_RETRY_MS } from '../../src/server/services/telegram/notice-outbox.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { application, game, organisationWithPeople, player, stage, tournament, unique, type Player } from '../support/builders.ts';
import { BOT_TOKEN, startTelegramService, update, type TelegramStandIn } from '../support/telegram-service.ts';

const SECRET = 'test-webhook-secret-0123456789';
let standIn: TelegramStandIn;
let api: TestApi;
let chats = 700_000;

beforeAll(async () => {
  standIn = await startTelegramService();
  api = await createTestApi({ telegram: { apiRoot: standIn.apiRoot, token: BOT_TOKEN, timeoutSeconds: 1 } });
});

afterAll(async () => {
  await api?.close();
  await standIn?.close();
});

/** Posts an update to the webhook as Telegram does (with the secret unless told otherwise). */
const post = (body: unknown, secret: string | null = SECRET, on: TestApi = api) =>
  on.call<{ ok?: boolean; message?: string }>('POST', '/api/telegram/webhook', {
    body,
    headers: secret === null ? {} : { 'x-telegram-bot-api-secret-token': secret },
  });

/** The last message the bot sent to `chatId`. */
const lastTo = (chatId: number) => standIn.sent().findLast((m) => m.chatId === String(chatId));

/** A deep link's token, made by `who` in the cabinet's way. */
async function linkToken(who: Player): Promise<string> {
  const made = await api.call<{ url: string; expiresAt: string }>('POST', '/api/telegram/link', { token: who.token });
  expect(made.status).toBe(201);
  const url = new URL(made.body.url);
  expect(`${url.origin}${url.pathname}`).toBe('https://t.me/arena_test_bot');
  return url.searchParams.get('start')!;
}

/** A player linked to a new chat; their language is `locale`. */
async function linkedPlayer(locale: 'uk' | 'en' = 'uk') {
  const who = await player(api);
  await api.db.update(users).set({ locale }).where(eq(users.id, who.user.id));
  const chatId = ++chats;
  expect((await post(update(chatId, `/start ${await linkToken(who)}`, { username: `p${chatId}` }))).status).toBe(200);
  expect((await api.db.select().from(telegramLinks).where(eq(telegramLinks.userId, who.user.id))).length).toBe(1);
  return { who, chatId };
}

const waitingFor = async (userId: string) => api.db.select().from(telegramDeliveries).where(eq(telegramDeliveries.userId, userId));

describe('with no bot', () => {
  it('says so to the cabinet, answers 404 in Ukrainian elsewhere and shows no Telegram in an organisation’s integrations', async () => {
    const off = await createTestApi({ database: api.database });
    try {
      const who = await player(off);
      expect((await off.call('GET', '/api/telegram/link', { token: who.token })).body).toEqual({ enabled: false, bot: null, linked: null });
      for (const [method, path] of [
        ['POST', '/api/telegram/link'],
        ['DELETE', '/api/telegram/link'],
      ] as const) {
        const res = await off.call(method, path, { token: who.token });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toEqual({ message: 'Telegram на цьому сайті не підключено' });
      }
      expect((await post(update(1, '/start'), SECRET, off)).status).toBe(404);
      const org = await organisationWithPeople(off);
      const read = await off.call('GET', `/api/organisations/${org.id}/integrations`, { token: org.owner.token });
      expect(read.status).toBe(200);
      expect(read.body).not.toHaveProperty('telegram');
      expect((await off.call('PUT', `/api/organisations/${org.id}/telegram`, { token: org.owner.token, body: { chat: '@arena_news' } })).status).toBe(404);
    } finally {
      await off.close();
    }
  });
});

describe('the webhook', () => {
  it('refuses an update without Telegram’s secret header, and a malformed one, in Ukrainian', async () => {
    const before = standIn.calls.length;
    for (const secret of [null, '', 'wrong-secret', `${SECRET}x`]) {
      const res = await post(update(42, '/start'), secret);
      expect(res.status, String(secret)).toBe(401);
      expect(res.body).toEqual({ message: 'Неправильний секретний токен Telegram' });
    }
    for (const body of [[], { update_id: 'x' }, 'text', null]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Оновлення Telegram має бути JSON-об’єктом із числовим update_id');
    }
    // Nothing was answered to the forged or broken updates.
    expect(standIn.calls.length).toBe(before);
    const good = await post(update(42, '/start'));
    expect(good.status).toBe(200);
    expect(lastTo(42)?.text).toMatch(/^Я бот Кіберарени/);
  });
});

describe('linking', () => {
  it('links the chat that sends /start with the token, shows it in the cabinet, and unlinks from the cabinet', async () => {
    const who = await player(api);
    expect((await api.call('GET', '/api/telegram/link', { token: who.token })).body).toEqual({ enabled: true, bot: 'arena_test_bot', linked: null });
    const token = await linkToken(who);
    expect(
      await api.db.select({ hash: telegramLinkTokens.tokenHash }).from(telegramLinkTokens).where(eq(telegramLinkTokens.userId, who.user.id)),
    ).not.toContainEqual({ hash: token });
    expect((await post(update(801, `/start ${token}`, { username: 'olena_ua' }))).status).toBe(200);
    expect(lastTo(801)?.text).toBe(
      `Готово: Telegram під’єднано до акаунта ${who.user.username}. Сповіщення надходитимуть сюди; які саме — обирайте в кабінеті.`,
    );
    const shown = await api.call<{ linked: { username: string } }>('GET', '/api/telegram/link', { token: who.token });
    expect(shown.body.linked.username).toBe('@olena_ua');
    const removed = await api.call('DELETE', '/api/telegram/link', { token: who.token });
    expect(removed.body).toEqual({ message: 'Telegram від’єднано' });
    const again = await api.call('DELETE', '/api/telegram/link', { token: who.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: 'Telegram не під’єднано до вашого акаунта' });
    expect((await api.call('POST', '/api/telegram/link')).status).toBe(401);
  });

  it('refuses a used, expired, replaced or unknown token, linking nothing', async () => {
    const who = await player(api);
    const first = await linkToken(who);
    const second = await linkToken(who);
    const badToken = 'Це посилання не діє: воно застаріло, уже використане або неправильне. Візьміть нове в кабінеті на сайті.';
    for (const token of [first, 'x'.repeat(40), 'короткий', `${second}!`]) {
      await post(update(802, `/start ${token}`));
      expect(lastTo(802)?.text).toBe(badToken);
    }
    expect(await api.db.select().from(telegramLinks).where(eq(telegramLinks.chatId, 802))).toEqual([]);
    // Used once, then no more, even from another chat.
    await post(update(803, `/start ${second}`));
    expect(lastTo(803)?.text).toMatch(/^Готово/);
    await post(update(804, `/start ${second}`));
    expect(lastTo(804)?.text).toBe(badToken);
    // Fifteen minutes and it is gone.
    const late = await player(api);
    const stale = await linkToken(late);
    await api.db
      .update(telegramLinkTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(telegramLinkTokens.userId, late.user.id));
    await post(update(805, `/start ${stale}`));
    expect(lastTo(805)?.text).toBe(badToken);
    expect(await api.db.select().from(telegramLinks).where(eq(telegramLinks.userId, late.user.id))).toEqual([]);
  });

  it('refuses a Telegram already linked to another account', async () => {
    const { chatId } = await linkedPlayer();
    const other = await player(api);
    await post(update(chatId, `/start ${await linkToken(other)}`));
    expect(lastTo(chatId)?.text).toBe('Цей Telegram уже під’єднано до іншого акаунта. Спершу від’єднайте його там (/stop).');
    expect(await api.db.select().from(telegramLinks).where(eq(telegramLinks.userId, other.user.id))).toEqual([]);
  });
});

describe('notices in Telegram', () => {
  it('sends a notice in the reader’s language with a button to its page', async () => {
    const { who, chatId } = await linkedPlayer('en');
    const cup = await tournament(api, { soloOnly: true, title: 'Kyiv Open' });
    await application(api, cup.id, 'approved', who);
    expect(await waitingFor(who.user.id)).toHaveLength(1);
    expect((await sendDueTelegrams(api.db, api.telegram!)).sent).toBeGreaterThanOrEqual(1);
    const message = lastTo(chatId)!;
    expect(message.text).toContain('Kyiv Open');
    expect(message.text).not.toMatch(/\p{Script=Cyrillic}/u);
    expect(message.buttons).toEqual([{ text: 'Open the tournament', url: `https://arena.test/tournaments/${cup.id}` }]);
    expect(await waitingFor(who.user.id)).toEqual([]);
  });

  it('respects the reader’s settings per channel: a kind off for Telegram queues nothing, the bell keeps it', async () => {
    const { who } = await linkedPlayer();
    const saved = await api.call('PUT', '/api/users/me/notice-settings', { token: who.token, body: { telegram: ['applicationApproved'] } });
    expect(saved.status).toBe(200);
    const view = await api.call<{ telegram: string[] }>('GET', '/api/users/me/notice-settings', { token: who.token });
    expect(view.body.telegram).toEqual(['applicationApproved']);
    const cup = await tournament(api, { soloOnly: true });
    await application(api, cup.id, 'approved', who);
    expect(await waitingFor(who.user.id)).toEqual([]);
    expect((await api.db.select().from(notifications).where(eq(notifications.userId, who.user.id))).length).toBe(1);
  });

  it('waits out a 429’s retry_after, retries a 5xx and a timeout, and loses nothing', async () => {
    const { who, chatId } = await linkedPlayer();
    const cup = await tournament(api, { soloOnly: true });
    await application(api, cup.id, 'approved', who);
    const now = new Date();
    standIn.answer({ error_code: 429, description: 'Too Many Requests: retry after 40', retry_after: 40 });
    expect(await sendDueTelegrams(api.db, api.telegram!, now)).toMatchObject({ sent: 0, retried: 1 });
    const [row] = await waitingFor(who.user.id);
    expect(row!.after!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 40_000);
    expect((await sendDueTelegrams(api.db, api.telegram!, new Date(now.getTime() + 39_000))).sent).toBe(0);
    standIn.answer({ error_code: 502, description: 'Bad Gateway' }, 'hang');
    expect(await sendDueTelegrams(api.db, api.telegram!, new Date(now.getTime() + 41_000))).toMatchObject({ sent: 0, retried: 1 });
    // The 5xx's wait (30 s after a second try) has passed: now Telegram does not answer at all.
    expect(await sendDueTelegrams(api.db, api.telegram!, new Date(now.getTime() + 41_000 + 3 * TELEGRAM_RETRY_MS))).toMatchObject({ sent: 0, retried: 1 });
    const before = standIn.sent().filter((m) => m.chatId === String(chatId)).length;
    expect(await sendDueTelegrams(api.db, api.telegram!, new Date(now.getTime() + 41_000 + 10 * TELEGRAM_RETRY_MS))).toMatchObject({ sent: 1 });
    expect(standIn.sent().filter((m) => m.chatId === String(chatId)).length).toBe(before + 1);
    expect(await waitingFor(who.user.id)).toEqual([]);
  });

  it('unlinks a reader who blocked the bot and sends them nothing more', async () => {
    const { who } = await linkedPlayer();
    const cup = await tournament(api, { soloOnly: true });
    await application(api, cup.id, 'approved', who);
    standIn.answer({ error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    expect((await sendDueTelegrams(api.db, api.telegram!)).unlinked).toBe(1);
    expect(await api.db.select().from(telegramLinks).where(eq(telegramLinks.userId, who.user.id))).toEqual([]);
    const next = await tournament(api, { soloOnly: true });
    await application(api, next.id, 'approved', who);
    expect(await waitingFor(who.user.id)).toEqual([]);
  });

  it('lets the action through at once while Telegram is down, and sends the notice once it is back', async () => {
    const kicking = await createTestApi({
      database: api.database,
      telegram: { apiRoot: standIn.apiRoot, token: BOT_TOKEN, timeoutSeconds: 1 },
      telegramKick: true,
    });
    try {
      const { who, chatId } = await linkedPlayer();
      const cup = await tournament(kicking, { soloOnly: true, title: unique('Кубок ') });
      standIn.down();
      const started = Date.now();
      await application(kicking, cup.id, 'approved', who);
      expect(Date.now() - started).toBeLessThan(1000);
      await kicking.close();
      expect(await waitingFor(who.user.id)).toHaveLength(1);
      standIn.up();
      expect((await sendDueTelegrams(api.db, api.telegram!, new Date(Date.now() + 10 * TELEGRAM_RETRY_MS))).sent).toBeGreaterThanOrEqual(1);
      expect(await waitingFor(who.user.id)).toEqual([]);
      expect(lastTo(chatId)?.text).toContain(cup.title);
    } finally {
      standIn.up();
      await kicking.close().catch(() => {});
    }
  });
});

describe('commands', () => {
  it('/next tells the next match with its time, opponent and a button; /checkin checks in; /stop unlinks', async () => {
    const gameId = await game(api);
    const { who, chatId } = await linkedPlayer();
    const rival = await player(api);
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: [who, rival], date: soon, title: 'Кубок Telegram' });
    await post(update(chatId, '/checkin'));
    expect(lastTo(chatId)?.text).toBe('Зараз немає відкритої реєстрації присутності.');
    await api.db.update(tournaments).set({ checkInEnabled: true }).where(eq(tournaments.id, cup.id));
    await post(update(chatId, '/checkin'));
    expect(lastTo(chatId)?.text).toBe('Присутність підтверджено:\n• турнір «Кубок Telegram»');
    await post(update(chatId, '/checkin'));
    expect(lastTo(chatId)?.text).toBe('Присутність уже підтверджено:\n• турнір «Кубок Telegram»');

    await post(update(chatId, '/next'));
    expect(lastTo(chatId)?.text).toBe('Найближчих матчів немає.');
    expect((await api.call('POST', `/api/tournaments/${cup.id}/check-in`, { token: rival.token })).status).toBe(200);
    await stage(api, cup.id, { format: 'single_elimination' });
    await post(update(chatId, '/next'));
    const next = lastTo(chatId)!;
    expect(next.text).toMatch(/^Наступний матч — Кубок Telegram, раунд 1\nЧас: .+\nСуперник: /);
    expect(next.text).toContain(rival.user.username);
    expect(next.buttons[0]).toMatchObject({ text: 'Відкрити матч' });
    expect(next.buttons[0]!.url).toMatch(/^https:\/\/arena\.test\/matches\/[0-9a-f-]{36}$/);

    await post(update(chatId, '/щось'));
    expect(lastTo(chatId)?.text).toMatch(/^Я бот Кіберарени/);
    await post(update(chatId, '/stop'));
    expect(lastTo(chatId)?.text).toBe('Telegram від’єднано: сповіщення сюди більше не надходитимуть.');
    expect(await api.db.select().from(telegramLinks).where(eq(telegramLinks.userId, who.user.id))).toEqual([]);
    await post(update(chatId, '/next'));
    expect(lastTo(chatId)?.text).toBe('Telegram ще не під’єднано до акаунта. Натисніть «Під’єднати Telegram» у кабінеті на сайті.');
  });

  it('answers in the linked user’s language', async () => {
    const { chatId } = await linkedPlayer('en');
    await post(update(chatId, '/next'));
    expect(lastTo(chatId)?.text).toBe('You have no upcoming matches.');
    await post(update(chatId, 'hello'));
    expect(lastTo(chatId)?.text).toMatch(/^I am the Kiberarena bot/);
  });
});

describe('an organisation’s channel', () => {
  it('is saved only where the bot may post, and announces new tournaments through the outbox', async () => {
    const org = await organisationWithPeople(api, 'Канал ');
    const put = (chat: unknown, token = org.owner.token) =>
      api.call<{ message: string }>('PUT', `/api/organisations/${org.id}/telegram`, { token, body: { chat } });
    standIn.chat({ id: -1001000000001, username: 'arena_member', botStatus: 'member' });
    standIn.chat({ id: -1001000000002, username: 'arena_reader', botStatus: 'administrator', canPost: false });
    standIn.chat({ id: -1001000000003, username: 'arena_news', botStatus: 'administrator' });
    for (const [chat, status, message] of [
      ['', 400, /^Канал вказують як @назва/],
      ['arena news', 400, /^Канал вказують як @назва/],
      [12, 400, /./],
      ['@nobody_here', 422, /^Telegram не знайшов такого каналу/],
      ['@arena_member', 422, /^Бот не є адміністратором цього каналу/],
      ['@arena_reader', 422, /^Бот не є адміністратором цього каналу/],
    ] as const) {
      const res = await put(chat);
      expect(res.status, String(chat)).toBe(status);
      expect(res.body.message).toMatch(message);
    }
    expect((await put('@arena_news', org.staff.token)).status).toBe(403);
    expect(await api.db.select().from(organisationEndpoints).where(eq(organisationEndpoints.organisationId, org.id))).toEqual([]);
    const saved = await put('@arena_news');
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      message: 'Канал Telegram збережено: нові турніри й чемпіони з’являтимуться там',
      telegram: { bot: 'arena_test_bot', channel: { chat: '-1001000000003', broken: false } },
    });
    const read = await api.call('GET', `/api/organisations/${org.id}/integrations`, { token: org.admin.token });
    expect(read.body).toMatchObject({ telegram: { channel: { chat: '-1001000000003' } } });

    const made = await api.call<TournamentSaved>('POST', '/api/tournaments', {
      token: org.owner.token,
      body: { title: unique('Кубок каналу '), date: '2031-03-01T16:00:00Z', game: await game(api), soloOnly: true, organisation: org.id },
    });
    expect(made.status).toBe(201);
    const run = await sendDueDeliveries(api.db, { siteUrl: 'https://kiberarena.test', discordApi: 'http://127.0.0.1:9', telegram: api.telegram! });
    expect(run.sent).toBeGreaterThanOrEqual(1);
    const posted = lastTo(-1001000000003)!;
    expect(posted.text).toContain(made.body.tournament.title);
    expect(posted.buttons).toEqual([{ text: 'До турніру', url: `https://kiberarena.test/tournaments/${made.body.tournament._id}` }]);
    const [delivery] = await api.db
      .select()
      .from(endpointDeliveries)
      .innerJoin(organisationEndpoints, eq(organisationEndpoints.id, endpointDeliveries.endpointId))
      .where(eq(organisationEndpoints.organisationId, org.id));
    expect(delivery!.endpoint_deliveries.state).toBe('sent');

    // Its managers see the announcement in the channel's log, as Discord's.
    const logged = await api.call<{ telegram: { channel: { log: unknown[] } } }>('GET', `/api/organisations/${org.id}/integrations`, {
      token: org.admin.token,
    });
    expect(logged.body.telegram.channel.log).toEqual([
      expect.objectContaining({ event: 'tournament.created', tournament: made.body.tournament.title, state: 'sent', attempts: 1, lastStatus: 200 }),
    ]);
    // Saving the same channel again keeps its log; another channel starts a log of its own, and
    // what was still waiting for the old one is not posted to it.
    const again = await put('@arena_news');
    expect(again.body).toMatchObject({ telegram: { channel: { log: [{ state: 'sent' }] } } });
    const waiting = await api.call<TournamentSaved>('POST', '/api/tournaments', {
      token: org.owner.token,
      body: { title: unique('Кубок без каналу '), date: '2031-03-02T16:00:00Z', game: await game(api), soloOnly: true, organisation: org.id },
    });
    expect(waiting.status).toBe(201);
    standIn.chat({ id: -1001000000004, username: 'arena_news_two', botStatus: 'administrator' });
    const moved = await put('@arena_news_two');
    expect(moved.body).toMatchObject({ telegram: { channel: { chat: '-1001000000004', log: [] } } });
    await sendDueDeliveries(api.db, { siteUrl: 'https://kiberarena.test', discordApi: 'http://127.0.0.1:9', telegram: api.telegram! });
    expect(standIn.sent().filter((m) => m.text.includes(waiting.body.tournament.title))).toEqual([]);

    const removed = await api.call('DELETE', `/api/organisations/${org.id}/telegram`, { token: org.owner.token });
    expect(removed.status).toBe(200);
    expect((await api.call('DELETE', `/api/organisations/${org.id}/telegram`, { token: org.owner.token })).status).toBe(404);
  });
});
