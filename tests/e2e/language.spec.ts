import type { Page } from '@playwright/test';
import { DEMO_PLAYER, expect, hydrated, open, signIn, test } from './fixtures.ts';

test('a reader switches to English, keeps it across visits, and switches back', async ({ page }) => {
  // English texts are scripts of their own, fetched only for pages in English.
  const scripts: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.push(response.text());
  });
  const englishScripts = async () => (await Promise.all(scripts)).filter((code) => code.includes('Main navigation')).length;
  await open(page, '/tournaments');
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk');
  expect(await englishScripts()).toBe(0);
  const nav = page.getByRole('navigation', { name: 'Головна навігація' });
  // The switch reloads the page: wait for that navigation, not for the page already loaded.
  await Promise.all([page.waitForEvent('framenavigated'), nav.getByRole('button', { name: 'Switch to English' }).click()]);
  await hydrated(page);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en', { timeout: 15_000 });
  const enNav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(enNav.getByRole('link', { name: 'Tournaments' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/Турнір/);

  // A later visit, and a page rendered only in the browser, stay in English.
  await open(page, '/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();
  await expect(page.getByLabel('Nickname or email')).toBeVisible();
  // The navigation is server HTML (issue 24): the English catalog comes with the islands that need it.
  expect(await englishScripts()).toBeGreaterThan(0);

  await Promise.all([
    page.waitForEvent('framenavigated'),
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'Перейти на українську' }).click(),
  ]);
  await expect(page.locator('html')).toHaveAttribute('lang', 'uk', { timeout: 15_000 });
  await expect(page.getByRole('tab', { name: 'Реєстрація' })).toBeVisible();
});

test('the API answers in the reader’s language and in Ukrainian by default', async ({ request, playwright, baseURL }) => {
  const plain = await request.post('/api/auth/login', { data: { loginOrEmail: 'nobody', password: 'wrong-one' } });
  expect((await plain.json()).message).toBe('Неправильний логін або пароль');
  const english = await playwright.request.newContext({ baseURL: baseURL ?? '', extraHTTPHeaders: { cookie: 'lang=en' } });
  const answer = await english.post('/api/auth/login', { data: { loginOrEmail: 'nobody2', password: 'wrong-one' } });
  expect((await answer.json()).message).toBe('Wrong login or password');
  await english.dispose();
});

const MONTH = '(January|February|March|April|May|June|July|August|September|October|November|December)';

/** Errors the page itself reports (a hydration mismatch is React error #418). */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

async function readIn(page: Page, baseURL: string | undefined, lang: 'uk' | 'en') {
  await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL ?? '' }]);
}

test('an English page writes dates, numbers and percentages the English way, and hydrates the same text', async ({ page, baseURL }) => {
  const errors = pageErrors(page);
  await readIn(page, baseURL, 'en');
  const [tournament] = (await (await page.request.get('/api/tournaments')).json()) as { _id: string }[];
  const [news] = (await (await page.request.get('/api/news')).json()) as { _id: string }[];

  await open(page, `/tournaments/${tournament?._id}`);
  await expect(page.locator('dd time')).toHaveText(new RegExp(`^\\d{1,2} ${MONTH} \\d{4} at \\d\\d:\\d\\d$`));

  await open(page, `/news/${news?._id}`);
  await expect(page.locator('article time').first()).toHaveText(new RegExp(`^\\d{1,2} ${MONTH} \\d{4}$`));

  // Dota 2, where the demo recorded a season: the default game may be one another test just set up or emptied.
  const games = (await (await page.request.get('/api/games')).json()) as { _id: string; name: string }[];
  await open(page, `/leaderboards?game=${games.find((g) => g.name === 'Dota 2')?._id}`);
  const rates = page.getByRole('cell').filter({ hasText: /%$/ });
  await expect(rates.first()).toBeVisible();
  for (const rate of await rates.allTextContents()) expect(rate).toMatch(/^\d{1,3}\.\d%$/);
  // The page asks the API in-process; its rank titles come in the page's language too.
  const cells = await page.getByRole('cell').allTextContents();
  for (const title of ['Новачок', 'Середній', 'Досвідчений', 'Експерт', 'Легенда']) expect(cells).not.toContain(title);

  // The cabinet and its match history are drawn in the browser: they read <html lang> too.
  await signIn(page, DEMO_PLAYER);
  await open(page, '/cabinet');
  await expect(page.getByText(new RegExp(`^On Kiberarena since \\d{1,2} ${MONTH} \\d{4}$`))).toBeVisible();
  await expect(page.locator('main')).not.toContainText('р.');
  expect(errors).toEqual([]);
});

test('a Ukrainian page keeps the Ukrainian date', async ({ page, baseURL }) => {
  const errors = pageErrors(page);
  await readIn(page, baseURL, 'uk');
  const [tournament] = (await (await page.request.get('/api/tournaments')).json()) as { _id: string }[];
  await open(page, `/tournaments/${tournament?._id}`);
  await expect(page.locator('dd time')).toHaveText(/^\d{1,2} \p{Script=Cyrillic}+ \d{4} р\.,? о \d\d:\d\d$/u);
  expect(errors).toEqual([]);
});

test('the news feed is English at ?lang=en, the address an English page offers', async ({ page, baseURL }) => {
  await readIn(page, baseURL, 'en');
  await open(page, '/news');
  const feed = page.locator('link[rel="alternate"][type="application/rss+xml"]');
  await expect(feed).toHaveAttribute('href', '/news/rss.xml?lang=en');
  await expect(page.getByRole('link', { name: 'RSS feed' })).toHaveAttribute('href', '/news/rss.xml?lang=en');

  // A feed reader sends no cookie: the address alone decides.
  const english = await (await fetch(new URL('/news/rss.xml?lang=en', baseURL))).text();
  expect(english).toContain('<language>en</language>');
  expect(english).toContain('<title>Kiberarena news</title>');
  expect(english).toMatch(/<pubDate>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/pubDate>/);
  const plain = await (await fetch(new URL('/news/rss.xml', baseURL))).text();
  expect(plain).toContain('<language>uk</language>');
  expect(plain).toContain('<title>Новини Кіберарени</title>');
});
