// API writes on a thread of their own (decision 021): what crosses to it and back, on PostgreSQL
// (the thread needs a database a second pool can reach; on the embedded one it is never started).
import type http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bundleServingInto } from '../../scripts/bundle-serving.ts';
import { overloaded, servingServer } from '../../scripts/serve.ts';
import { ensureAdmin } from '../../src/server/bootstrap.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { games } from '../../src/server/db/schema/index.ts';
import { findSession } from '../../src/server/services/sessions.ts';
import { publicAnswers, WROTE_COOKIE } from '../../src/server/serving/response-cache.ts';
import { writeThread, type WriteThread } from '../../src/server/serving/write-thread.ts';
import { createScratchDatabase, type ScratchDatabase } from '../support/postgres.ts';

const onPostgres = process.env.TEST_DB === 'postgres';
const ADMIN = { email: 'thread-admin@arena.test', password: 'довгий-пароль-1' };

let scratch: ScratchDatabase;
let database: DatabaseHandle;
let dataDir: string;
let base: string;
let server: http.Server;
let writes: WriteThread;
/** What reached Astro's handler (reads, and writes when there is no thread). */
const astro: string[] = [];

function threadEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: scratch.url, DATA_DIR: dataDir, DATABASE_PREPARED: '1', SEED_DEMO: 'false', SITE_URL: 'https://arena.test' };
}

async function listen(writesThere: WriteThread | undefined): Promise<{ server: http.Server; base: string }> {
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    astro.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('astro');
  };
  const started = servingServer(handler, dataDir, { concurrency: 2, writes: writesThere });
  await new Promise<void>((done) => started.listen(0, '127.0.0.1', done));
  return { server: started, base: `http://127.0.0.1:${(started.address() as AddressInfo).port}` };
}

/** A port nobody listens on, for a server started in another process. */
const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });

const close = (target: http.Server) =>
  new Promise<void>((done) => {
    target.closeAllConnections();
    target.close(() => done());
  });

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function adminToken(): Promise<string> {
  const res = await post('/api/auth/login', { loginOrEmail: ADMIN.email, password: ADMIN.password });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe.runIf(onPostgres)('API writes on their own thread', () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
    database = await openDatabase({ url: scratch.url });
    await database.migrate();
    await ensureAdmin(database.db, ADMIN.email, ADMIN.password);
    dataDir = mkdtempSync(join(tmpdir(), 'kiberarena-writes-'));
    writes = writeThread({ env: threadEnv(), unavailable: overloaded });
    ({ server, base } = await listen(writes));
    await writes.ready();
  }, 60_000);

  afterAll(async () => {
    await close(server);
    await writes.close();
    await database.close();
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a write from the thread, marks the held answers it changed and sets the writer’s cookie', async () => {
    const marked = vi.spyOn(publicAnswers, 'markStale');
    const token = await adminToken();
    const res = await post('/api/games', { name: 'Thread Arena' }, { authorization: `Bearer ${token}` });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { message: string; game: { _id: string; name: string } };
    expect(body.message).toBe('Гру додано!');
    expect(body.game.name).toBe('Thread Arena');
    expect(res.headers.getSetCookie().some((cookie) => cookie.startsWith(`${WROTE_COOKIE}=1;`))).toBe(true);
    // Stored by the thread's own pool, seen through another connection.
    expect(await database.db.select({ name: games.name }).from(games).where(eq(games.id, body.game._id))).toEqual([{ name: 'Thread Arena' }]);
    // This process's held answers (a new game shows on every list) are marked here, where they are held.
    expect(marked).toHaveBeenCalled();
    marked.mockRestore();
    // Reads stay with the main thread.
    expect(astro.filter((line) => line.startsWith('POST'))).toEqual([]);
    expect((await fetch(`${base}/api/games`)).status).toBe(200);
    expect(astro).toContain('GET /api/games');
  });

  it('speaks the writer’s language, and a refused write sets no cookie and marks nothing', async () => {
    const marked = vi.spyOn(publicAnswers, 'markStale');
    const wrong = { loginOrEmail: ADMIN.email, password: 'не той пароль' };
    const uk = await post('/api/auth/login', wrong);
    expect(uk.status).toBe(401);
    expect(await uk.json()).toEqual({ message: 'Неправильний логін або пароль' });
    const en = await post('/api/auth/login', wrong, { cookie: 'lang=en' });
    expect(en.status).toBe(401);
    expect(await en.json()).toEqual({ message: 'Wrong login or password' });
    expect(en.headers.getSetCookie().some((cookie) => cookie.startsWith(`${WROTE_COOKIE}=`))).toBe(false);
    expect(marked).not.toHaveBeenCalled();
    marked.mockRestore();
  });

  it('forgets the sessions this thread held when a sign-out ran on the write thread (decision 026)', async () => {
    const token = await adminToken();
    // The main thread reads with its own module's held sessions: this process's.
    expect(await findSession(database.db, token)).not.toBeNull();
    const out = await post('/api/auth/logout', {}, { authorization: `Bearer ${token}` });
    expect(out.status).toBe(200);
    expect(await findSession(database.db, token)).toBeNull();
  });

  it('refuses a body over the API’s limit before handing it over, whether announced or not', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(70 * 1024) });
    const announced = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: huge });
    expect(announced.status).toBe(413);
    // Refused by the front, which stops reading and closes the connection; the thread's own limit answers without closing.
    expect(announced.headers.get('connection')).toBe('close');
    expect(await announced.json()).toEqual({ message: 'Запит завеликий' });
    // Sent in chunks with no length: the reading stops at the limit.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        const chunk = new TextEncoder().encode('x'.repeat(16 * 1024));
        for (let i = 0; i < 8; i++) controller.enqueue(chunk);
        controller.close();
      },
    });
    const chunked = await fetch(`${base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(chunked.headers.get('connection')).toBe('close');
    expect(await chunked.json()).toEqual({ message: 'Запит завеликий' });
    expect(await database.db.select().from(games).where(eq(games.name, 'x'.repeat(70 * 1024)))).toEqual([]);
  });

  it('takes a body sent in chunks, and answers with its length', async () => {
    const token = await adminToken();
    const json = new TextEncoder().encode(JSON.stringify({ name: 'Chunked Arena' }));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(json.slice(0, 5));
        controller.enqueue(json.slice(5));
        controller.close();
      },
    });
    const res = await fetch(`${base}/api/games`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect((JSON.parse(text) as { game: { name: string } }).game.name).toBe('Chunked Arena');
  });

  it('serves a parallel burst of writes, each once', async () => {
    const token = await adminToken();
    const names = Array.from({ length: 20 }, (_, i) => `Burst ${i}`);
    const answers = await Promise.all(names.map((name) => post('/api/games', { name }, { authorization: `Bearer ${token}` })));
    expect(answers.map((res) => res.status)).toEqual(names.map(() => 201));
    const stored = await database.db.select({ name: games.name }).from(games);
    expect(stored.filter((row) => row.name.startsWith('Burst ')).map((row) => row.name).sort()).toEqual([...names].sort());
    // The same name again, at once: one is added, the others refused.
    const twice = await Promise.all(Array.from({ length: 5 }, () => post('/api/games', { name: 'Once' }, { authorization: `Bearer ${token}` })));
    expect(twice.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('answers 503 when the thread cannot run, and nothing is written', async () => {
    // A heap too small to load the API: the thread stops, as it would after running out of memory.
    const starved = writeThread({ env: threadEnv(), unavailable: overloaded, oldGenerationMb: 4, youngGenerationMb: 1 });
    const other = await listen(starved);
    try {
      const res = await fetch(`${other.base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Never' }) });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ message: 'Сервіс тимчасово недоступний. Спробуйте пізніше.' });
      expect(res.headers.get('retry-after')).toBe('5');
      // Not started again for every write while it cannot run: the next one at once is refused without a try.
      const again = await fetch(`${other.base}/api/games`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Never' }) });
      expect(again.status).toBe(503);
      expect(await database.db.select().from(games).where(eq(games.name, 'Never'))).toEqual([]);
    } finally {
      await close(other.server);
      await starved.close();
    }
  }, 60_000);

  it('runs from the build’s bundle: serve.mjs, started as `npm start` starts it, serves a write on write-worker.mjs', async () => {
    // Inside the project, so the bundle finds its packages in node_modules as the build's does.
    mkdirSync(join('node_modules', '.cache'), { recursive: true });
    const build = mkdtempSync(join('node_modules', '.cache', 'kiberarena-build-'));
    const serving = join(build, 'serving');
    let child: ChildProcess | undefined;
    try {
      await bundleServingInto(serving);
      // A build whose pages are one line: only the API's writes are under test, and they never reach it.
      mkdirSync(join(build, 'server'));
      mkdirSync(join(build, 'client'));
      writeFileSync(join(build, 'server', 'entry.mjs'), "export const handler = (req, res) => { res.writeHead(200); res.end('astro'); };\n");
      const port = await freePort();
      child = spawn(process.execPath, [join(serving, 'serve.mjs')], {
        env: { ...threadEnv(), BUILD_DIR: build, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((up, failed) => {
        child!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes(`:${port}`) && up());
        child!.once('exit', (code) => failed(new Error(`serve.mjs exited with ${code}`)));
      });
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ loginOrEmail: ADMIN.email, password: ADMIN.password }),
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { token: string }).token).toMatch(/^\S{20,}$/);
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('astro');
    } finally {
      child?.kill('SIGTERM');
      rmSync(build, { recursive: true, force: true });
    }
  }, 60_000);
});
