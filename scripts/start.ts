// `npm start`: build when the sources are newer than the last build, prepare the database
// (migrations, admin, demo data) and print where to go and how to sign in (scripts/prepare.ts),
// then become the supervisor (scripts/supervise.mjs) of the server (scripts/serve.ts, as the build
// bundled it), which runs as its child with the memory settings below and is started again if it
// crashes.
// package.json runs it as `exec node scripts/start.ts`: npm passes a SIGTERM or SIGINT on to its
// child, which must be this process (the supervisor, after execve), not a shell that would die of it
// and leave the supervisor and the server running.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DATABASE_PREPARED, EnvError, parseEnv } from '../src/server/env.ts';
import { SERVING_DIR } from './bundle-serving.ts';
import { SERVER_MALLOC, serverNodeOptions } from './server-memory.ts';

const OUT = process.env.BUILD_DIR ?? 'dist';
const STAMP = join(OUT, '.build-stamp');
/** The server, as the build bundled it: plain JavaScript, no TypeScript compiler loaded into it (scripts/bundle-serving.ts). */
const SERVE = join(OUT, SERVING_DIR, 'serve.mjs');
// `scripts`: the serving front is bundled into the build too (scripts/bundle-serving.ts).
const SOURCES = ['src', 'public', 'drizzle', 'scripts', 'astro.config.mjs', 'package-lock.json'];

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

function buildIfNeeded() {
  // The built server imports packages from node_modules, which Node finds only from inside the project.
  if (!resolve(OUT).startsWith(`${process.cwd()}/`)) {
    console.error(`BUILD_DIR має бути всередині проєкту (наприклад dist-test), а не ${OUT}`);
    process.exit(1);
  }
  const built = existsSync(STAMP) && existsSync(join(OUT, 'server/entry.mjs')) && existsSync(SERVE) ? statSync(STAMP).mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map(newestChange))) return;
  console.log('Збираємо сайт (astro build)…');
  const result = spawnSync(join('node_modules', '.bin', 'astro'), ['build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(STAMP, new Date().toISOString());
}

// A wrong variable stops here, before a build, not in the server's restarts.
let embedded = true;
try {
  embedded = parseEnv().DATABASE_URL === undefined;
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

buildIfNeeded();

const prepared = spawnSync(process.execPath, [join('scripts', 'prepare.ts')], { stdio: 'inherit' });
if (prepared.status !== 0) process.exit(prepared.status ?? 1);

/** The supervisor only waits for its child: a small heap is plenty. */
const SUPERVISOR_NODE_FLAGS = ['--max-old-space-size=16', '--max-semi-space-size=1'];

// Node's own flags given to this script (--inspect, say) go on to the server, and so do NODE_OPTIONS,
// after the memory settings; the supervisor itself runs without them.
const supervised = [
  join('scripts', 'supervise.mjs'),
  `--node-options=${[...serverNodeOptions(embedded), process.env.NODE_OPTIONS ?? ''].join(' ').trim()}`,
  process.execPath,
  ...process.execArgv,
  SERVE,
];
const supervisorEnv = {
  ...process.env,
  BUILD_DIR: OUT,
  NODE_OPTIONS: '',
  ...Object.fromEntries(Object.entries(SERVER_MALLOC).map(([name, value]) => [name, process.env[name] ?? value])),
  // prepare.ts has just done it: the server, and every restart of it, goes straight to serving.
  [DATABASE_PREPARED]: '1',
};
if (process.execve) {
  // The same process (one pid for systemd, Playwright and signals) starts afresh as the supervisor: nothing of the build check stays in memory.
  process.execve(process.execPath, [process.execPath, ...SUPERVISOR_NODE_FLAGS, ...supervised], supervisorEnv);
}
// Without execve (Windows) this process supervises.
Object.assign(process.env, supervisorEnv);
const { runSupervisor } = await import('./supervise.mjs');
runSupervisor(supervised.slice(1));
