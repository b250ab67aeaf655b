import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD } from '../../src/server/db/seed.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';
import { type AppInstance, startInstance } from './app-instance.ts';

/*
 * The database stops or hangs under a running app, then comes back. The app talks to a real
 * PostgreSQL through a TCP proxy the test controls; nothing is restarted.
 */
const base = process.env.TEST_DATABASE_URL;
test.skip(!base, 'needs PostgreSQL (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

const PORT = Number(process.env.E2E_PORT ?? 4399) + 11;
const UNAVAILABLE = 'Сервіс тимчасово недоступний. Спробуйте пізніше.';
let proxy: TcpProxy;
let database: ScratchDatabase;
let app: AppInstance;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  database = await createScratchDatabase(base!, 'kiberarena_faults');
  proxy = await startTcpProxy({ host: new URL(base!).hostname, port: Number(new URL(base!).port || 5432) });
  const url = new URL(database.url);
  url.host = `127.0.0.1:${proxy.port}`;
  app = await startInstance(PORT, { DATABASE_URL: url.href, SEED_DEMO: 'true', ADMIN_PASSWORD: 'faults-admin-password' });
});

test.afterAll(async () => {
  await app?.stop();
  await proxy?.close();
  await database?.drop();
});

/** Milliseconds a request took, with its answer. */
async function timed(path: string, init?: RequestInit) {
  const started = Date.now();
  const response = await fetch(`${app.url}${path}`, init);
  return { response, ms: Date.now() - started, body: await response.text() };
}

test('a healthy database serves the API and the pages', async ({ page }) => {
  expect((await timed('/api/tournaments')).response.status).toBe(200);
  await page.goto(`${app.url}/tournaments`);
  await expect(page.getByRole('alert')).toHaveCount(0);
});

/**
 * The address of `path` that no held answer serves: a query parameter no page or read takes
 * (`acceptsQuery`, serving/answer-cache.ts), new each time. A public answer the server made in the last 30 s is
 * served from memory whatever the database does; these go to the database.
 */
let asked = 0;
const uncached = (path: string) => `${path}${path.includes('?') ? '&' : '?'}fault=${++asked}`;

test('with the database stopped the API answers 503 JSON at once, and the pages show an error', async ({ page }) => {
  expect((await timed('/api/games')).response.status).toBe(200);
  proxy.set('down');
  // What the server holds is still served: a guest reads it rather than an error.
  expect((await timed('/api/games')).response.status).toBe(200);
  for (const path of ['/api/tournaments', '/api/news', '/api/games', '/api/health'].map(uncached)) {
    const { response, ms, body } = await timed(path);
    expect(response.status, path).toBe(503);
    expect(ms, path).toBeLessThan(2000);
    expect(response.headers.get('content-type'), path).toBe('application/json; charset=utf-8');
    expect(JSON.parse(body).message ?? JSON.parse(body).status, path).toBeTruthy();
  }
  const refused = await timed(uncached('/api/tournaments'));
  expect(JSON.parse(refused.body)).toEqual({ message: UNAVAILABLE });
  expect(refused.response.headers.get('retry-after')).toBe('5');
  // A sign-in attempt is refused the same way, not as a wrong password.
  const login = await timed('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginOrEmail: 'KozakSniper', password: DEMO_PASSWORD }),
  });
  expect(login.response.status).toBe(503);

  for (const path of ['/', '/tournaments', '/news', '/leaderboards'].map(uncached)) {
    const started = Date.now();
    const response = await page.goto(`${app.url}${path}`);
    expect(response?.status(), path).toBe(503);
    expect(response?.headers()['cache-control'], path).toBe('no-store');
    await expect(page.getByRole('alert').first(), path).toBeVisible();
    expect(Date.now() - started, path).toBeLessThan(5000);
  }
  await page.goto(`${app.url}${uncached('/')}`);
  await expect(page.getByRole('alert')).toHaveText(UNAVAILABLE);
});

test('with the database hanging the API gives up with 503 within seconds instead of hanging', async () => {
  proxy.set('up');
  // Warm the pool, so the hang meets connections already open as well as new ones.
  await Promise.all(Array.from({ length: 4 }, () => timed(uncached('/api/tournaments'))));
  proxy.set('hanging');
  const paths = ['/api/tournaments', '/api/news', '/api/games', '/api/tournaments'].map(uncached);
  const answers = await Promise.all(paths.map((path) => timed(path)));
  for (const [i, { response, ms, body }] of answers.entries()) {
    expect(response.status, paths[i]).toBe(503);
    expect(JSON.parse(body), paths[i]).toEqual({ message: UNAVAILABLE });
    expect(ms, paths[i]).toBeLessThan(7000);
  }
  expect((await timed('/api/health')).response.status).toBe(503);
});

test('when the database returns the app recovers without a restart', async ({ page }) => {
  proxy.set('up');
  // A keep-alive socket closed while the database was away may reset once: that is "not yet", not a failure.
  await expect
    .poll(async () => (await timed('/api/health').catch(() => null))?.response.status, { timeout: 15_000 })
    .toBe(200);
  const list = await timed('/api/tournaments');
  expect(list.response.status).toBe(200);
  expect(JSON.parse(list.body).length).toBeGreaterThan(0);
  const response = await page.goto(`${app.url}/tournaments`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // Signing in and a write work again too.
  const login = await timed('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ loginOrEmail: 'KozakSniper', password: DEMO_PASSWORD }),
  });
  expect(login.response.status).toBe(200);
});
