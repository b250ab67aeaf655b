import type { Page } from '@playwright/test';
import { expect, open, test } from './fixtures.ts';

// Issue 24: pages that are read, not worked with, send no React to a guest; the layout's navigation
// is server HTML with a few lines of script, and React comes only where a reader interacts.

/** Text only React DOM's own code carries (its error decoder's address). */
const REACT_DOM = 'react.dev/errors';

/** Collects the bodies of every script the page fetches from now on. */
function scriptsOf(page: Page): () => Promise<string[]> {
  const loaded: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') loaded.push(response.text().catch(() => ''));
  });
  return () => Promise.all(loaded);
}

async function readPages(page: Page) {
  const [tournament] = (await (await page.request.get('/api/tournaments')).json()) as { _id: string }[];
  const [item] = (await (await page.request.get('/api/news')).json()) as { _id: string }[];
  // The first rated game whose leaderboard has a player: another test may have just set one up with nobody on it.
  const rated = (await (await page.request.get('/api/stats/games')).json()) as { _id: string }[];
  let leader: { userId: { _id: string } } | undefined;
  for (const game of rated) {
    [leader] = (await (await page.request.get(`/api/stats/leaderboard/game/${game._id}`)).json()) as { userId: { _id: string } }[];
    if (leader) break;
  }
  return { news: `/news/${item!._id}`, bracket: `/tournament/${tournament!._id}/bracket`, player: `/players/${leader!.userId._id}` };
}

test('a guest reading a news item, a bracket or a profile downloads no React', async ({ page }) => {
  const paths = await readPages(page);
  for (const path of Object.values(paths)) {
    const scripts = scriptsOf(page);
    await open(page, path);
    await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(null), { timeout: 2_000 })));
    const bodies = await scripts();
    expect(bodies.length, path).toBeGreaterThan(0);
    expect(bodies.some((code) => code.includes(REACT_DOM)), path).toBe(false);
  }
});

test('without React, a phone reader opens and closes the menu, switches the theme and the language', async ({ page }) => {
  const paths = await readPages(page);
  await page.setViewportSize({ width: 360, height: 740 });
  const scripts = scriptsOf(page);
  await open(page, paths.news);
  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  const menu = page.getByRole('button', { name: 'Розгорнути меню' });
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(nav).toBeVisible();
  await expect(page.getByRole('button', { name: 'Згорнути меню' })).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');

  await menu.click();
  await nav.getByRole('button', { name: 'Світла тема' }).click();
  await expect(page.locator('body')).toHaveAttribute('data-theme', 'light');
  await expect(nav.getByRole('button', { name: 'Темна тема' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

  await Promise.all([page.waitForEvent('framenavigated'), nav.getByRole('button', { name: 'Switch to English' }).click()]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en', { timeout: 15_000 });
  await expect(page.locator('body')).toHaveAttribute('data-theme', 'light');
  await page.getByRole('button', { name: 'Expand menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'News' })).toHaveAttribute('aria-current', 'page');
  expect((await scripts()).some((code) => code.includes(REACT_DOM))).toBe(false);
  await page.context().clearCookies();
});

test('a profile’s match history hydrates when the reader reaches for it', async ({ page }) => {
  const { player } = await readPages(page);
  const scripts = scriptsOf(page);
  await open(page, player);
  const history = page.locator('astro-island[client="interact"]');
  await expect(history).toHaveAttribute('ssr', '');
  expect((await scripts()).some((code) => code.includes(REACT_DOM))).toBe(false);
  await history.getByRole('heading').hover();
  await expect(history).not.toHaveAttribute('ssr', '');
  expect((await scripts()).some((code) => code.includes(REACT_DOM))).toBe(true);
});
