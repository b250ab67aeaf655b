import { existsSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import { expect, test, type Page } from '@playwright/test';
import { NGINX, startLocalNginx, testNginxConfig, type LocalNginx } from '../../deploy/nginx-local.ts';
import { SERVER_MALLOC, serverNodeOptions } from '../../scripts/server-memory.ts';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';
import { type AppInstance, startInstance } from './app-instance.ts';

/*
 * Production as docs/deployment.md runs it (issue 55): the shipped deploy/nginx.conf (its ports,
 * folders and certificate moved by deploy/nginx-local.ts, nothing else) in front of two instances
 * on one PostgreSQL with Redis. Through nginx, over TLS: guests' pages come from its micro-cache,
 * a writer and a signed-in reader get past it, a result saved through either instance reaches a
 * viewer whose page and stream nginx gave to one of them, and an event stream is not buffered.
 */
test.describe.configure({ mode: 'serial' });
// The test's certificate is self-signed.
test.use({ ignoreHTTPSErrors: true });

const E2E_PORT = Number(process.env.E2E_PORT ?? 4399);
const PORTS = { a: E2E_PORT + 20, b: E2E_PORT + 21, https: E2E_PORT + 22, http: E2E_PORT + 23, plain: E2E_PORT + 24 };
const FOLDER = `/tmp/kiberarena-e2e-nginx-${E2E_PORT}`;
const ADMIN = { loginOrEmail: 'admin@nginx.test', password: 'nginx-admin-password' };

const base = process.env.TEST_DATABASE_URL;
const redis = process.env.TEST_REDIS_URL;
const missing = !existsSync(NGINX)
  ? `needs Debian's nginx (${NGINX}: apt-get install nginx)`
  : !base
    ? 'needs PostgreSQL (TEST_DATABASE_URL)'
    : !redis
      ? 'needs Redis (TEST_REDIS_URL)'
      : null;
// CI installs all three (.ci/run): there a missing one is a failure, not a skip.
test.skip(missing !== null && !process.env.CI, missing ?? '');

let database: ScratchDatabase;
let a: AppInstance;
let b: AppInstance;
let nginx: LocalNginx;
let admin: string;
let tournamentId: string;

/** Redis for these instances: a database number of their own, so rate-limit counters of other runs are not theirs. */
function ownRedis(url: string): string {
  const own = new URL(url);
  own.pathname = '/9';
  return own.href;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to nginx over TLS, trusting the run's certificate (Node's fetch cannot be told to). */
function throughNginx(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.get(`${nginx.url}${path}`, { ca: readFileSync(nginx.certificate), headers, agent: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.setTimeout(15_000, () => request.destroy(new Error(`${path}: no answer through nginx in 15 s`)));
  });
}

/** A call straight to one instance, as the admin. */
async function call<T>(instance: AppInstance, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(admin ? { authorization: `Bearer ${admin}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

/** Saves a result of the first match that is ready, straight through `instance`. */
async function saveResultThrough(instance: AppInstance): Promise<void> {
  const stages = await call<StagesState>(instance, 'GET', `/api/tournaments/${tournamentId}/stages`);
  const match = stages.body.stages[0]!.matches.find((m) => m.status === 'ready');
  expect(match, 'a match ready to be played').toBeTruthy();
  const saved = await call(instance, 'PATCH', `/api/matches/${match!._id}`, { version: match!.version, scoreA: 1, scoreB: 0 });
  expect(saved.status).toBe(200);
}

/** How many matches the bracket page's progress line says are played. */
async function playedOn(page: Page): Promise<number> {
  const text = await page.getByText(/Зіграно матчів: \d+ з \d+/).textContent();
  return Number(/Зіграно матчів: (\d+)/.exec(text ?? '')![1]);
}

test.beforeAll(async () => {
  if (missing) throw new Error(`nginx.spec.ts ${missing}`);
  test.setTimeout(120_000);
  rmSync(FOLDER, { recursive: true, force: true });
  database = await createScratchDatabase(base!, 'kiberarena_nginx');
  // As production runs them: npm start's memory settings, nginx on loopback trusted for X-Forwarded-*.
  const env = (name: string) => ({
    DATABASE_URL: database.url,
    REDIS_URL: ownRedis(redis!),
    TRUST_PROXY: 'loopback',
    DATA_DIR: `${FOLDER}/${name}`,
    SEED_DEMO: 'true',
    ADMIN_EMAIL: ADMIN.loginOrEmail,
    ADMIN_PASSWORD: ADMIN.password,
    NODE_OPTIONS: serverNodeOptions(false).join(' '),
    ...SERVER_MALLOC,
  });
  [a, b, nginx] = await Promise.all([
    startInstance(PORTS.a, env('a')),
    startInstance(PORTS.b, env('b')),
    startLocalNginx({ prefix: `${FOLDER}/nginx`, upstreams: [PORTS.a, PORTS.b], http: PORTS.http, https: PORTS.https, plain: PORTS.plain }),
  ]);
  const login = await call<{ token: string }>(a, 'POST', '/api/auth/login', ADMIN);
  expect(login.status).toBe(200);
  admin = login.body.token;
  // A demo tournament still running with four participants or more, drawn afresh through A.
  const list = await call<{ _id: string; status: string }[]>(a, 'GET', '/api/tournaments');
  for (const { _id } of list.body.filter((t) => t.status !== 'finished')) {
    const state = await call<{ participants: unknown[] }>(a, 'GET', `/api/tournaments/${_id}/bracket`);
    if (state.body.participants.length >= 4) {
      tournamentId = _id;
      break;
    }
  }
  expect(tournamentId, 'a demo tournament with four participants').toBeTruthy();
  expect((await call(a, 'POST', `/api/tournaments/${tournamentId}/bracket`, { seeding: 'order', replace: true })).status).toBe(201);
});

test.afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
  // FOLDER keeps the instances' and nginx's logs until the next run.
});

test('the shipped configuration passes nginx -t, and plain HTTP is sent to HTTPS', async () => {
  expect(testNginxConfig(`${nginx.prefix}/nginx.conf`, nginx.prefix)).toContain('test is successful');
  const redirect = await fetch(`${nginx.httpUrl}/tournaments?game=1`, { redirect: 'manual' });
  expect(redirect.status).toBe(301);
  expect(redirect.headers.get('location')).toBe('https://kiberarena.ua/tournaments?game=1');
});

test('a guest’s page is held by nginx for the next guest; a writer, a token and an answer not public get past it', async ({ browser }) => {
  // A page loads through nginx over TLS; the instance that rendered it says it came over HTTPS.
  const first = await browser.newContext();
  const page = await first.newPage();
  const loaded = await page.goto(`${nginx.url}/news`);
  expect(loaded?.status()).toBe(200);
  expect(loaded?.headers()['strict-transport-security']).toContain('max-age=');
  await expect(page.locator('h1')).toBeVisible();
  await first.close();
  // Another guest a moment later gets nginx's copy: HIT, or STALE/UPDATING when its 3 s passed on a busy machine (still not asking an instance).
  const second = await browser.newContext();
  const again = await (await second.newPage()).goto(`${nginx.url}/news`);
  expect(again?.status()).toBe(200);
  expect(['HIT', 'STALE', 'UPDATING']).toContain(again?.headers()['x-cache-status']);
  await second.close();

  const guest = { 'accept-encoding': 'br' };
  await throughNginx('/tournaments', guest);
  const held = await throughNginx('/tournaments', guest);
  expect(held.status).toBe(200);
  expect(['HIT', 'STALE', 'UPDATING']).toContain(held.headers['x-cache-status']);
  // The writer of a change (the cookie a write sets, src/middleware.ts) and a signed-in reader are answered by an instance.
  expect((await throughNginx('/tournaments', { ...guest, cookie: 'lang=uk; kiberarena_wrote=1' })).headers['x-cache-status']).toBe('BYPASS');
  expect((await throughNginx('/tournaments', { ...guest, authorization: `Bearer ${admin}` })).headers['x-cache-status']).toBe('BYPASS');
  // The language is in the key: an English reader never gets the Ukrainian copy.
  const english = await throughNginx('/tournaments', { cookie: 'lang=en' });
  expect(english.body).toMatch(/<html[^>]* lang="en"/);
  expect((await throughNginx('/tournaments', { cookie: 'lang=en' })).body).toMatch(/<html[^>]* lang="en"/);
  expect((await throughNginx('/tournaments')).body).toMatch(/<html[^>]* lang="uk"/);
  // `Cache-Control: no-store` (the health probe) and `private` (a signed-in reader's own answer) are never held.
  for (let i = 0; i < 2; i++) expect((await throughNginx('/api/health')).headers['x-cache-status']).toBe('MISS');
  const me = await throughNginx('/api/users/me', { authorization: `Bearer ${admin}` });
  expect(me.status).toBe(200);
  expect((await throughNginx('/api/users/me')).status).toBe(401);
});

test('a result saved through either instance reaches a viewer of the bracket page through nginx, without a reload', async ({ page }) => {
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/tournaments/${tournamentId}/events`) && r.status() === 200);
  await page.goto(`${nginx.url}/tournament/${tournamentId}/bracket`);
  await stream;
  const played = await playedOn(page);
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  // nginx gave the page's stream to one instance: a result through B, then one through A, so one of
  // them crossed from the other instance (Redis), and the page's reads after each event went through nginx.
  await saveResultThrough(b);
  await expect(page.getByText(`Зіграно матчів: ${played + 1} з`)).toBeVisible({ timeout: 5_000 });
  await saveResultThrough(a);
  await expect(page.getByText(`Зіграно матчів: ${played + 2} з`)).toBeVisible({ timeout: 5_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});

test('an event stream through nginx is not buffered: each event arrives as it is sent', async () => {
  const frames: { text: string; at: number }[] = [];
  const request = https.get(`${nginx.url}/api/tournaments/${tournamentId}/events`, { ca: readFileSync(nginx.certificate), agent: false });
  try {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/event-stream');
    response.setEncoding('utf8');
    response.on('data', (text: string) => frames.push({ text, at: performance.now() }));
    // The first frame is a few dozen bytes: a buffering proxy would sit on it.
    await expect.poll(() => frames.some((f) => f.text.includes('event: ready')), { timeout: 3_000 }).toBe(true);
    const sent = performance.now();
    await saveResultThrough(b);
    await expect.poll(() => frames.some((f) => f.text.includes('event: match')), { timeout: 3_000 }).toBe(true);
    const arrived = frames.find((f) => f.text.includes('event: match'))!.at;
    expect(arrived - sent).toBeLessThan(2_000);
  } finally {
    request.destroy();
  }
});
