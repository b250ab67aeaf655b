import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, open, settled, signIn, test } from './fixtures.ts';

/*
 * An organisation's Discord channel in the browser (issue 60): the demo league's owner sees the
 * channel connected, cut short, and its delivery log on the manage page at 360 and 1280 px; a wrong
 * address is refused in Ukrainian and changes nothing; a staff member sees no such section. The
 * browser tests' server posts nowhere (DISCORD_API_ROOT is loopback's discard port).
 */

async function serious(page: Page) {
  const result = await new AxeBuilder({ page }).include('[data-discord]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`);
}

test('the league’s owner reads its Discord channel and delivery log, and a wrong address is refused', async ({ page }, testInfo) => {
  await signIn(page, 'Kyiv_Cyborg');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await open(page, '/org/kyiv-cyberleague/manage');
    const section = page.locator('[data-discord]');
    await expect(section.getByRole('heading', { name: 'Discord' })).toBeVisible();
    await expect(section).toContainText('Під’єднано: https://discord.com/api/webhooks/1180000000000000042/Demo…');
    // The demo's four, and any the sweeps have told since (a check-in opening tonight).
    const log = section.getByRole('listitem');
    expect(await log.count()).toBeGreaterThanOrEqual(4);
    await expect(log.filter({ hasText: 'Мід 1×1: Дуель козаків' })).toContainText('Новий турнір');
    await expect(section.getByText('Не вдалося')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    expect(await serious(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`discord-${width}.png`), fullPage: false });
  }
  const section = page.locator('[data-discord]');
  await section.getByLabel('Адреса вебхука Discord').fill('https://discord.com.evil.example/api/webhooks/1/abc');
  await section.getByRole('button', { name: 'Зберегти вебхук' }).click();
  await settled(page);
  await expect(section.getByText(/Це не адреса вебхука Discord/)).toBeVisible();
  await expect(section).toContainText('Під’єднано: https://discord.com/api/webhooks/1180000000000000042/Demo…');
});

test('a staff member of the league sees no Discord section', async ({ page }) => {
  await signIn(page, 'Lesya_Support');
  await open(page, '/org/kyiv-cyberleague/manage');
  await settled(page);
  await expect(page.locator('[data-discord]')).toHaveCount(0);
});
