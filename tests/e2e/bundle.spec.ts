import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page, Response } from '@playwright/test';
import { E2E_ADMIN } from '../../playwright.config.ts';
import { expect, open, signIn, test } from './fixtures.ts';

/** The browser build the test server serves (playwright.config.ts starts it from BUILD_DIR). */
const CLIENT_SCRIPTS = join(process.env.BUILD_DIR ?? 'dist', 'client', '_astro');

test('no browser script carries zod: the API schemas stay on the server (about 21 KB compressed)', async () => {
  const scripts = (await readdir(CLIENT_SCRIPTS)).filter((name) => name.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  const carrying: string[] = [];
  for (const name of scripts) {
    if ((await readFile(join(CLIENT_SCRIPTS, name), 'utf8')).includes('ZodError')) carrying.push(name);
  }
  expect(carrying).toEqual([]);
});

/**
 * The scripts the home page loads, read once the last of them has done its work: the particle layer
 * (loaded when the browser is idle) has drawn, and `ready` is visible. Scripts that come later are
 * not listened for, so reading one is never cut short by the test's end.
 */
async function homeScripts(page: Page, ready?: Locator): Promise<string[]> {
  const loaded: Promise<string>[] = [];
  const onResponse = (response: Response) => {
    if (response.request().resourceType() === 'script') loaded.push(response.text());
  };
  page.on('response', onResponse);
  await open(page, '/');
  await expect(page.locator('#background-particles canvas')).toHaveCount(1, { timeout: 10_000 });
  if (ready) await expect(ready).toBeVisible();
  page.off('response', onResponse);
  return Promise.all(loaded);
}

/** Text only the API client (ky) has, and a key only the full catalog has, not the layout's. */
const MARKERS = { apiClient: 'Response schema validation failed', fullCatalog: '"tournament.participants"' };

test("a guest's home page downloads neither the API client nor the full catalog (issue 11's 100 KB)", async ({ page }) => {
  // Both are in the build, so their absence below means the page did not ask for them.
  const built = await Promise.all(
    (await readdir(CLIENT_SCRIPTS)).filter((name) => name.endsWith('.js')).map((name) => readFile(join(CLIENT_SCRIPTS, name), 'utf8')),
  );
  for (const marker of Object.values(MARKERS)) expect(built.some((code) => code.includes(marker)), marker).toBe(true);

  const scripts = await homeScripts(page);
  expect(scripts.length).toBeGreaterThan(0);
  for (const marker of Object.values(MARKERS)) expect(scripts.some((code) => code.includes(marker)), marker).toBe(false);
});

test("a guest's list of tournaments loads its island with its own texts, not the full catalog (issue 11's 100 KB)", async ({ page }) => {
  const loaded: Promise<string>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') loaded.push(response.text());
  });
  await open(page, '/games/all');
  // Hydrated: the filters the island runs are enabled, so its scripts have all been fetched.
  await expect(page.getByRole('combobox', { name: /^Статус/ })).toBeEnabled();
  const scripts = await Promise.all(loaded);
  expect(scripts.some((code) => code.includes('"tournaments.filtersLabel"'))).toBe(true);
  expect(scripts.some((code) => code.includes(MARKERS.fullCatalog))).toBe(false);
});

test("a signed-in reader's home page adds the bell and the API client, still without the full catalog", async ({ page }) => {
  await signIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
  const scripts = await homeScripts(page, page.getByRole('button', { name: /^Сповіщення/ }));
  expect(scripts.some((code) => code.includes(MARKERS.apiClient))).toBe(true);
  expect(scripts.some((code) => code.includes(MARKERS.fullCatalog))).toBe(false);
});
