// `node bench/avatars.ts`: what bursts of 30 avatar uploads from one account cost the server in
// memory (issue 18). Decoding is native memory (libvips), outside the heap limit, so the resident
// set is what counts. Starts the built site as `npm start` does (build in BENCH_BUILD_DIR, default
// dist-names) on PostgreSQL (a fresh `bench_avatars` database), port BENCH_PORT (default 4521),
// and sends each burst over HTTP from this process, so only the serving process is measured.
// Prints its resident set before, at most during and 2 s after each burst, the scenarios one
// after another on the same server; exits 1 when it reaches 200 MB, a burst gets an answer it
// should not, or a picture is left that no account points at. BENCH_AT_ONCE=1 sends the bursts one
// upload at a time (a baseline); BENCH_ONLY=JPEG runs only the scenarios whose name has that.
// Not a test: the figures move by ±10 MB from run to run on a shared machine.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { openDatabase } from '../src/server/db/client.ts';
import { createUser } from '../src/server/services/accounts/accounts.ts';
import { createSession } from '../src/server/services/accounts/sessions.ts';
import { databaseUrl, recreateDatabase, RssSampler, startServer } from './server/lib.ts';

const RESULTS = resolve('bench/results/avatars');
const DB = 'bench_avatars';
const PORT = Number(process.env.BENCH_PORT ?? 4521);
const BUILD_DIR = process.env.BENCH_BUILD_DIR ?? 'dist-names';
const BURST = 30;
/** How many of the burst are sent at once (BENCH_AT_ONCE; all of them by default, 1 for a sequential baseline). */
const AT_ONCE = Number(process.env.BENCH_AT_ONCE ?? BURST);
/** Only the scenarios whose name contains this (BENCH_ONLY), e.g. `JPEG`. */
const ONLY = process.env.BENCH_ONLY ?? '';
const TARGET_RSS_MB = 200;
const MB = 1024 * 1024;

interface Picture {
  file: string;
  type: string;
  /** Expected answer. */
  status: number;
}

/** The pictures of each burst, made once by the parent (so making them costs the measured process nothing). */
async function makePictures(): Promise<Record<string, Picture>> {
  const { default: sharp } = await import('sharp');
  mkdirSync(RESULTS, { recursive: true });
  const noisy = (width: number, height: number, channels: 3 | 4) =>
    sharp({ create: { width, height, channels, background: { r: 80, g: 110, b: 150 }, noise: { type: 'gaussian', mean: 128, sigma: 12 } } }).blur(1.2);
  // Decoding costs the same whatever the pixels hold: flat colour keeps the PNG and GIF under the 2 MB upload limit.
  const flat = (width: number, height: number, channels: 3 | 4) =>
    sharp({ create: { width, height, channels, background: { r: 80, g: 110, b: 150, alpha: 0.8 } } });
  const made: [string, Promise<Buffer>, string, number][] = [
    ['photo-12mp.jpg', noisy(4032, 3024, 3).jpeg({ quality: 80 }).toBuffer(), 'image/jpeg', 200],
    ['photo-24mp.webp', noisy(6000, 4000, 3).webp({ quality: 50 }).toBuffer(), 'image/webp', 200],
    ['picture-2mp.png', flat(1414, 1414, 4).png().toBuffer(), 'image/png', 200],
    ['picture-1mp-16bit.png', flat(1000, 1000, 4).toColourspace('rgb16').png().toBuffer(), 'image/png', 200],
    ['picture-2mp.gif', flat(1414, 1414, 3).gif().toBuffer(), 'image/gif', 200],
    ['deep-6300.png', flat(6300, 6300, 3).toColourspace('grey16').png().toBuffer(), 'image/png', 400],
  ];
  const pictures: Record<string, Picture> = {};
  for (const [name, data, type, status] of made) {
    const file = join(RESULTS, name);
    const bytes = await data;
    if (bytes.length > 2 * MB) throw new Error(`${name} is ${bytes.length} bytes, over the 2 MB upload limit`);
    writeFileSync(file, bytes);
    pictures[name] = { file, type, status };
  }
  return pictures;
}

/**
 * The process that serves: `npm start` may become the server or supervise it as a child, so the
 * process running scripts/serve.ts under the started one, else the started one itself.
 */
function servingPid(root: number): number {
  const children = (pid: number): number[] => {
    try {
      return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
        readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
      );
    } catch {
      return [];
    }
  };
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (argv.some((a) => a.endsWith('serve.ts')) && !argv.some((a) => a.endsWith('supervise.mjs'))) return pid;
    queue.push(...children(pid));
  }
  return root;
}

async function main() {
  const pictures = await makePictures();
  const scenarios: [string, string[]][] = [
    ['12 MP JPEG photos', ['photo-12mp.jpg']],
    ['24 MP WebP photos', ['photo-24mp.webp']],
    ['2 MP PNG (RGBA)', ['picture-2mp.png']],
    ['1 MP 16-bit PNG (RGBA)', ['picture-1mp-16bit.png']],
    ['2 MP GIF', ['picture-2mp.gif']],
    ['6300² 16-bit PNG (refused)', ['deep-6300.png']],
    ['all of them, mixed', Object.keys(pictures)],
  ];
  await recreateDatabase(DB);
  const server = await startServer({ port: PORT, database: DB, env: { BUILD_DIR, DATA_DIR: '.data-names' } });
  const client = new pg.Client({ connectionString: databaseUrl(DB) });
  await client.connect();
  const database = await openDatabase({ url: databaseUrl(DB) });
  const rss = new RssSampler(servingPid(server.pid));
  let ok = true;
  try {
    const send = async (token: string, picture: Picture, data: Buffer) => {
      const form = new FormData();
      form.set('avatar', new Blob([new Uint8Array(data)], { type: picture.type }), 'avatar');
      const response = await fetch(`${server.url}/api/cabinet/me`, { method: 'PUT', body: form, headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      return response.status;
    };
    // One small upload first: sharp loaded and the route warm, as on a server that has run a while.
    const warm = await createUser(database.db, { username: 'warm', email: 'warm@bench.local', password: 'bench-password-1', confirmed: true });
    const { default: sharp } = await import('sharp');
    const tiny = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#345' } }).png().toBuffer();
    await send((await createSession(database.db, warm.id, 1)).token, { file: '', type: 'image/png', status: 200 }, tiny);
    await sleep(2000);
    const idle = rss.read();
    console.log(`${BURST} uploads from one account, ${Math.min(AT_ONCE, BURST)} at once; the server's resident set in MB (idle after one upload: ${idle.toFixed(0)}; target: under ${TARGET_RSS_MB})\n`);
    console.log('scenario                        before  peak  after 2 s  time    answers');
    for (const [index, [name, files]] of scenarios.entries()) {
      if (!name.includes(ONLY)) continue;
      const chosen = files.map((f) => pictures[f]!);
      const data = chosen.map((p) => readFileSync(p.file));
      const user = await createUser(database.db, { username: `bench${index}`, email: `bench${index}@bench.local`, password: 'bench-password-1', confirmed: true });
      const { token } = await createSession(database.db, user.id, 1);
      const before = rss.read();
      rss.max = before;
      rss.start(5);
      const started = Date.now();
      const statuses: number[] = [];
      let next = 0;
      const sender = async () => {
        for (let i = next++; i < BURST; i = next++) statuses[i] = await send(token, chosen[i % chosen.length]!, data[i % chosen.length]!);
      };
      await Promise.all(Array.from({ length: Math.min(AT_ONCE, BURST) }, sender));
      const took = (Date.now() - started) / 1000;
      await sleep(2000);
      rss.stop();
      const after = rss.read();
      const wrong = statuses.filter((s, i) => s !== chosen[i % chosen.length]!.status && s !== 429).length;
      const [{ orphans } = { orphans: -1 }] = (
        await client.query<{ orphans: number }>(
          'select count(*)::int as orphans from images i where not exists (select 1 from users u where u.avatar_image_id = i.id) and not exists (select 1 from teams t where t.logo_image_id = i.id)',
        )
      ).rows;
      const answers = Object.entries(statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {}))
        .map(([s, n]) => `${n}×${s}`)
        .join(' ');
      const fine = rss.max < TARGET_RSS_MB && wrong === 0 && orphans === 0;
      ok &&= fine;
      console.log(
        `${name.padEnd(31)} ${before.toFixed(0).padStart(6)} ${rss.max.toFixed(0).padStart(5)} ${after.toFixed(0).padStart(10)} ${took.toFixed(1).padStart(5)} s  ${answers}${orphans ? `, ${orphans} orphaned pictures` : ''}${wrong ? `, ${wrong} unexpected` : ''}${fine ? '' : '  ← FAIL'}`,
      );
    }
  } finally {
    await database.close();
    await client.end();
    await server.stop();
  }
  process.exit(ok ? 0 : 1);
}

await main();
