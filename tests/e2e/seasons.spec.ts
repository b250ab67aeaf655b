import AxeBuilder from '@axe-core/playwright';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import type { SeasonListItem, SeasonStandings } from '../../src/lib/api/seasons.ts';
import { DEMO_SEASONS } from '../../src/server/db/seed/seasons.ts';
import { bearer, expect, freshPlayer, open, settled, signIn, test, tokenOf } from './fixtures.ts';

/*
 * Seasons in the browser (issue 59): a guest reads the demo league's table without JavaScript on a
 * 360 px phone and a 1280 px screen, in both languages and themes; the organisation's page and the
 * tournament's page lead to it; an organisation's owner makes a season and adds a cup from its
 * manage page.
 */

/** Serious and critical problems axe finds on the page as it is now. */
async function serious(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The demo's season (the school's League of Legends league) and its table, as the API gives them. */
async function demoSeason(page: Page) {
  const season = ((await (await page.request.get('/api/seasons')).json()) as SeasonListItem[]).find((each) => each.name === DEMO_SEASONS[0]!.name);
  expect(season, 'the demo has a season').toBeTruthy();
  const standings = (await (await page.request.get(`/api/seasons/${season!._id}/standings`)).json()) as SeasonStandings;
  return { season: season!, standings };
}

for (const width of [360, 1280]) {
  test(`a guest reads a season's table without JavaScript at ${width} px`, async ({ browser, page: apiPage }) => {
    const { season, standings } = await demoSeason(apiPage);
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width, height: 900 } });
    const page = await context.newPage();
    const response = await page.goto(`/seasons/${season._id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(season.name);
    await expect(page.getByRole('link', { name: season.organisation!.name })).toHaveAttribute('href', `/org/${season.organisation!.slug}`);
    await expect(page).toHaveTitle(`${season.name} — Кіберарена`);
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', `${season.name} — Кіберарена`);
    await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', new RegExp(`лідирує ${standings.rows[0]!.participant.name}`));

    const table = page.getByRole('table', { name: 'Таблиця сезону' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(standings.rows.length);
    const leader = rows.first();
    await expect(leader.getByRole('rowheader')).toContainText(standings.rows[0]!.participant.name);
    await expect(leader.getByRole('link', { name: standings.rows[0]!.participant.name })).toHaveAttribute('href', `/teams/${standings.rows[0]!.participant._id}`);
    await expect(leader.locator('td').last()).toHaveText(String(standings.rows[0]!.total));
    // A column per finished tournament on a wide screen; on a phone they fold into each row's «results by tournament».
    const counted = standings.tournaments.filter((each) => each.counted);
    const columns = table.locator('thead th');
    if (width >= 768) {
      await expect(columns).toHaveCount(4 + counted.length);
      await expect(leader.getByText('По турнірах')).toBeHidden();
    } else {
      await expect(columns.filter({ visible: true })).toHaveCount(4);
      await leader.getByText('По турнірах').click();
      await expect(leader.getByRole('listitem')).toHaveCount(standings.rows[0]!.results.length);
    }
    // Its tournaments, numbered oldest first; one not finished yet is marked so.
    const list = page.getByRole('region', { name: 'Турніри сезону' }).getByRole('listitem');
    await expect(list).toHaveCount(standings.tournaments.length);
    await expect(list.filter({ hasText: 'ще не рахується' })).toHaveCount(standings.tournaments.length - counted.length);
    await expect(page.getByRole('region', { name: 'Очки за місця' }).getByRole('listitem')).toHaveCount(standings.season.pointsByPlace.length);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await context.close();
  });
}

for (const theme of ['dark', 'light'] as const) {
  test(`a season's page and its organisation's pass axe in both languages (${theme} theme)`, async ({ browser, page: apiPage }) => {
    const { season } = await demoSeason(apiPage);
    for (const lang of ['uk', 'en'] as const) {
      const context = await browser.newContext({ viewport: { width: 360, height: 800 } });
      await context.addCookies([{ name: 'lang', value: lang, url: test.info().project.use.baseURL! }]);
      const page = await context.newPage();
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await open(page, `/seasons/${season._id}`);
      await expect(page.getByRole('heading', { level: 2, name: lang === 'uk' ? 'Таблиця сезону' : 'Season table' })).toBeVisible();
      expect(await serious(page), `${lang} season`).toEqual([]);
      await open(page, `/org/${season.organisation!.slug}`);
      expect(await serious(page), `${lang} organisation`).toEqual([]);
      await context.close();
    }
  });
}

test('the organisation’s page lists its seasons and the tournament’s page names its season', async ({ page }) => {
  const { season, standings } = await demoSeason(page);
  await page.goto(`/org/${season.organisation!.slug}`);
  const seasons = page.getByRole('region', { name: 'Сезони' });
  const item = seasons.getByRole('listitem').filter({ hasText: season.name });
  await expect(item).toContainText(`League of Legends · ${season.tournaments} турніри · ${season.finished} завершено`);
  await item.getByRole('link', { name: season.name }).click();
  await page.waitForURL(`/seasons/${season._id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(season.name);
  await page.goto(`/tournaments/${standings.tournaments[0]!._id}`);
  await expect(page.locator('[data-season-link]')).toHaveText(season.name);
  await expect(page.locator('[data-season-link]')).toHaveAttribute('href', `/seasons/${season._id}`);
  // Search engines find it.
  expect(await (await page.request.get('/sitemap.xml')).text()).toContain(`/seasons/${season._id}</loc>`);
});

test('an organisation’s owner makes a season and adds a cup to it from the manage page', async ({ page, request }) => {
  test.slow();
  const owner = await freshPlayer(page, 'season');
  const token = await tokenOf(request, owner.nick, owner.password);
  const made = await request.post('/api/organisations', { headers: bearer(token), data: { name: `Ліга ${randomUUID().slice(0, 6)}` } });
  expect(made.status()).toBe(201);
  const { organisation } = (await made.json()) as { organisation: { _id: string; slug: string } };
  const games = (await (await request.get('/api/games')).json()) as { _id: string; name: string }[];
  // Not CS2: other browser tests count the CS2 cards.
  const lol = games.find((g) => g.name === 'League of Legends')!;
  const title = `Кубок сезону ${randomUUID().slice(0, 6)}`;
  const cup = await request.post('/api/tournaments', {
    headers: bearer(token),
    data: { title, date: '2031-04-01T16:00:00Z', game: lol._id, soloOnly: true, organisation: organisation._id },
  });
  expect(cup.status()).toBe(201);

  await signIn(page, owner.nick, owner.password);
  await open(page, `/org/${organisation.slug}/manage`);
  await settled(page);
  const manage = page.getByRole('region', { name: 'Сезони' });
  await expect(manage.getByText('Сезонів ще немає.')).toBeVisible();
  await manage.getByText('Новий сезон').click();
  await manage.getByLabel('Назва сезону').fill('Весняна ліга');
  await manage.getByLabel('Гра', { exact: true }).selectOption({ label: 'League of Legends' });
  await manage.getByLabel('Очки за 1-ше, 2-ге, … місця (через кому)').fill('10, 20');
  await manage.getByRole('button', { name: 'Створити сезон' }).click();
  // The domain's rule answers before the server is asked.
  await expect(manage.getByRole('alert')).toHaveText('Нижче місце не може давати більше очок, ніж вище');
  await manage.getByLabel('Очки за 1-ше, 2-ге, … місця (через кому)').fill('10, 6, 4');
  await manage.getByRole('button', { name: 'Створити сезон' }).click();
  await expect(manage.getByRole('status')).toHaveText('Сезон «Весняна ліга» створено');
  const card = manage.locator('[data-manage-season]').filter({ hasText: 'Весняна ліга' });
  await card.getByLabel('Турнір', { exact: true }).selectOption({ label: `${title} · 2031-04-01` });
  await card.getByRole('button', { name: 'Додати до сезону' }).click();
  await expect(manage.getByRole('status')).toHaveText(`Турнір «${title}» тепер у сезоні`);
  await expect(card.getByRole('link', { name: title })).toBeVisible();

  // The organisation's page lists it for everyone.
  await page.goto(`/org/${organisation.slug}`);
  await expect(page.getByRole('region', { name: 'Сезони' }).getByRole('listitem')).toHaveText([/Весняна ліга\s*League of Legends · 1 турнір · 0 завершено/]);
});
