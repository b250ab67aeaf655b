// Shared by the page benchmarks: starts the built site (`scripts/start.ts`) on a port and data
// directory of its own, waits until it answers, and finds the pages and the demo sign-in to measure.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

export const BENCH_PORT = Number(process.env.BENCH_PAGES_PORT ?? 4500);
export const BENCH_BUILD_DIR = process.env.BENCH_PAGES_BUILD_DIR ?? 'dist-bench-pages';
export const BENCH_DATA_DIR = process.env.BENCH_PAGES_DATA_DIR ?? '.bench-pages-data';
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The demo player the signed-in runs use (SPEC demo data: every player has `demo12345`). */
export const DEMO_PLAYER = { loginOrEmail: 'KozakSniper', password: 'demo12345' };
/** Where the site keeps the sign-in token (`$token` in src/lib/stores/session.ts). */
export const TOKEN_KEY = 'token';

export interface BenchServer {
  origin: string;
  stop(): Promise<void>;
}

/**
 * Builds the site into its own folder if the sources are newer (scripts/start.ts does that), starts it
 * on a fresh embedded database with demo data, and resolves once `/api/health` answers 200.
 * A benchmark that throws still stops the server: callers use `try … finally stop()`.
 */
export async function startServer(): Promise<BenchServer> {
  // A fresh database each run: every run measures the same demo data.
  rmSync(BENCH_DATA_DIR, { recursive: true, force: true });
  const origin = `http://127.0.0.1:${BENCH_PORT}`;
  if (await isUp(origin)) throw new Error(`порт ${BENCH_PORT} уже зайнятий: зупиніть той сервер або задайте BENCH_PAGES_PORT`);

  const child: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    env: {
      ...process.env,
      BUILD_DIR: BENCH_BUILD_DIR,
      PORT: String(BENCH_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: BENCH_DATA_DIR,
      DATABASE_URL: '',
      SEED_DEMO: 'true',
      ADMIN_PASSWORD: 'bench-pages-admin-password',
      ASTRO_TELEMETRY_DISABLED: '1',
    },
    // A group of its own, so stopping it also stops the astro build it may have started.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited = false;
  const exitPromise = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));

  const stop = async () => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => child.pid !== undefined && !exited && process.kill(-child.pid, 'SIGKILL'), 5_000);
    await exitPromise;
    clearTimeout(timer);
  };
  const onSignal = () => void stop().then(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  // The first run builds the site (a few minutes on two cores).
  const deadline = Date.now() + 10 * 60_000;
  while (!(await isUp(origin))) {
    if (exited) throw new Error(`сервер зупинився до старту:\n${log}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`сервер не відповів за 10 хвилин:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return { origin, stop };
}

async function isUp(origin: string): Promise<boolean> {
  try {
    const response = await fetch(`${origin}/api/health`, { signal: AbortSignal.timeout(2_000) });
    return response.ok;
  } catch {
    return false;
  }
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs the demo player in through the API and returns the bearer token. */
export async function signInDemoPlayer(origin: string): Promise<string> {
  const body = await getJson<{ token: string }>(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(DEMO_PLAYER),
  });
  return body.token;
}

export interface BenchRoute {
  /** Short name for tables and report files. */
  name: string;
  path: string;
}

interface Identified {
  _id: string;
}

/**
 * The content pages of issues 11 and 24, with real ids from the demo data: the first game, a running
 * (else finished) tournament, whose bracket is drawn, the newest news item, and the profile of the
 * first rated game's leader.
 */
export async function contentRoutes(origin: string): Promise<BenchRoute[]> {
  const [games, tournaments, news] = await Promise.all([
    getJson<Identified[]>(`${origin}/api/games`),
    getJson<(Identified & { status: string })[]>(`${origin}/api/tournaments`),
    getJson<Identified[]>(`${origin}/api/news`),
  ]);
  const game = games[0];
  // A running tournament has the fullest page (participants, bracket in progress); else a finished one.
  const tournament =
    tournaments.find((t) => /start|ongoing|progress/i.test(t.status)) ?? tournaments.find((t) => /finish|complete/i.test(t.status)) ?? tournaments[0];
  const item = news[0];
  const [rated] = await getJson<Identified[]>(`${origin}/api/stats/games`);
  const leaders = rated ? await getJson<{ userId: Identified | null }[]>(`${origin}/api/stats/leaderboard/game/${rated._id}`) : [];
  const player = leaders.find((entry) => entry.userId)?.userId;
  if (!game || !tournament || !item || !player) throw new Error('у демо-даних немає гри, турніру, новини або гравця в рейтингу');
  return [
    { name: 'home', path: '/' },
    { name: 'tournaments', path: '/tournaments' },
    { name: 'game', path: `/games/${game._id}` },
    { name: 'tournament', path: `/tournaments/${tournament._id}` },
    { name: 'bracket', path: `/tournament/${tournament._id}/bracket` },
    { name: 'news', path: '/news' },
    { name: 'news-item', path: `/news/${item._id}` },
    { name: 'leaderboards', path: '/leaderboards' },
    { name: 'player', path: `/players/${player._id}` },
  ];
}
