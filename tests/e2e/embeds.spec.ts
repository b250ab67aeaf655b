import http from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import sharp from 'sharp';
import type { StagesState, StageView } from '../../src/lib/api/stages.ts';
import { bearer, DEMO_PLAYER, expect, hydrated, signIn, test } from './fixtures.ts';

/*
 * Embeds and share cards (issue 23) in the browser: a page of another origin frames a tournament's
 * embed, which draws the bracket and follows a result the admin enters, with nothing of a session;
 * that page cannot frame any other page of the site. The tournament page names its share card for
 * link previews and offers the embed's code.
 */

let outside: http.Server;
let outsideOrigin: string;

/** A page of another origin that frames `src` (an address on the site), as someone else's site would. */
const framing = (src: string) => `${outsideOrigin}/?src=${encodeURIComponent(src)}`;

test.beforeAll(async () => {
  outside = http.createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://outside.test').searchParams.get('src') ?? '';
    const attribute = src.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="uk"><meta charset="utf-8"><title>Сайт клубу</title><h1>Сайт клубу</h1><iframe src="${attribute}" title="Вбудована сітка" width="100%" height="600"></iframe></html>`);
  });
  await new Promise<void>((done) => outside.listen(0, '127.0.0.1', done));
  outsideOrigin = `http://127.0.0.1:${(outside.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((done) => outside.close(done));
});

/** The framed page of `page` (its one iframe), once it has loaded. */
async function framed(page: Page) {
  await page.locator('iframe').waitFor();
  const frame = await (await page.locator('iframe').elementHandle())!.contentFrame();
  await frame!.waitForLoadState();
  return frame!;
}

test('another site frames a tournament’s embed: the bracket shows, follows a result the admin enters, and nothing of a session is sent', async ({ page, tournament, baseURL }) => {
  const { id, title, admin } = await tournament(['Stepan_Clutch', 'ZaporizhRush', 'SaloSlayer', 'LvivLion']);
  // The reader is signed in on the site: the embed must neither send nor read that session.
  await signIn(page, DEMO_PLAYER);
  await page.addInitScript(() => {
    const storage = Object.getOwnPropertyDescriptor(window, 'localStorage') ?? Object.getOwnPropertyDescriptor(Window.prototype, 'localStorage');
    const w = window as unknown as { storageReads: number };
    w.storageReads = 0;
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get() {
        w.storageReads++;
        return storage!.get!.call(window);
      },
    });
  });
  const sent: Request[] = [];
  page.on('request', (request) => sent.push(request));
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/tournaments/${id}/events`) && r.status() === 200);

  await page.goto(framing(`${baseURL}/embed/tournaments/${id}`));
  const frame = await framed(page);
  expect(new URL(frame.url()).pathname).toBe(`/embed/tournaments/${id}`);
  await expect(frame.getByRole('heading', { name: title })).toBeVisible();
  await expect(frame.getByRole('region', { name: 'Сітка: раунди зліва направо' })).toBeVisible();
  await expect(frame.getByText('Зіграно матчів: 0 з 3')).toBeVisible();
  // Chrome-less: no side navigation or bell, one way back to the site, opening a new tab.
  await expect(frame.getByRole('navigation')).toHaveCount(0);
  await expect(frame.getByRole('button', { name: /Сповіщення/ })).toHaveCount(0);
  const back = frame.getByRole('link', { name: /Кіберарена/ });
  await expect(back).toHaveAttribute('href', `${baseURL}/tournaments/${id}`);
  await expect(back).toHaveAttribute('target', '_blank');
  await stream;
  await frame.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  // The admin enters a result; the framed bracket follows without a reload.
  const stages = (await (await page.request.get(`/api/tournaments/${id}/stages`)).json()) as StagesState;
  const match = stages.stages[0]!.matches.find((m) => m.status === 'ready')!;
  const saved = await page.request.patch(`/api/matches/${match._id}`, { headers: bearer(admin), data: { version: match.version, scoreA: 2, scoreB: 0 } });
  expect(saved.status()).toBe(200);
  await expect(frame.getByText('Зіграно матчів: 1 з 3')).toBeVisible();
  expect(await frame.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  // Nothing of the session: no request carried a token, none asked for the user's data or stream,
  // and no script of the embed read the storage where the token lives.
  const framedRequests = sent.filter((r) => r.frame() === frame);
  expect(framedRequests.length).toBeGreaterThan(3);
  const withToken: string[] = [];
  for (const request of sent) if ((await request.allHeaders()).authorization) withToken.push(request.url());
  expect(withToken).toEqual([]);
  expect(sent.map((r) => new URL(r.url()).pathname).filter((path) => path.startsWith('/api/users/'))).toEqual([]);
  expect(await frame.evaluate(() => (window as unknown as { storageReads: number }).storageReads)).toBe(0);
});

test('another site cannot frame any other page of the site', async ({ page, tournament, baseURL }) => {
  const { id } = await tournament(['OdesaWave', 'KharkivHawk']);
  const stages = (await (await page.request.get(`/api/tournaments/${id}/stages`)).json()) as StagesState;
  for (const path of [`/tournaments/${id}`, `/tournament/${id}/bracket`, `/matches/${stages.stages[0]!.matches[0]!._id}`, '/']) {
    const refused = page.waitForEvent('console', (message) => /frame-ancestors|X-Frame-Options/i.test(message.text()));
    await page.goto(framing(`${baseURL}${path}`));
    await refused;
    await expect(page.getByRole('heading', { name: 'Сайт клубу' })).toBeVisible();
    // The browser shows its own error page in the frame, never the site's.
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame?.url() ?? '', path).not.toContain(new URL(baseURL!).host);
  }
});

test('a match’s embed, framed in English and the light theme: both sides, the score, the status', async ({ page, tournament, baseURL }) => {
  const { id, admin } = await tournament(['Lesya_Support', 'Vyshyvanka_OP']);
  const stages = (await (await page.request.get(`/api/tournaments/${id}/stages`)).json()) as StagesState;
  const match = stages.stages[0]!.matches[0]!;
  expect((await page.request.patch(`/api/matches/${match._id}`, { headers: bearer(admin), data: { version: match.version, scoreA: 1, scoreB: 2 } })).status()).toBe(200);
  await page.goto(framing(`${baseURL}/embed/matches/${match._id}?lang=en&theme=light`));
  const frame = await framed(page);
  await expect(frame.getByRole('heading', { name: 'Lesya_Support vs Vyshyvanka_OP' })).toBeVisible();
  await expect(frame.getByText('Completed', { exact: true })).toBeVisible();
  expect(await frame.evaluate(() => [document.documentElement.lang, document.body.dataset.theme])).toEqual(['en', 'light']);
  const card = frame.getByRole('article', { name: 'Stage 1, Round 1, M1' });
  await expect(card.getByRole('listitem').filter({ hasText: 'Lesya_Support' })).toHaveText(/Lesya_Support\s*1$/);
  await expect(card.getByRole('listitem').filter({ hasText: 'Vyshyvanka_OP' })).toHaveText(/Vyshyvanka_OP.*2$/);
});

test('a free-for-all lobby’s embed, framed in English: its table and points, following a game the admin enters', async ({ page, request, tournament, baseURL }) => {
  // Eight demo players in seed order: lobby 1 takes seeds 1, 4, 5, 8 (a snake), as in lobby-page.spec.ts.
  const eight = ['Kharkiv_Hunter', 'SlobodaSniper', 'Lozova_Lynx', 'Izium_Ice', 'Chuhuiv_Chief', 'Polissia_Owl', 'Zhytomyr_Zen', 'Korosten_Kid'];
  const lobbyOne = [eight[0]!, eight[3]!, eight[4]!, eight[7]!];
  const cup = await tournament(eight, { draw: false });
  const made = await request.post(`/api/tournaments/${cup.id}/stages`, {
    headers: bearer(cup.admin),
    data: { format: 'free_for_all', name: 'Lobbies', seeding: 'order', settings: { lobbySize: 4, games: 2, advance: 2, points: { placement: [10, 6, 5, 4], kill: 1 } } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const lobby = ((await made.json()) as { stage: StageView }).stage.lobbies.find((l) => l.round === 1 && l.number === 1)!;
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/tournaments/${cup.id}/events`) && r.status() === 200);

  await page.goto(framing(`${baseURL}/embed/matches/${lobby._id}?lang=en&theme=light`));
  const frame = await framed(page);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Lobby 1 · Round 1');
  expect(await frame.title()).toBe(`Lobby 1 · Round 1 — ${cup.title} — Kiberarena`);
  await expect(frame.getByText('Lobbies · Free-for-all lobbies')).toBeVisible();
  const table = frame.getByRole('region', { name: 'Lobby table' });
  await expect(table.getByText('Games played: 0 of 2')).toBeVisible();
  await expect(table.getByRole('rowheader')).toHaveText(lobbyOne);
  await expect(frame.getByText('Points by placement: 10, 6, 5, 4 (lower places 0); per kill: 1')).toBeVisible();
  await expect(frame.getByRole('link', { name: /Kiberarena/ })).toHaveAttribute('href', `${baseURL}/matches/${lobby._id}`);
  expect(await frame.evaluate(() => [document.documentElement.lang, document.body.dataset.theme])).toEqual(['en', 'light']);
  await stream;

  // Game 1 in seed order, the winner with 3 kills, everyone else 1: the framed table follows without a reload.
  const entered = await request.put(`/api/matches/${lobby._id}/games/1`, {
    headers: bearer(cup.admin),
    data: { lines: lobby.members.map((participant, i) => ({ participant, placement: i + 1, kills: i === 0 ? 3 : 1 })) },
  });
  expect(entered.status(), await entered.text()).toBe(200);
  await expect(table.getByText('Games played: 1 of 2')).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: eight[0]! }).getByRole('cell').last()).toHaveText('13');
});

for (const theme of ['dark', 'light'] as const) {
  test(`the embeds pass axe in the ${theme} theme and run with no console error`, async ({ page, tournament }) => {
    const { id } = await tournament(['Chernihiv_Ghost', 'BorschtBoss']);
    const stages = (await (await page.request.get(`/api/tournaments/${id}/stages`)).json()) as StagesState;
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    for (const path of [`/embed/tournaments/${id}?theme=${theme}`, `/embed/matches/${stages.stages[0]!.matches[0]!._id}?theme=${theme}&lang=en`]) {
      await page.goto(path);
      await hydrated(page);
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(
        result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id),
        path,
      ).toEqual([]);
    }
    expect(errors).toEqual([]);
  });
}

test('the tournament page names its share card for link previews and offers the embed’s code to copy', async ({ page, context, tournament, baseURL }) => {
  const { id, title } = await tournament(['PoltavaPro', 'Mavka_Mid']);
  await page.goto(`/tournaments/${id}`);
  const meta = (name: string) => page.locator(`meta[property="${name}"], meta[name="${name}"]`).getAttribute('content');
  const image = (await meta('og:image'))!;
  expect(image).toMatch(new RegExp(`^${baseURL}/api/og/tournament/${id}\\.png\\?lang=uk&v=\\w+$`));
  expect([await meta('og:image:width'), await meta('og:image:height'), await meta('twitter:card')]).toEqual(['1200', '630', 'summary_large_image']);
  const picture = await page.request.get(image);
  expect(picture.headers()['content-type']).toBe('image/png');
  const size = await sharp(await picture.body()).metadata();
  expect([size.width, size.height]).toEqual([1200, 630]);

  // The code, readable without JavaScript, and the copy button once it can work.
  const code = page.getByRole('textbox', { name: 'Код для вставлення' });
  await expect(code).toHaveValue(`<iframe src="${baseURL}/embed/tournaments/${id}?lang=uk" title="Сітка турніру «${title}»" width="100%" height="600" style="border:0" loading="lazy"></iframe>`);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await page.getByRole('button', { name: 'Копіювати код' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Код скопійовано' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await code.inputValue());
});
