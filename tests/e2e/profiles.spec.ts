import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import type { PlayerEntry, StatsGame, TeamEntry } from '../../src/lib/api/leaderboards.ts';
import { expect, hydrated, test } from './fixtures.ts';

/*
 * Public profiles (issue 23): a guest reads a player's and a team's page without JavaScript on a
 * 360 px phone — the rating with its rank title, the chart, no sideways scroll — arrives there from
 * the leaderboard, and a shared link carries the page's title and picture. The demo's Dota 2
 * players and teams have played seasons, so their charts have points.
 */

async function dota(request: APIRequestContext): Promise<StatsGame> {
  const games = (await (await request.get('/api/stats/games')).json()) as StatsGame[];
  const game = games.find((g) => g.name === 'Dota 2');
  expect(game, 'the demo rates Dota 2').toBeTruthy();
  return game!;
}

const topPlayer = async (request: APIRequestContext, gameId: string) =>
  ((await (await request.get(`/api/stats/leaderboard/game/${gameId}`)).json()) as PlayerEntry[]).find((e) => e.userId)!;
const topTeam = async (request: APIRequestContext, gameId: string) =>
  ((await (await request.get(`/api/stats/leaderboard/teams/game/${gameId}`)).json()) as TeamEntry[]).find((e) => e.teamId)!;

/** A guest's phone without JavaScript. */
async function phone(browser: Browser, lang: 'uk' | 'en' = 'uk', baseURL = '') {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 360, height: 800 } });
  if (lang === 'en') await context.addCookies([{ name: 'lang', value: 'en', url: baseURL }]);
  return { context, page: await context.newPage() };
}

async function noSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: document.documentElement.clientWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
}

const meta = (page: Page, property: string) => page.locator(`meta[property="${property}"], meta[name="${property}"]`).getAttribute('content');

test('a guest reads a player’s profile without JavaScript at 360 px: rating, rank title, chart, places, matches', async ({ browser, request, baseURL }) => {
  const game = await dota(request);
  const top = await topPlayer(request, game._id);
  const { context, page } = await phone(browser);
  const response = await page.goto(`/players/${top.userId!._id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: top.userId!.username })).toBeVisible();
  const card = page.locator(`[data-profile-game="${game._id}"]`);
  await expect(card.getByRole('heading', { name: 'Dota 2' })).toBeVisible();
  await expect(card.getByText(top.generalStats.rankTitle, { exact: true })).toBeVisible();
  const chart = card.getByRole('img', { name: /Рейтинг у Dota 2 з часом/ });
  await expect(chart).toBeVisible();
  expect(await chart.evaluate((svg) => svg.tagName.toLowerCase())).toBe('svg');
  await expect(page.getByRole('heading', { level: 2, name: 'Досягнення' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Місця в турнірах' })).toBeVisible();
  // The first page of matches is in the HTML itself; its opponents link to their profiles.
  const matches = page.getByRole('region', { name: 'Матчі' });
  await expect(matches.getByRole('listitem').first()).toBeVisible();
  await expect(matches.getByRole('link').first()).toHaveAttribute('href', /^\/(players|teams)\/[0-9a-f-]{36}$/);
  await noSidewaysScroll(page);

  // A shared link: the player's name, a description with the rating, the player's card picture.
  expect(await meta(page, 'og:title')).toContain(top.userId!.username);
  expect(await meta(page, 'og:description')).toContain(top.userId!.username);
  expect(await meta(page, 'og:image')).toContain(new URL(`/api/og/player/${top.userId!._id}.png?lang=uk`, baseURL).href);
  expect(await meta(page, 'twitter:card')).toBe('summary_large_image');
  expect(await meta(page, 'og:image:width')).toBe('1200');
  const shared = new URL((await meta(page, 'og:image'))!);
  const picture = await request.get(shared.pathname + shared.search);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/png');
  await context.close();
});

test('a guest reads a team’s profile without JavaScript at 360 px: roster linking to the players, rating and chart', async ({ browser, request }) => {
  const game = await dota(request);
  const top = await topTeam(request, game._id);
  const { context, page } = await phone(browser);
  await page.goto(`/teams/${top.teamId!._id}`);
  await expect(page.getByRole('heading', { level: 1, name: top.teamId!.name })).toBeVisible();
  const roster = page.getByRole('region', { name: 'Склад' });
  const first = roster.getByRole('link').first();
  await expect(first).toHaveAttribute('href', /^\/players\/[0-9a-f-]{36}$/);
  const card = page.locator(`[data-profile-game="${game._id}"]`);
  await expect(card.getByText(top.generalStats.rankTitle, { exact: true })).toBeVisible();
  await expect(card.getByRole('img', { name: /Рейтинг у Dota 2 з часом/ })).toBeVisible();
  await noSidewaysScroll(page);
  expect(await meta(page, 'og:title')).toContain(top.teamId!.name);

  // A member's name leads to their own profile, which names the team.
  const member = (await first.textContent())!.trim();
  await first.click();
  await expect(page.getByRole('heading', { level: 1, name: member })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Команди' }).getByRole('link', { name: top.teamId!.name })).toBeVisible();
  await context.close();
});

test('a guest follows a name on the leaderboard to the player’s profile', async ({ page, request }) => {
  const game = await dota(request);
  const top = await topPlayer(request, game._id);
  await page.goto(`/leaderboards?game=${game._id}`);
  await page.getByRole('link', { name: top.userId!.username, exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/players/${top.userId!._id}$`));
  await expect(page.getByRole('heading', { level: 1, name: top.userId!.username })).toBeVisible();
  await expect(page.getByRole('img', { name: /Рейтинг у Dota 2 з часом/ })).toBeVisible();
});

test('an English reader gets the profile in English; an unknown profile is not found', async ({ browser, request, baseURL }) => {
  const game = await dota(request);
  const top = await topPlayer(request, game._id);
  const { context, page } = await phone(browser, 'en', baseURL);
  await page.goto(`/players/${top.userId!._id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Ratings by game' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Rating in Dota 2 over time/ })).toBeVisible();
  expect(await meta(page, 'og:image')).toContain('lang=en');
  const missing = await page.goto('/teams/00000000-0000-4000-8000-000000000000');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Team not found' })).toBeVisible();
  expect((await page.goto('/players/nobody'))?.status()).toBe(404);
  await context.close();
});

test('an English reader reads a template’s achievement in English on a profile and on the leaderboard, its name as stored', async ({ browser, request, baseURL }) => {
  const game = await dota(request);
  const top = await topPlayer(request, game._id);
  const first = top.achievements.find((badge) => badge.name === 'First Victory');
  expect(first?.description, 'the demo’s top Dota 2 player has won there, and the API gives the text as stored').toBe('Перша перемога в цій грі');
  const { context, page } = await phone(browser, 'en', baseURL);
  await page.goto(`/players/${top.userId!._id}`);
  const earned = page.getByRole('region', { name: 'Achievements' });
  await expect(earned.getByRole('listitem').filter({ hasText: 'First Victory' }).filter({ hasText: 'Dota 2' })).toContainText('A first win in this game');
  await expect(earned).not.toContainText('Перша перемога');

  await page.goto(`/leaderboards?game=${game._id}`);
  // The badge's tooltip (shown on pointing or focus) carries the description.
  const row = page.getByRole('row').filter({ hasText: top.userId!.username }).first();
  await expect(row.getByRole('tooltip', { includeHidden: true }).filter({ hasText: 'First Victory' }).first()).toContainText('A first win in this game');
  await context.close();
});

test('the sitemap lists the profiles of players and teams who play', async ({ request }) => {
  const game = await dota(request);
  const [player, team] = [await topPlayer(request, game._id), await topTeam(request, game._id)];
  const xml = await (await request.get('/sitemap.xml')).text();
  expect(xml).toContain(`/players/${player.userId!._id}</loc>`);
  expect(xml).toContain(`/teams/${team.teamId!._id}</loc>`);
});

test('both profiles pass axe in the dark and the light theme', async ({ page, request }) => {
  const game = await dota(request);
  const paths = [`/players/${(await topPlayer(request, game._id)).userId!._id}`, `/teams/${(await topTeam(request, game._id)).teamId!._id}`];
  const found: Record<string, string[]> = {};
  for (const theme of ['dark', 'light'] as const) {
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    for (const path of paths) {
      await page.goto(path);
      await hydrated(page);
      const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      const problems = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      if (problems.length) found[`${theme} ${path}`] = problems;
    }
  }
  expect(found).toEqual({});
});
