import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { ADMIN_SECTIONS, adminSectionHref, DEFAULT_ADMIN_SECTION } from '../../src/islands/admin/admin-sections.ts';
import { everyPage, expect, hydrated, settled, test } from './fixtures.ts';

/** Serious and critical problems found by axe on the page as it is now. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
}

for (const theme of ['dark', 'light'] as const) {
  test(`every page passes axe for a guest (${theme} theme)`, async ({ page }) => {
    // Fifteen pages with axe each: minutes on a busy two-core machine.
    test.setTimeout(240_000);
    await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
    const found: Record<string, string[]> = {};
    for (const path of await everyPage(page)) {
      await page.goto(path);
      // A guest is sent home from the admin pages once the session is known: axe must not run across that.
      if (path.startsWith('/admin')) await page.waitForURL('/');
      await hydrated(page);
      const problems = await violations(page);
      if (problems.length) found[path] = problems;
    }
    expect(found).toEqual({});
  });
}

test('every page passes axe for an admin', async ({ admin: page }) => {
  test.setTimeout(240_000);
  const found: Record<string, string[]> = {};
  // Every section of the admin page, not only the one /admin opens with.
  const adminSections = ADMIN_SECTIONS.filter((section) => section !== DEFAULT_ADMIN_SECTION).map(adminSectionHref);
  for (const path of [...(await everyPage(page)), ...adminSections]) {
    await page.goto(path);
    // Signed-in widgets (bell, admin panels) load their data before we look.
    await settled(page);
    const problems = await violations(page);
    if (problems.length) found[path] = problems;
  }
  expect(found).toEqual({});
});
