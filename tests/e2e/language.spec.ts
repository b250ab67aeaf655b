import { expect, hydrated, open, test } from './fixtures.ts';

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
  expect(await englishScripts()).toBeGreaterThan(0);

  // A later visit, and a page rendered only in the browser, stay in English.
  await open(page, '/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('tab', { name: 'Register' })).toBeVisible();
  await expect(page.getByLabel('Nickname or email')).toBeVisible();

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
