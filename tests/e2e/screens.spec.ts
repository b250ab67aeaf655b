import { everyPage, expect, settled, signIn, test } from './fixtures.ts';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { ADMIN_SECTIONS, adminSectionHref, DEFAULT_ADMIN_SECTION } from '../../src/islands/admin/admin-sections.ts';

/** The admin page's other sections (the default one is `/admin` itself). */
const adminSections = ADMIN_SECTIONS.filter((section) => section !== DEFAULT_ADMIN_SECTION).map(adminSectionHref);

// Screenshots of every page at phone and desktop width, in both themes, kept as test artifacts
// (under the test output folder) for people to look at; nothing is compared with a baseline.

const slug = (path: string) => path.replace(/[0-9a-f-]{36}/g, 'id').replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'home';

for (const width of [360, 1280]) {
  for (const theme of ['dark', 'light'] as const) {
    test(`every page fits ${width} px in the ${theme} theme (screenshots attached)`, async ({ page }, testInfo) => {
      test.setTimeout(300_000);
      await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
      await page.addInitScript((value) => localStorage.setItem('theme', value), theme);
      await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
      const overflowing: string[] = [];
      for (const path of [...(await everyPage(page)), ...adminSections]) {
        await page.goto(path);
        // Signed-in widgets (bell, admin panels) load their data before we look.
        await settled(page);
        // Only the bracket drawing may scroll sideways, inside its own box.
        const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        if (pageWidth > width) overflowing.push(`${path}: ${pageWidth}px`);
        await page.screenshot({ path: testInfo.outputPath(`${slug(path)}-${width}-${theme}.png`), fullPage: true });
      }
      expect(overflowing).toEqual([]);
    });
  }
}
