import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, open, settled, signIn, test } from './fixtures.ts';

/*
 * An organisation's outgoing webhooks in the browser (issue 60): the demo league's owner sees its
 * scoreboard's webhook with the events it hears and its delivery log, adds one (its signing secret
 * shown once, gone after a reload), is refused an address of this machine in Ukrainian, and deletes
 * the one they added; at 360 and 1280 px. A staff member sees no such section.
 */

async function serious(page: Page) {
  const result = await new AxeBuilder({ page }).include('[data-webhooks]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

test('the league’s owner reads its webhooks, adds one with its secret shown once, and deletes it', async ({ page }, testInfo) => {
  await signIn(page, 'Kyiv_Cyborg');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, '/org/kyiv-cyberleague/manage');
    const section = page.locator('[data-webhooks]');
    await expect(section.getByRole('heading', { name: 'Вебхуки' })).toBeVisible();
    const demo = section.locator('[data-webhook="https://scoreboard.kyiv-cyberleague.example/kiberarena/hooks"]');
    await expect(demo).toContainText('match.completed');
    await demo.getByText('Останні доставки').click();
    await expect(demo.getByText('Не вдалося')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(await serious(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`webhooks-${width}.png`), fullPage: false });
  }
  const section = page.locator('[data-webhooks]');
  await section.getByLabel('Адреса (https://…)').fill('http://127.0.0.1:4321/hook');
  await section.getByRole('button', { name: 'Додати вебхук' }).click();
  await settled(page);
  await expect(section.getByText(/веде на цей сервер або в приватну мережу/)).toBeVisible();

  const address = `https://results.example.org/hooks/${Date.now()}`;
  await section.getByLabel('Адреса (https://…)').fill(address);
  await section.getByLabel('Матч готовий (match.ready)').check();
  await section.getByRole('button', { name: 'Додати вебхук' }).click();
  await settled(page);
  const secret = section.locator('[data-webhook-secret] code');
  await expect(secret).toHaveText(/^whsec_/);
  const added = section.locator(`[data-webhook="${address}"]`);
  await expect(added).toContainText('match.ready');
  await page.screenshot({ path: testInfo.outputPath('webhooks-added.png'), fullPage: false });

  await open(page, '/org/kyiv-cyberleague/manage');
  await expect(page.locator(`[data-webhooks] [data-webhook="${address}"]`)).toBeVisible();
  await expect(page.locator('[data-webhook-secret]')).toHaveCount(0);
  page.once('dialog', (dialog) => void dialog.accept());
  await page.locator(`[data-webhooks] [data-webhook="${address}"]`).getByRole('button', { name: 'Видалити' }).click();
  await settled(page);
  await expect(page.locator('[data-webhooks]').getByText('Вебхук видалено')).toBeVisible();
  await expect(page.locator(`[data-webhook="${address}"]`)).toHaveCount(0);
});

test('the webhooks section in English and the light theme at 360 px', async ({ page, baseURL }, testInfo) => {
  await signIn(page, 'Kyiv_Cyborg');
  await page.context().addCookies([{ name: 'lang', value: 'en', url: baseURL ?? '' }]);
  await page.addInitScript(() => localStorage.setItem('theme', 'light'));
  await page.setViewportSize({ width: 360, height: 900 });
  await open(page, '/org/kyiv-cyberleague/manage');
  const section = page.locator('[data-webhooks]');
  await expect(section.getByRole('heading', { name: 'Webhooks' })).toBeVisible();
  await expect(section.getByLabel('Match completed (match.completed)')).toBeChecked();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  await section.screenshot({ path: testInfo.outputPath('webhooks-en-light-360.png') });
  await page.context().addCookies([{ name: 'lang', value: 'uk', url: baseURL ?? '' }]);
});

test('a staff member of the league sees no webhooks section', async ({ page }) => {
  await signIn(page, 'Lesya_Support');
  await open(page, '/org/kyiv-cyberleague/manage');
  await settled(page);
  await expect(page.locator('[data-webhooks]')).toHaveCount(0);
});
