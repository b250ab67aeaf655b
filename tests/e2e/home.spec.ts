import type { Page } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { bearer, expect, freshPlayer, open, signIn, test, tokenOf } from './fixtures.ts';

test('the slogan appears only after 900 ms, over 66 falling stars', async ({ page }) => {
  await page.goto('/');
  const slogan = page.getByRole('heading', { level: 1 });
  const opacityAt = async () => Number(await slogan.evaluate((el) => getComputedStyle(el).opacity));
  // The animation clock starts with the document: read it from the page, in the same step as the
  // opacity, so a slow test runner cannot let time pass between the two.
  const early = await slogan.evaluate((el) => ({ time: document.timeline.currentTime as number, opacity: Number(getComputedStyle(el).opacity) }));
  if (early.time < 900) expect(early.opacity).toBe(0);
  await expect.poll(opacityAt, { timeout: 3000 }).toBe(1);
  const shownAt = await page.evaluate(() => document.timeline.currentTime as number);
  expect(shownAt).toBeGreaterThanOrEqual(900);
  await expect(page.locator('svg.falling-stars line')).toHaveCount(66);
  await expect(page.locator('.site-background img')).toHaveCount(1);
  // Decorative: no name for a screen reader to read out.
  await expect(page.locator('.site-background img')).toHaveAttribute('alt', '');
});

test('the stars fall by CSS animations, which leave the main thread free, not by SMIL', async ({ page }) => {
  await page.goto('/');
  const stars = page.locator('svg.falling-stars');
  const running = () => stars.evaluate((svg) => svg.getAnimations({ subtree: true }).filter((a) => a.playState === 'running').length);
  await expect.poll(running).toBe(66);
  await expect(stars.locator('animate, animateTransform, animateMotion, set')).toHaveCount(0);
  // Not all in step: the stars take different paces and starts.
  const paces = await stars.evaluate((svg) => new Set(svg.getAnimations({ subtree: true }).map((a) => `${a.effect?.getTiming().duration}/${a.effect?.getTiming().delay}`)).size);
  expect(paces).toBeGreaterThan(20);
});

test('the home page lists upcoming tournaments and latest news, each linking on', async ({ page }) => {
  await open(page, '/');
  const upcoming = page.getByRole('region', { name: 'Найближчі турніри' });
  await expect(upcoming.getByRole('listitem').first()).toBeVisible();
  const news = page.getByRole('region', { name: 'Останні новини' });
  const firstNews = news.getByRole('listitem').first().getByRole('link');
  const title = await firstNews.textContent();
  await firstNews.click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title ?? '');
});

test('the particle layer draws behind the page and never takes a click', async ({ page }) => {
  await open(page, '/');
  const canvas = page.locator('#background-particles canvas');
  await expect(canvas).toHaveCount(1, { timeout: 10_000 });
  expect(await canvas.evaluate((el) => getComputedStyle(el).pointerEvents)).toBe('none');
  await page.getByRole('link', { name: 'До турнірів' }).click();
  await expect(page).toHaveURL('/tournaments');
});

/** The layer itself (tsParticles and its loader), which the home page's small gate script decides to fetch. */
const LAYER_SCRIPTS = /ParticlesLayer|tsparticles/i;
/** The layer and its gate: a page without the layer's box asks for neither. */
const ANY_PARTICLE_SCRIPT = /ParticlesLayer|ParticlesBackground|tsparticles/i;

/**
 * Opens `path` and waits until the particle layer would have loaded (it loads once the browser is
 * idle, `client:idle`: an idle moment after the islands' own, then the requests it would have
 * started); returns the scripts matching `which` that the page asked for.
 */
async function particleScriptsOn(page: Page, path: string, which: RegExp): Promise<string[]> {
  const asked: string[] = [];
  page.on('request', (request) => {
    if (which.test(request.url())) asked.push(request.url());
  });
  await open(page, path);
  await page.evaluate(() => new Promise((done) => requestIdleCallback(() => done(null))));
  await page.waitForLoadState('networkidle');
  return asked;
}

test('other pages have neither the background logo nor the particle layer', async ({ page }) => {
  expect(await particleScriptsOn(page, '/tournaments', ANY_PARTICLE_SCRIPT)).toEqual([]);
  await expect(page.locator('.site-background img')).toHaveCount(0);
  await expect(page.locator('#background-particles')).toHaveCount(0);
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('no particles are loaded and the stars stand still', async ({ page }) => {
    expect(await particleScriptsOn(page, '/', LAYER_SCRIPTS)).toEqual([]);
    await expect(page.locator('#background-particles canvas')).toHaveCount(0);
    await expect(page.locator('svg.falling-stars')).toBeHidden();
  });
});

test.describe('on a touch phone', () => {
  test.use({ hasTouch: true, isMobile: true, viewport: { width: 360, height: 740 } });

  test('the particle layer, whose one effect follows a hovering pointer, is not loaded; the stars still fall', async ({ page }) => {
    expect(await particleScriptsOn(page, '/', LAYER_SCRIPTS)).toEqual([]);
    await expect(page.locator('#background-particles canvas')).toHaveCount(0);
    await expect(page.locator('svg.falling-stars')).toBeVisible();
    await expect(page.locator('.site-background img')).toHaveCount(1);
  });
});

test('robots.txt names the sitemap, which lists games, tournaments, brackets and news', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.headers()['content-type']).toContain('text/plain');
  const sitemapUrl = (await robots.text()).match(/^Sitemap: (\S+)$/m)?.[1];
  expect(sitemapUrl).toMatch(/\/sitemap\.xml$/);
  const sitemap = await request.get(new URL(sitemapUrl ?? '').pathname);
  expect(sitemap.headers()['content-type']).toContain('application/xml');
  const xml = await sitemap.text();
  for (const path of ['/tournaments<', '/games/', '/tournaments/', '/tournament/', '/bracket<', '/news/']) expect(xml).toContain(path);
  const manifest = await request.get('/manifest.webmanifest');
  expect((await manifest.json()).lang).toBe('uk');
});

test('a signed-in player’s home card says «Заявку подано» where they applied; a guest is still offered to apply', async ({ page, browser }) => {
  const admin = await tokenOf(page.request, E2E_ADMIN.email, E2E_ADMIN.password);
  // A game of its own, so the demo games' lists other tests read stay as they are.
  const title = `Ранковий спринт ${Date.now().toString(36)}`;
  const game = (await (await page.request.post('/api/games', { headers: bearer(admin), data: { name: title } })).json()) as { game: { _id: string } };
  // Began 23 hours ago and not started: the first of the home page's upcoming three.
  const made = await page.request.post('/api/tournaments', {
    headers: bearer(admin),
    data: { game: game.game._id, title, soloOnly: true, date: new Date(Date.now() - 23 * 3_600_000).toISOString() },
  });
  expect(made.status()).toBe(201);
  const id = ((await made.json()) as { tournament: { _id: string } }).tournament._id;
  const { nick, password } = await freshPlayer(page, 'home');
  const token = await tokenOf(page.request, nick, password);
  expect((await page.request.post('/api/applications', { headers: bearer(token), data: { tournament: id } })).status()).toBe(201);

  const guest = await browser.newPage();
  await guest.goto('/');
  await expect(guest.getByRole('link', { name: `Подати заявку: ${title}` })).toHaveAttribute('href', `/tournaments/${id}#apply`);
  await guest.close();

  await signIn(page, nick, password);
  await open(page, '/');
  const mine = page.getByRole('link', { name: `Заявку подано: ${title}` });
  await expect(mine).toHaveText('✓ Заявку подано');
  await expect(mine).toHaveAttribute('href', `/tournaments/${id}`);
});
