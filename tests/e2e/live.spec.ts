import { expect, test, type Page } from '@playwright/test';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';
import { type AppInstance, freePort, startInstance } from './app-instance.ts';

/*
 * Live pages across instances (issue 22): two app instances on one PostgreSQL, as behind a load
 * balancer. A result saved through A reaches a viewer of B's bracket page through B's event
 * stream (LISTEN/NOTIFY between them), without a reload; with the stream blocked, the page
 * still follows through SPEC's 5 s poll.
 */
const base = process.env.TEST_DATABASE_URL;
test.skip(!base, 'needs PostgreSQL (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

const ADMIN = { loginOrEmail: 'admin@live.test', password: 'live-admin-password' };
let database: ScratchDatabase;
let a: AppInstance;
let b: AppInstance;
let admin: string;
let tournamentId: string;

async function call<T>(instance: AppInstance, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(admin ? { authorization: `Bearer ${admin}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
}

test.beforeAll(async () => {
  test.setTimeout(150_000);
  database = await createScratchDatabase(base!, 'kiberarena_live');
  const env = { DATABASE_URL: database.url, SEED_DEMO: 'true', ADMIN_EMAIL: ADMIN.loginOrEmail, ADMIN_PASSWORD: ADMIN.password };
  [a, b] = await Promise.all([startInstance(Number(process.env.E2E_PORT ?? 4399) + 1, env), freePort().then((port) => startInstance(port, env))]);
  const login = await call<{ token: string }>(a, 'POST', '/api/auth/login', ADMIN);
  admin = login.body.token;
  // A demo tournament with four participants or more, drawn afresh through A.
  const list = await call<{ _id: string; status: string }[]>(a, 'GET', '/api/tournaments');
  // A finished tournament's results are closed.
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
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

/** Saves a result of the first match that is ready, through A. */
async function saveResultThroughA(): Promise<void> {
  const stages = await call<StagesState>(a, 'GET', `/api/tournaments/${tournamentId}/stages`);
  const match = stages.body.stages[0]!.matches.find((m) => m.status === 'ready')!;
  const saved = await call(a, 'PATCH', `/api/matches/${match._id}`, { version: match.version, scoreA: 1, scoreB: 0 });
  expect(saved.status).toBe(200);
}

/** How many matches the page's progress line says are played. */
async function playedOn(page: Page): Promise<number> {
  const text = await page.getByText(/Зіграно матчів: \d+ з \d+/).textContent();
  return Number(/Зіграно матчів: (\d+)/.exec(text ?? '')![1]);
}

test('a result saved through one instance appears on a viewer’s bracket page of the other within two seconds, without a reload, read from the regions the event names', async ({ page }) => {
  const stream = page.waitForResponse((r) => r.url().endsWith(`/api/tournaments/${tournamentId}/events`) && r.status() === 200);
  await page.goto(`${b.url}/tournament/${tournamentId}/bracket`);
  await stream;
  const played = await playedOn(page);
  // Set on this document only: a reload would lose it.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));
  const asked: string[] = [];
  page.on('request', (request) => asked.push(new URL(request.url()).pathname + new URL(request.url()).search));

  await saveResultThroughA();
  // The event reaches every viewer at once; each reads at a moment of its own within a second after it.
  await expect(page.getByText(`Зіграно матчів: ${played + 1} з`)).toBeVisible({ timeout: 2_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
  // Only the page's regions, at an address every viewer of this event shares; never the whole page again.
  expect(asked.filter((path) => path.startsWith(`/tournament/${tournamentId}/bracket`))).toEqual([expect.stringMatching(new RegExp(`^/tournament/${tournamentId}/bracket/live\\?v=[0-9a-f-]{36}$`))]);
});

test('with the event stream blocked, the bracket page still follows through the 5 s poll', async ({ page }) => {
  let blocked = 0;
  await page.route('**/events', (route) => {
    blocked++;
    return route.abort();
  });
  await page.goto(`${b.url}/tournament/${tournamentId}/bracket`);
  await expect.poll(() => blocked).toBeGreaterThan(0);
  const played = await playedOn(page);
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  await saveResultThroughA();
  await expect(page.getByText(`Зіграно матчів: ${played + 1} з`)).toBeVisible({ timeout: 12_000 });
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
});
