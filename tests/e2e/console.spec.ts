import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page, Request, Response } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bellLoaded, DEMO_PASSWORD, everyPage, expect, hydrated, test, tokenOf, useToken } from './fixtures.ts';

// Every page, as each kind of visitor, must open without a console error or warning, an uncaught
// error, or a failed request (4xx/5xx or no answer) that the page did not mean to make.

/** The demo team's captain. */
const CAPTAIN = 'Kyiv_Cyborg';
/** Demo players in no team, in order of preference (team.spec.ts has Sich_Raider join a team for a while). */
const FREE_AGENTS = ['Ternopil_Tiger', 'Sich_Raider'];

/**
 * Answers ≥ 400 a page asks for on purpose, by page path: the refusal is the designed answer
 * there. Each entry says why. Empty: no page expects one today.
 */
const EXPECTED_REFUSALS: { page: RegExp; request: RegExp; status: number; why: string }[] = [];

/** The live event streams' addresses: the tournament's and the signed-in reader's. */
const LIVE_STREAM = /\/api\/(tournaments\/[^/]+|users\/me)\/events$/;

/** How long the network must stay quiet for a page to count as settled (Playwright's own networkidle). */
const QUIET_MS = 500;

/** What went wrong on the pages, as readable lines; and a wait for the page's own requests to settle. */
function watch(page: Page) {
  const problems: string[] = [];
  const inFlight = new Set<Request>();
  const startedAt = new Map<Request, number>();
  let where = '';
  let lastNavigation = 0;
  let lastActivity = Date.now();
  const short = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  const done = (request: Request) => {
    inFlight.delete(request);
    lastActivity = Date.now();
  };

  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${where}: console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${where}: page error: ${error.message}`));
  page.on('request', (request) => {
    // A live event stream (issue 22) stays open for as long as the page does: it is not waited for.
    if (LIVE_STREAM.test(request.url())) return;
    const now = Date.now();
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) lastNavigation = now;
    inFlight.add(request);
    startedAt.set(request, now);
    lastActivity = now;
  });
  page.on('framenavigated', (frame) => {
    // A navigation the browser serves without a request Playwright reports (a prefetched page,
    // say) still cuts the page's unfinished requests.
    if (frame === page.mainFrame()) lastNavigation = Date.now();
    // A page that sends the reader on (the admin page to a non-admin, say): name both.
    if (frame === page.mainFrame() && where && !where.endsWith(short(frame.url()))) where = `${where} → ${short(frame.url())}`;
  });
  page.on('requestfinished', done);
  // Requests the browser cut off, judged once the page settles: a navigation that cut one may be
  // reported after the cut (a busy machine reorders the events).
  const aborted: { request: Request; where: string }[] = [];
  /** Requests answered 304 Not Modified: Chromium reports a page's own conditional fetch answered so as cut off (ERR_ABORTED) after its answer came. */
  const notModified = new WeakSet<Request>();
  page.on('requestfailed', (request) => {
    done(request);
    if (notModified.has(request)) return;
    if (request.failure()?.errorText === 'net::ERR_ABORTED') {
      aborted.push({ request, where });
      return;
    }
    problems.push(`${where}: no answer to ${request.method()} ${short(request.url())} (${request.failure()?.errorText})`);
  });
  /** Leaving a page cuts its unfinished requests (a poll, say): that is the browser's doing; any other cut is a problem. */
  const judgeAborted = () => {
    for (const { request, where: at } of aborted.splice(0)) {
      if (lastNavigation >= (startedAt.get(request) ?? 0)) continue;
      problems.push(`${at}: no answer to ${request.method()} ${short(request.url())} (net::ERR_ABORTED)`);
    }
  };
  page.on('response', (response: Response) => {
    const status = response.status();
    if (status === 304) notModified.add(response.request());
    if (status < 400) return;
    const url = short(response.url());
    if (EXPECTED_REFUSALS.some((e) => e.page.test(where) && e.request.test(url) && e.status === status)) return;
    problems.push(`${where}: ${status} for ${response.request().method()} ${url}`);
  });

  /** The page is ready: islands hydrated (scrolling through it for `client:visible` ones; not those waiting for a touch), the bell loaded, the network quiet. */
  async function settle(signedIn: boolean) {
    // A page may send the reader on while this runs; then the next page is the one to settle.
    for (let attempt = 1; ; attempt++) {
      try {
        await hydrated(page);
        await page.evaluate(async () => {
          for (let y = 0; y < document.documentElement.scrollHeight; y += window.innerHeight) {
            window.scrollTo(0, y);
            await new Promise((resolve) => requestAnimationFrame(resolve));
          }
          window.scrollTo(0, 0);
        });
        // Islands that hydrate on the reader's first touch (`client:interact`) stay server HTML: nobody touched them.
        await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="interact"])').length === 0);
        break;
      } catch (error) {
        if (attempt >= 3 || !/context was destroyed|navigat/i.test(String(error))) throw error;
        await page.waitForLoadState();
      }
    }
    if (signedIn) await bellLoaded(page);
    // Polls (chat 6 s, bracket 5 s, bell 30 s) leave quiet gaps far longer than QUIET_MS.
    await expect.poll(() => inFlight.size === 0 && Date.now() - lastActivity >= QUIET_MS, { timeout: 30_000, intervals: [100] }).toBe(true);
    judgeAborted();
  }

  return {
    problems,
    settle,
    /** Opens `path` and waits until it is ready (`settle`). */
    async visit(path: string, signedIn: boolean) {
      where = path;
      await page.goto(path);
      await settle(signedIn);
    },
  };
}


const me = async (request: APIRequestContext, token: string) =>
  (await (await request.get('/api/users/me', { headers: { authorization: `Bearer ${token}` } })).json()) as { _id: string; username: string; teams: string[] };

/** A demo player in no team (team.spec.ts may have put one of them into one). */
async function freeAgent(request: APIRequestContext): Promise<string> {
  for (const nick of FREE_AGENTS) {
    const response = await request.post('/api/auth/login', { data: { loginOrEmail: nick, password: DEMO_PASSWORD } });
    if (response.status() !== 200) continue;
    const { token } = (await response.json()) as { token: string };
    if ((await me(request, token)).teams.length === 0) return token;
  }
  throw new Error(`none of ${FREE_AGENTS.join(', ')} is a demo player without a team`);
}


const roles: { role: string; token: (request: APIRequestContext) => Promise<string | null>; lang?: 'en' }[] = [
  { role: 'a guest', token: async () => null },
  { role: 'a player without a team', token: freeAgent },
  { role: `the captain ${CAPTAIN}`, token: (request) => tokenOf(request, CAPTAIN) },
  { role: 'the admin', token: (request) => tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password) },
  // Dates, numbers and words differ by language: a server and a browser that disagree show up here.
  { role: `the captain ${CAPTAIN} reading in English`, token: (request) => tokenOf(request, CAPTAIN), lang: 'en' },
];

for (const { role, token: tokenFor, lang } of roles) {
  test(`every page opens clean for ${role}: no console error, page error or failed request`, async ({ page, request, baseURL }) => {
    test.setTimeout(240_000);
    const token = await tokenFor(request);
    if (token) await useToken(page, token);
    if (lang) await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL! }]);
    const watcher = watch(page);
    for (const path of await everyPage(page)) await watcher.visit(path, token !== null);
    if (lang) await expect(page.locator('html')).toHaveAttribute('lang', lang);
    expect(watcher.problems).toEqual([]);
  });
}

test('accepting a team invite from the bell makes no failed request', async ({ page, request }) => {
  const captainToken = await tokenOf(request, CAPTAIN);
  const captain = { authorization: `Bearer ${captainToken}` };
  // A team of the demo captain's own, so the demo team keeps its roster for the other tests.
  const name = `Консоль ${randomUUID().slice(0, 6)}`;
  const created = await request.post('/api/teams', { headers: captain, data: { name } });
  expect(created.status()).toBe(201);
  const teamId = ((await created.json()) as { team: { _id: string } }).team._id;
  const playerToken = await freeAgent(request);
  const player = await me(request, playerToken);
  expect((await request.post(`/api/teams/${teamId}/invite`, { headers: captain, data: { query: player.username } })).status()).toBe(201);

  await useToken(page, playerToken);
  const watcher = watch(page);
  await watcher.visit('/team', true);
  await page.getByRole('button', { name: /^Сповіщення: непрочитаних \d+$/ }).click();
  const panel = page.getByRole('region', { name: 'Сповіщення' });
  const invite = panel.getByRole('listitem').filter({ hasText: `«${name}»` });
  await invite.getByRole('button', { name: 'Прийняти' }).click();
  await expect(panel.getByRole('status')).toHaveText('Ви приєднались до команди!');
  await expect(page.getByRole('article', { name })).toBeVisible();
  await watcher.settle(true);
  expect(watcher.problems).toEqual([]);
  // Leave the team, so the player is free again for the pages above.
  expect((await request.delete(`/api/teams/${teamId}/members/${player._id}`, { headers: captain })).status()).toBe(200);
});

test('opening an unconfigured game’s statistics in the admin makes no failed request', async ({ page, request }) => {
  const token = await tokenOf(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const name = `Без конфігурації ${randomUUID().slice(0, 6)}`;
  expect((await request.post('/api/games', { headers: { authorization: `Bearer ${token}` }, data: { name } })).status()).toBe(201);

  await useToken(page, token);
  const watcher = watch(page);
  await watcher.visit('/admin?section=games', true);
  const panel = page.getByRole('region', { name: 'Ігри та статистика' });
  await panel.getByRole('button', { name: `Конфігурація гри «${name}»` }).click();
  await expect(panel.getByText('Статистику для цієї гри не налаштовано')).toBeVisible();
  await watcher.settle(true);
  expect(watcher.problems).toEqual([]);
});
