import { expect, test } from '@playwright/test';

test('the API reference page shows under its own strict CSP without a violation', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/api/docs');
  expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
  await expect(page.getByRole('heading', { level: 1, name: 'Кіберарена API' })).toBeVisible();
  // The page's own style applies: the dark background, not the browser's white.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(11, 13, 23)');
  expect(violations).toEqual([]);
});

test('a write to a page is refused with 405 and leaves the page as it was', async ({ page }) => {
  const before = await page.request.get('/news');
  const refused = await page.request.post('/news', { data: 'x=1', failOnStatusCode: false });
  expect(refused.status()).toBe(405);
  expect(refused.headers()['allow']).toBe('GET, HEAD');
  expect(await refused.json()).toEqual({ message: 'Цей метод тут не підтримується' });
  expect((await page.request.get('/news')).status()).toBe(before.status());
});
