import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_DATA_DIR } from '../../playwright.config.ts';

/** The confirmation link of the newest letter written to the outbox for `email`. */
export async function confirmationLink(email: string): Promise<string> {
  const dir = join(E2E_DATA_DIR, 'outbox');
  const safe = email.replace(/[^a-z0-9@._-]/gi, '_');
  for (let attempt = 0; attempt < 20; attempt++) {
    const files = (await readdir(dir).catch(() => [])).filter((f) => f.endsWith(`-${safe}.eml`)).sort();
    const newest = files.at(-1);
    if (newest) {
      // Quoted-printable soft line breaks would split the link; join them first.
      const text = (await readFile(join(dir, newest), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
      const link = text.match(/https?:\/\/\S+\/confirm\?token=[\w-]+/)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no confirmation letter for ${email}`);
}

/**
 * Waits until the page's islands have hydrated, so clicks reach React and not bare HTML. Islands
 * that wait to be scrolled into view (`client:visible`) are not waited for.
 */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr]:not([client="visible"])').length === 0);
}

/**
 * Waits until the signed-in user's bell has its first list (the bell sets `data-loaded` then): the
 * readiness of the bell itself, however long the session check and the bell's chunk take.
 */
export async function bellLoaded(page: Page) {
  await page.locator('[data-loaded="true"]:has(> button[aria-controls="notification-panel"])').waitFor();
}

/** Opens a page and waits for its islands. */
export async function open(page: Page, path: string) {
  await page.goto(path);
  await hydrated(page);
}

/** Every page a person can open, with ids taken from the demo data. */
export async function everyPage(page: Page): Promise<string[]> {
  const tournaments = (await (await page.request.get('/api/tournaments')).json()) as { _id: string; game: string }[];
  const news = (await (await page.request.get('/api/news')).json()) as { _id: string }[];
  const first = tournaments[0];
  return [
    '/',
    '/tournaments',
    '/games',
    `/games/${first?.game}`,
    `/tournaments/${first?._id}`,
    `/tournament/${first?._id}/bracket`,
    '/news',
    `/news/${news[0]?._id}`,
    '/leaderboards',
    '/login',
    '/register',
    '/confirm',
    '/team',
    '/cabinet',
    '/admin',
    '/admin-tournaments',
  ];
}

/** Signs in through the login form, as a person would. */
export async function logIn(page: Page, loginOrEmail: string, password: string) {
  await open(page, '/login');
  await page.getByLabel('Нікнейм або email').fill(loginOrEmail);
  await page.getByLabel('Пароль').fill(password);
  await page.getByRole('button', { name: 'Увійти', exact: true }).click();
  await expect(page).toHaveURL('/');
}

export const test = base.extend<{ admin: Page }>({
  admin: async ({ page }, use) => {
    await logIn(page, E2E_ADMIN.email, E2E_ADMIN.password);
    await use(page);
  },
});

export { expect };
