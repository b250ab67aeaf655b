import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, open, settled, signIn, test } from './fixtures.ts';

/*
 * An organisation's API keys in the browser (issue 60, decision 045): the demo league's owner sees
 * its read key, makes another, is shown its secret once with a copy button and a warning, reads an
 * export with it from outside the browser, and revokes it after a confirmation, at 360 and 1280 px;
 * a staff member sees no such section. Screenshots in both languages and themes are kept.
 */

async function serious(page: Page) {
  const result = await new AxeBuilder({ page }).include('[data-api-keys]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** A tournament the demo league hosts, found through the public API. */
async function leagueTournament(request: APIRequestContext): Promise<string> {
  const league = await (await request.get('/api/organisations/kyiv-cyberleague')).json();
  const list = await (await request.get(`/api/tournaments?organisation=${league._id}`)).json();
  const items = Array.isArray(list) ? list : list.tournaments;
  return items[0]._id as string;
}

const exportWith = (request: APIRequestContext, tournament: string, secret: string) =>
  request.get(`/api/tournaments/${tournament}/export/participants.csv`, { headers: { authorization: `Bearer ${secret}` } });

test('the league’s owner makes a key, sees it once, reads an export with it and revokes it', async ({ page, request }, testInfo) => {
  await signIn(page, 'Kyiv_Cyborg');
  const section = page.locator('[data-api-keys]');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, '/org/kyiv-cyberleague/manage');
    await expect(section.getByRole('heading', { name: 'Ключі API' })).toBeVisible();
    const demo = section.locator('[data-api-key="Таблиця на сайті ліги"]');
    await expect(demo).toContainText('Читання');
    await expect(demo).toContainText(/ka_\S{8}…/);
    await expect(demo).toContainText('Востаннє вжито');
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await serious(page)).toEqual([]);
  }

  const name = `Табло ${Date.now().toString(36)}`;
  await page.setViewportSize({ width: 360, height: 900 });
  await section.getByLabel('Назва ключа').fill(name);
  await section.getByLabel('Доступ').selectOption('read');
  await section.getByRole('button', { name: 'Створити ключ' }).click();
  await settled(page);
  const shown = section.locator('[data-api-key-secret]');
  await expect(shown).toContainText('його показано лише раз');
  const secret = await shown.getByRole('textbox').inputValue();
  expect(secret).toMatch(/^ka_[A-Za-z0-9_-]{43}$/);
  await expect(shown.getByRole('button', { name: 'Копіювати' })).toBeVisible();
  await expect(section.locator(`[data-api-key="${name}"]`)).toContainText('Ще не вживався');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    expect(await serious(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`api-keys-secret-${width}.png`), fullPage: true });
  }

  // From outside the browser: the key reads the league's export, and nothing of a user's.
  const tournament = await leagueTournament(request);
  const csv = await exportWith(request, tournament, secret);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect((await request.get('/api/users/me', { headers: { authorization: `Bearer ${secret}` } })).status()).toBe(403);

  // Once the page is read again, the secret is gone from it and the key shows its use.
  await open(page, '/org/kyiv-cyberleague/manage');
  await expect(section.locator(`[data-api-key="${name}"]`)).toContainText('Востаннє вжито');
  await expect(section.locator('[data-api-key-secret]')).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  const row = section.locator(`[data-api-key="${name}"]`);
  await row.getByRole('button', { name: 'Відкликати' }).click();
  await expect(row).toContainText(`Відкликати ключ «${name}»?`);
  await row.getByRole('button', { name: 'Так, відкликати' }).click();
  await settled(page);
  await expect(section.getByText(`Ключ «${name}» відкликано`)).toBeVisible();
  await expect(row).toContainText('Відкликано');
  await expect(row.getByRole('button', { name: 'Відкликати' })).toHaveCount(0);
  const refused = await exportWith(request, tournament, secret);
  expect(refused.status()).toBe(401);
  expect((await refused.json()).message).toBe('Ключ API недійсний або відкликаний');
});

test('the keys section in English and in both themes, at 360 and 1280 px (screenshots attached)', async ({ page, baseURL }, testInfo) => {
  await signIn(page, 'Kyiv_Cyborg');
  const section = page.locator('[data-api-keys]');
  for (const lang of ['uk', 'en'] as const) {
    await page.context().addCookies([{ name: 'lang', value: lang, url: baseURL ?? '' }]);
    for (const theme of ['light', 'dark'] as const) {
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await open(page, '/org/kyiv-cyberleague/manage');
        await expect(section.getByRole('heading', { name: lang === 'uk' ? 'Ключі API' : 'API keys' })).toBeVisible();
        expect(await overflow(page)).toBeLessThanOrEqual(0);
        await section.scrollIntoViewIfNeeded();
        await section.screenshot({ path: testInfo.outputPath(`api-keys-${lang}-${theme}-${width}.png`) });
      }
    }
  }
  await page.context().addCookies([{ name: 'lang', value: 'uk', url: baseURL ?? '' }]);
});

test('a staff member of the league sees no keys section', async ({ page }) => {
  await signIn(page, 'Lesya_Support');
  await open(page, '/org/kyiv-cyberleague/manage');
  await settled(page);
  await expect(page.locator('[data-api-keys]')).toHaveCount(0);
});
