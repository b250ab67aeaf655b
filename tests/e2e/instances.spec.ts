import { expect, test } from '@playwright/test';
import { setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { DEMO_PASSWORD } from '../../src/server/db/seed.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';
import { type AppInstance, startInstance } from './app-instance.ts';

/*
 * Two app instances on one PostgreSQL, as behind a load balancer: nothing that matters lives in
 * an instance's memory, so what one does the other sees.
 */
const base = process.env.TEST_DATABASE_URL;
test.skip(!base, 'needs PostgreSQL (TEST_DATABASE_URL)');
test.describe.configure({ mode: 'serial' });

const PORT = Number(process.env.E2E_PORT ?? 4399) + 12;
const ADMIN = { loginOrEmail: 'admin@instances.test', password: 'instances-admin-password' };
let database: ScratchDatabase;
let a: AppInstance;
let b: AppInstance;

test.beforeAll(async () => {
  test.setTimeout(150_000);
  database = await createScratchDatabase(base!, 'kiberarena_instances');
  // Both start at once on an empty database: one migrates and seeds, the other waits and finds it done.
  const env = { DATABASE_URL: database.url, SEED_DEMO: 'true', ADMIN_EMAIL: ADMIN.loginOrEmail, ADMIN_PASSWORD: ADMIN.password };
  [a, b] = await Promise.all([startInstance(PORT, env), startInstance(PORT + 1, env)]);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

async function call<T>(instance: AppInstance, method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${instance.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
}

const logIn = async (instance: AppInstance, credentials: { loginOrEmail: string; password: string }) => {
  const res = await call<{ token: string }>(instance, 'POST', '/api/auth/login', { body: credentials });
  expect(res.status).toBe(200);
  return res.body.token;
};

test('both instances came up on one database, seeded once', async () => {
  const [fromA, fromB] = await Promise.all([call<unknown[]>(a, 'GET', '/api/games'), call<unknown[]>(b, 'GET', '/api/games')]);
  expect(fromA.status).toBe(200);
  // The five demo games, not ten: the second instance found the data and did not seed again.
  expect(fromA.body).toHaveLength(5);
  expect(fromB.body).toEqual(fromA.body);
});

test('a session made on one instance works on the other, and signing out on either ends it on both', async () => {
  const token = await logIn(a, { loginOrEmail: 'KozakSniper', password: DEMO_PASSWORD });
  const me = await call<{ username: string }>(b, 'GET', '/api/users/me', { token });
  expect(me.status).toBe(200);
  expect(me.body.username).toBe('KozakSniper');
  expect((await call(b, 'POST', '/api/auth/logout', { token })).status).toBe(200);
  expect((await call(a, 'GET', '/api/users/me', { token })).status).toBe(401);
  expect((await call(b, 'GET', '/api/users/me', { token })).status).toBe(401);
});

type State = { bracket: Bracket; version: number; participants: { _id: string; name: string }[] };

// A guest's read of the bracket is held like a page (decision 023): B hears of A's write over the
// live link and hands out its older copy while it renders it again (a second or so on a server not
// behind its renders). Saves are never held, so a stale one is refused at once.
test('a bracket saved through one instance is seen through the other within seconds, and a stale save still gets 409', async ({ page }) => {
  const admin = await logIn(a, ADMIN);
  const list = await call<{ _id: string }[]>(a, 'GET', '/api/tournaments');
  let tournamentId = '';
  for (const { _id } of list.body) {
    const state = await call<State>(b, 'GET', `/api/tournaments/${_id}/bracket`);
    if (state.body.participants.length >= 4) {
      tournamentId = _id;
      break;
    }
  }
  expect(tournamentId, 'a demo tournament with four participants').not.toBe('');
  const path = `/api/tournaments/${tournamentId}/bracket`;

  const created = await call<State>(a, 'POST', path, { token: admin, body: { seeding: 'order', replace: true } });
  expect(created.status).toBe(201);
  const seenThroughB = async () => (await call<State>(b, 'GET', path)).body.version;
  await expect.poll(seenThroughB, { timeout: 8000 }).toBe(created.body.version);
  const seen = await call<State>(b, 'GET', path);
  expect(seen.body.bracket).toEqual(created.body.bracket);
  // B's ETag for that version is A's: polling through either answers 304 until something changes.
  const etag = seen.headers.get('etag')!;
  expect((await call(a, 'GET', path, { headers: { 'if-none-match': etag } })).status).toBe(304);

  const first = created.body.bracket[0]!.matches.findIndex((m) => m.a && m.b);
  const match = created.body.bracket[0]!.matches[first]!;
  const decided = setResult(created.body.bracket, 0, first, match.a!);
  const saved = await call<State>(a, 'PATCH', path, { token: admin, body: { bracket: decided, version: created.body.version } });
  expect(saved.status).toBe(200);
  expect(saved.body.version).toBe(created.body.version + 1);

  await expect.poll(async () => (await call(b, 'GET', path, { headers: { 'if-none-match': etag } })).status, { timeout: 8000 }).toBe(200);
  const after = await call<State>(b, 'GET', path);
  expect(after.body.version).toBe(saved.body.version);
  expect(after.body.bracket[0]!.matches[first]!.winner).toBe(match.a);

  // An admin on B still holding the old version is told of the newer bracket, not allowed to overwrite it.
  const otherResult = setResult(created.body.bracket, 0, first, match.b!);
  const stale = await call<State>(b, 'PATCH', path, { token: admin, body: { bracket: otherResult, version: created.body.version } });
  expect(stale.status).toBe(409);
  expect(stale.body.version).toBe(saved.body.version);
  expect(stale.body.bracket[0]!.matches[first]!.winner).toBe(match.a);

  // The page drawn by B shows the winner A saved.
  const winner = created.body.participants.find((p) => p._id === match.a)!.name;
  await page.goto(`${b.url}/tournament/${tournamentId}/bracket`);
  await expect(page.getByText(winner).first()).toBeVisible();
});

test('news published through one instance shows on the other’s held page within seconds, not when the held copy expires', async () => {
  const admin = await logIn(a, ADMIN);
  const page = async () => {
    const response = await fetch(`${b.url}/news`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.status).toBe(200);
    return response.text();
  };
  // B holds its news page now (PUBLIC_ANSWER_TTL_MS: 30 s).
  await page();
  await page();
  const title = `Між інстансами ${Date.now().toString(36)}`;
  const created = await call(a, 'POST', '/api/news', { token: admin, body: { title, content: 'Текст новини.' } });
  expect(created.status).toBe(201);
  // A told B what its write changed (services/live/changes.ts, on the live link): B's copy is out of date and rendered again at once.
  await expect.poll(async () => (await page()).includes(title), { timeout: 8000 }).toBe(true);
});

test('a chat message posted through one instance reaches a member polling the other, which held that chat', async () => {
  const admin = await logIn(a, ADMIN);
  const team = await call<{ team: { _id: string } }>(a, 'POST', '/api/teams', { token: admin, body: { name: `Чат ${Date.now().toString(36)}` } });
  expect(team.status).toBe(201);
  const chat = `/api/team/${team.body.team._id}/chat`;
  const post = async (message: string) => {
    const posted = await call<{ _id: string }>(a, 'POST', chat, { token: admin, body: { message } });
    expect(posted.status).toBe(201);
    return posted.body._id;
  };
  const after = (id: string) => call<{ message: string }[]>(b, 'GET', `${chat}?after=${id}`, { token: admin });
  const first = await post('перше');
  // B reads the chat after its newest message, then answers that from the chat it holds (services/teams/held-chats.ts).
  expect((await after(first)).body).toEqual([]);
  expect((await after(first)).body).toEqual([]);
  await post('друге');
  // The message's own signal told B to forget the chat it held.
  await expect.poll(async () => (await after(first)).body.map((m) => m.message), { timeout: 8000 }).toEqual(['друге']);
});
