// `npm start`: build when the sources are newer than the last build, prepare the database
// (migrations, admin, demo data) and print where to go and how to sign in (scripts/prepare.ts),
// then serve (scripts/serve.ts).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EnvError, parseEnv } from '../src/server/env.ts';
import { serveBuild } from './serve.ts';

const OUT = process.env.BUILD_DIR ?? 'dist';
const STAMP = join(OUT, '.build-stamp');
const SOURCES = ['src', 'public', 'drizzle', 'astro.config.mjs', 'package-lock.json'];

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
  const built = existsSync(STAMP) && existsSync(join(OUT, 'server/entry.mjs')) ? statSync(STAMP).mtimeMs : 0;
  if (built >= Math.max(...SOURCES.map(newestChange))) return;
  console.log('Збираємо сайт (astro build)…');
  const result = spawnSync(join('node_modules', '.bin', 'astro'), ['build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(STAMP, new Date().toISOString());
}

let env;
try {
  env = parseEnv();
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

await serveBuild(OUT, env.PORT, env.HOST);
console.log(`Слухаємо ${env.HOST}:${env.PORT}.`);
