import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { BOT_TOKEN, startTelegramService, update, type TelegramStandIn } from '../support/telegram-service.ts';
import { type AppInstance, freePort, startInstance } from './app-instance.ts';
import { expect, freshPlayer, open, signIn, test } from './fixtures.ts';

/*
 * Issue 60: a player links Telegram from the cabinet. Playwright's own server has no bot, so the
 * cabinet shows no Telegram; a second instance of the same build runs with a bot aimed at a Bot
 * API stand-in on loopback, and the test plays Telegram: it posts the bot's update to the webhook.
 */

const SECRET = 'e2e-telegram-webhook-secret';
const OUT = process.env.TELEGRAM_SHOTS ?? '/tmp/pw-out-telegram';

test('without a bot the cabinet shows no Telegram controls nor column', async ({ page }) => {
  const { nick, password } = await freshPlayer(page, 'tg');
  await signIn(page, nick, password);
  const asked = page.waitForResponse((answer) => answer.url().endsWith('/api/telegram/link') && answer.request().method() === 'GET');
  await open(page, '/cabinet');
  const settings = await shown(page);
  expect(await (await asked).json()).toEqual({ enabled: false, bot: null, linked: null });
  await expect(settings.getByRole('columnheader', { name: 'Листом' })).toBeVisible();
  await expect(settings.getByRole('columnheader', { name: 'У Telegram' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Під’єднати Telegram' })).toHaveCount(0);
});

test.describe('with a bot', () => {
  test.describe.configure({ mode: 'serial' });
  let app: AppInstance;
  let bot: TelegramStandIn;
  let dataDir: string;
  const admin = { email: 'telegram-admin@e2e.test', password: 'telegram-admin-password' };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    bot = await startTelegramService();
    dataDir = mkdtempSync(join(tmpdir(), 'kiberarena-telegram-'));
    app = await startInstance(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      TELEGRAM_BOT_TOKEN: BOT_TOKEN,
      TELEGRAM_API_ROOT: bot.apiRoot,
      TELEGRAM_WEBHOOK_SECRET: SECRET,
      TELEGRAM_MODE: 'webhook',
    });
    // The bot asked who it is and registered its webhook with the secret.
    await expect
      .poll(() => bot.calls.find((c) => c.method === 'setWebhook')?.body)
      .toMatchObject({ url: `${app.url}/api/telegram/webhook`, secret_token: SECRET });
  });

  test.afterAll(async () => {
    await app?.stop();
    await bot?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function cabinet(page: Page, lang: 'uk' | 'en' = 'uk', theme: 'light' | 'dark' = 'light') {
    const login = await page.request.post(`${app.url}/api/auth/login`, { data: { loginOrEmail: admin.email, password: admin.password } });
    const { token } = (await login.json()) as { token: string };
    await page.context().addCookies([{ name: 'lang', value: lang, url: app.url }]);
    await page.addInitScript(
      ([value, look]) => {
        localStorage.setItem('token', value!);
        localStorage.setItem('theme', look!);
      },
      [token, theme],
    );
    await page.goto(`${app.url}/cabinet`);
    return { settings: await shown(page, lang === 'uk' ? 'Сповіщення' : 'Notifications'), token };
  }

  test('a player links Telegram from the cabinet, sees it linked, and turns a kind off for Telegram', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const { settings, token } = await cabinet(page);
    await expect(settings.getByRole('columnheader', { name: 'У Telegram' })).toHaveCount(0);
    await settings.getByRole('button', { name: 'Під’єднати Telegram' }).click();
    const link = settings.getByRole('link', { name: 'Відкрити Telegram' });
    await expect(link).toBeVisible();
    const url = new URL((await link.getAttribute('href'))!);
    expect(`${url.origin}${url.pathname}`).toBe('https://t.me/arena_test_bot');
    await page.screenshot({ path: `${OUT}/telegram-link-1280.png`, fullPage: true });

    // The player pressed Start in Telegram: Telegram posts the update to the webhook.
    const posted = await page.request.post(`${app.url}/api/telegram/webhook`, {
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      data: update(424242, `/start ${url.searchParams.get('start')}`, { username: 'e2e_player' }),
    });
    expect(posted.status()).toBe(200);
    await expect(settings.getByText('Під’єднано: @e2e_player')).toBeVisible({ timeout: 10_000 });
    expect(bot.sent().findLast((m) => m.chatId === '424242')?.text).toMatch(/^Готово: Telegram під’єднано/);

    const column = settings.getByRole('columnheader', { name: 'У Telegram' });
    await expect(column).toBeVisible();
    const box = settings.getByRole('checkbox', { name: 'Заявку схвалено: У Telegram' });
    await expect(box).toBeChecked();
    await box.uncheck();
    await expect(settings.getByText('Налаштування сповіщень збережено')).toBeVisible();
    const saved = await page.request.get(`${app.url}/api/users/me/notice-settings`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await saved.json()) as { telegram: string[] }).telegram).toEqual(['applicationApproved']);
    await page.screenshot({ path: `${OUT}/telegram-linked-1280.png`, fullPage: true });
  });

  test('the linked cabinet fits a phone, in both languages and themes', async ({ page }) => {
    for (const [lang, theme] of [
      ['uk', 'light'],
      ['en', 'dark'],
    ] as const) {
      await page.setViewportSize({ width: 360, height: 800 });
      const { settings } = await cabinet(page, lang, theme);
      await expect(settings.getByRole('columnheader', { name: lang === 'uk' ? 'У Telegram' : 'In Telegram' })).toBeVisible();
      await expect(settings.getByRole('button', { name: lang === 'uk' ? 'Від’єднати' : 'Disconnect' })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await settings.screenshot({ path: `${OUT}/telegram-360-${lang}-${theme}.png` });
    }
  });

  test('an organisation’s manager connects its channel where the bot is an admin, and is told in Ukrainian where it is not', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const login = await page.request.post(`${app.url}/api/auth/login`, { data: { loginOrEmail: admin.email, password: admin.password } });
    const { token } = (await login.json()) as { token: string };
    const made = await page.request.post(`${app.url}/api/organisations`, { headers: { authorization: `Bearer ${token}` }, data: { name: 'Ліга Telegram' } });
    expect(made.status()).toBe(201);
    const { organisation } = (await made.json()) as { organisation: { _id: string; slug: string } };
    const organisationId = organisation._id;
    bot.chat({ id: -1001000000042, username: 'liga_news', botStatus: 'administrator' });
    bot.chat({ id: -1001000000043, username: 'liga_chat', botStatus: 'member' });
    await page.addInitScript((value) => localStorage.setItem('token', value), token);
    await page.goto(`${app.url}/org/${organisation.slug}/manage`);
    const section = page.getByRole('region', { name: 'Канал Telegram' });
    await expect(section.getByText('@arena_test_bot')).toBeVisible();
    const field = section.getByLabel('Канал (@назва або id)');
    await field.fill('@liga_chat');
    await section.getByRole('button', { name: 'Зберегти канал' }).click();
    await expect(section.getByText(/^Бот не є адміністратором цього каналу/)).toBeVisible();
    await field.fill('@liga_news');
    await section.getByRole('button', { name: 'Зберегти канал' }).click();
    await expect(section.getByText('Під’єднано: -1001000000042')).toBeVisible();
    await expect(section.getByRole('heading', { name: 'Журнал доставки' })).toBeVisible();
    await expect(section.getByText('Ще нічого не надсилалося')).toBeVisible();

    // The organisation's new tournament is announced by the outbox's sweep, and its log says so.
    const auth = { authorization: `Bearer ${token}` };
    const added = await page.request.post(`${app.url}/api/games`, { headers: auth, data: { name: 'Ліга-гра' } });
    expect(added.status()).toBe(201);
    const { game } = (await added.json()) as { game: { _id: string } };
    const title = 'Кубок Ліги Telegram';
    const created = await page.request.post(`${app.url}/api/tournaments`, {
      headers: auth,
      data: { title, date: '2031-03-01T16:00:00Z', game: game._id, soloOnly: true, organisation: organisationId },
    });
    expect(created.status()).toBe(201);
    await expect.poll(() => bot.sent().some((m) => m.chatId === '-1001000000042' && m.text.includes(title)), { timeout: 15_000 }).toBe(true);
    await page.reload();
    const entry = section.getByRole('listitem').filter({ hasText: title });
    await expect(entry.getByText('Новий турнір')).toBeVisible();
    await expect(entry.getByText('Надіслано')).toBeVisible();
    await section.screenshot({ path: `${OUT}/telegram-channel-1280.png` });
    // On a phone the log's line wraps inside the section.
    await page.setViewportSize({ width: 360, height: 800 });
    await expect(entry).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await section.screenshot({ path: `${OUT}/telegram-channel-360.png` });
  });

  test('«Від’єднати» unlinks, and the Telegram column goes', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const { settings } = await cabinet(page);
    await settings.getByRole('button', { name: 'Від’єднати' }).click();
    await expect(settings.getByRole('button', { name: 'Під’єднати Telegram' })).toBeVisible();
    await expect(settings.getByRole('columnheader', { name: 'У Telegram' })).toHaveCount(0);
  });
});

/** The cabinet's notice settings, scrolled to until they hydrated (`client:visible`). */
async function shown(page: Page, name = 'Сповіщення') {
  const settings = page.getByRole('region', { name });
  await expect(async () => {
    await settings.scrollIntoViewIfNeeded();
    await expect(settings.getByRole('columnheader').first()).toBeVisible({ timeout: 1000 });
  }).toPass();
  return settings;
}
