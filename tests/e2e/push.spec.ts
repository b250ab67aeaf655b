import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { type AppInstance, freePort, startInstance } from './app-instance.ts';
import { expect, freshPlayer, open, signIn, test } from './fixtures.ts';

/*
 * Issue 60: the site installs as an app (a manifest with its icons, a service worker that caches
 * nothing), and web push's controls are in the cabinet only where the site has push (PUSH_SUBJECT)
 * and the browser can take it. Playwright's server runs without PUSH_SUBJECT; a second instance of
 * the same build runs with it.
 */


test('the manifest names the app, its start and its icons, each of which is served', async ({ request }) => {
  const answer = await request.get('/manifest.webmanifest');
  expect(answer.ok()).toBe(true);
  const manifest = (await answer.json()) as { name: string; short_name: string; start_url: string; display: string; lang: string; icons: { src: string; sizes: string; purpose: string; type: string }[] };
  expect(manifest).toMatchObject({ name: 'Кіберарена', short_name: 'Кіберарена', start_url: '/', display: 'standalone', lang: 'uk' });
  for (const size of ['192x192', '512x512']) expect(manifest.icons.some((icon) => icon.sizes === size && icon.purpose === 'any')).toBe(true);
  expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons) {
    const file = await request.get(icon.src);
    expect(file.status(), icon.src).toBe(200);
    expect(file.headers()['content-type'], icon.src).toContain(icon.type);
  }
  expect((await request.get('/icons/apple-touch-icon.png')).status()).toBe(200);
  expect((await request.get('/icons/badge-96.png')).status()).toBe(200);
});

test('the service worker is served as a script that is checked on every visit, and it caches nothing', async ({ request }) => {
  const answer = await request.get('/sw.js');
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toMatch(/javascript/);
  expect(answer.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  const script = await answer.text();
  expect(script).toContain("addEventListener('push'");
  expect(script).toContain("addEventListener('notificationclick'");
  // No Cache Storage and no fetch handler: every page and API answer comes from the network.
  expect(script).not.toMatch(/caches\.|addEventListener\('fetch'/);
});

test('without PUSH_SUBJECT the cabinet shows no push controls, and registers no service worker', async ({ page, context }) => {
  await context.grantPermissions(['notifications']);
  expect(await (await page.request.get('/api/push/key')).json()).toEqual({ enabled: false });
  const { nick, password } = await freshPlayer(page, 'push');
  await signIn(page, nick, password);
  const keyRead = page.waitForResponse((answer) => answer.url().endsWith('/api/push/key'));
  await open(page, '/cabinet');
  const settings = await shown(page);
  await expect(settings.getByRole('columnheader', { name: 'Листом' })).toBeVisible();
  // The island has asked whether the site has push: what it shows now is its answer.
  expect(await (await keyRead).json()).toEqual({ enabled: false });
  await expect(settings.getByRole('columnheader', { name: 'На пристрій' })).toHaveCount(0);
  await expect(page.getByRole('switch', { name: 'Сповіщення на пристрій' })).toHaveCount(0);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});

test.describe('with PUSH_SUBJECT', () => {
  test.describe.configure({ mode: 'serial' });
  let app: AppInstance;
  let dataDir: string;
  const admin = { email: 'push-admin@e2e.test', password: 'push-admin-password' };

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    dataDir = mkdtempSync(join(tmpdir(), 'kiberarena-push-'));
    app = await startInstance(await freePort(), { DATA_DIR: dataDir, DATABASE_URL: '', PUSH_SUBJECT: 'mailto:ops@e2e.test', ADMIN_EMAIL: admin.email, ADMIN_PASSWORD: admin.password });
  });

  test.afterAll(async () => {
    await app?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The cabinet of the instance with push, signed in as its admin. */
  async function cabinet(page: Page) {
    const login = await page.request.post(`${app.url}/api/auth/login`, { data: { loginOrEmail: admin.email, password: admin.password } });
    const { token } = (await login.json()) as { token: string };
    await page.addInitScript((value) => localStorage.setItem('token', value), token);
    await page.goto(`${app.url}/cabinet`);
    return shown(page);
  }

  test('the key made at the first start is served, and the cabinet shows the switch and the devices’ column', async ({ page, context }) => {
    await context.grantPermissions(['notifications'], { origin: app.url });
    const key = (await (await page.request.get(`${app.url}/api/push/key`)).json()) as { enabled: boolean; publicKey: string };
    expect(key.enabled).toBe(true);
    expect(key.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    const settings = await cabinet(page);
    await expect(settings.getByRole('columnheader', { name: 'На пристрій' })).toBeVisible();
    await expect(settings.getByRole('switch', { name: 'Сповіщення на пристрій' })).toBeEnabled();
    await expect(settings.getByRole('switch', { name: 'Сповіщення на пристрій' })).not.toBeChecked();
  });

  test('a reader who blocked notifications is told how to allow them, and the switch waits', async ({ page, context }) => {
    // As a browser reports a reader's refusal (Playwright can grant a permission, not refuse one).
    await context.clearPermissions();
    await page.addInitScript(() => {
      Object.defineProperty(Notification, 'permission', { get: () => 'denied' });
      Notification.requestPermission = () => Promise.resolve('denied');
    });
    const settings = await cabinet(page);
    await expect(settings.getByText(/Сповіщення для цього сайту заборонено в браузері/)).toBeVisible();
    await expect(settings.getByRole('switch', { name: 'Сповіщення на пристрій' })).toBeDisabled();
  });

  test('turning it on registers the service worker, which shows a push’s notice with the site’s icon and link', async ({ page, context }) => {
    await context.grantPermissions(['notifications'], { origin: app.url });
    const settings = await cabinet(page);
    await settings.getByRole('switch', { name: 'Сповіщення на пристрій' }).click();
    // Chromium without a push service of its own may refuse the subscription; the worker is registered either way.
    await expect(settings.getByRole('status').or(settings.getByRole('alert')).first()).toBeVisible();
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${app.url}/`);
    const shown = await deliverPush(page, await context.newCDPSession(page), { title: 'Матч готовий', body: 'Ваш суперник чекає.', url: '/matches/1', tag: 'n-1', lang: 'uk' });
    expect(shown).toEqual({ title: 'Матч готовий', body: 'Ваш суперник чекає.', icon: `${app.url}/icons/icon-192.png`, tag: 'n-1', url: `${app.url}/matches/1` });
    // A link to another site opens the home page instead.
    const elsewhere = await deliverPush(page, await context.newCDPSession(page), { title: 'x', body: 'y', url: 'https://evil.test/', tag: 'n-2' });
    expect(elsewhere.url).toBe(`${app.url}/`);
  });
});

/**
 * The cabinet's notice settings, scrolled to until they hydrated (`client:visible`: the cabinet's
 * other islands may push them out of view again as they fill in).
 */
async function shown(page: Page) {
  const settings = page.getByRole('region', { name: 'Сповіщення' });
  await expect(async () => {
    await settings.scrollIntoViewIfNeeded();
    await expect(settings.getByRole('columnheader', { name: 'Подія' })).toBeVisible({ timeout: 1000 });
  }).toPass();
  return settings;
}

/** Delivers `payload` to the page's service worker as its push service would (DevTools' push), and reads back the notice it showed. */
async function deliverPush(page: Page, client: CDPSession, payload: Record<string, string>) {
  // Listening before enabling: enabling reports the registrations there are.
  const registered = new Promise<string>((resolve) => {
    client.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }: { registrations: { registrationId: string; isDeleted: boolean }[] }) => {
      const live = registrations.find((r) => !r.isDeleted);
      if (live) resolve(live.registrationId);
    });
  });
  await client.send('ServiceWorker.enable');
  const registrationId = await registered;
  const origin = new URL(page.url()).origin;
  await client.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(payload) });
  return page.evaluate(async (tag) => {
    const registration = await navigator.serviceWorker.ready;
    for (let i = 0; i < 50; i++) {
      const [notice] = await registration.getNotifications({ tag });
      if (notice) return { title: notice.title, body: notice.body, icon: notice.icon, tag: notice.tag, url: (notice.data as { url: string }).url };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`no notice with tag ${tag}`);
  }, payload.tag!);
}
