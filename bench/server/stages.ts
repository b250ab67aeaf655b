// `node bench/server/stages.ts` (issue 21, issue 24 target 5): GET /api/tournaments/{id}/stages of
// the 256-player double elimination at 50 connections, three runs each, beside /api/health and a
// tournament list measured in the same runs. Medians of the runs are reported; exits 1 when the
// median p99 of either misses 20 ms.
// Env: BENCH_SECONDS (per run, default 10), BENCH_RUNS (default 3), BENCH_PORT (4520–4539, default 4530: BENCH_PORT_BASE + 10).
import pg from 'pg';
import { AS_A_BROWSER, benchPort, cannon, cannonThreads, databaseUrl, median, ms, percentile, seconds, settle, startServer } from './lib.ts';
import { DE_256_TITLE, ensureSeeded } from './seed.ts';
import { table } from '../table.ts';

const DB = process.env.BENCH_DB ?? 'bench_server';
const PORT = Number(process.env.BENCH_PORT ?? benchPort(10));
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SECONDS = seconds('BENCH_SECONDS', 10);
const TARGET_P99 = 20;

await ensureSeeded(DB);
const client = new pg.Client({ connectionString: databaseUrl(DB) });
await client.connect();
const [de256] = (await client.query<{ id: string }>('select id from tournaments where title = $1', [DE_256_TITLE])).rows.map((r) => r.id);
const [game] = (await client.query<{ id: string }>('select id from games order by name limit 1')).rows.map((r) => r.id);
await client.end();

const ROUTES = [
  { name: 'baseline: /api/health', path: '/api/health' },
  { name: '/api/tournaments?game', path: `/api/tournaments?game=${game}` },
  { name: '/api/tournaments/{id}/stages (DE 256)', path: `/api/tournaments/${de256}/stages` },
];

const server = await startServer({ port: PORT, database: DB });
let exitCode = 0;
try {
  await cannon({ url: server.url, connections: 10, duration: 3, headers: AS_A_BROWSER, requests: ROUTES.map((r) => ({ method: 'GET', path: r.path })) });
  const runs = new Map<string, { p50: number[]; p99: number[]; rps: number[]; bytes: number }>();
  for (let run = 0; run < RUNS; run++) {
    for (const route of ROUTES) {
      await settle(server.url);
      const result = await cannonThreads({ url: server.url, connections: 50, duration: SECONDS, headers: AS_A_BROWSER, paths: [route.path] });
      // As sent (compressed), headers included: what each answer costs the wire and the client.
      const bytes = result.bytesPerSecond / result.rps;
      const entry = runs.get(route.name) ?? { p50: [], p99: [], rps: [], bytes };
      entry.p50.push(percentile(result.latencies, 50));
      entry.p99.push(percentile(result.latencies, 99));
      entry.rps.push(result.rps);
      runs.set(route.name, entry);
      console.log(`  run ${run + 1} ${route.name}: p50 ${ms(entry.p50.at(-1)!)}, p99 ${ms(entry.p99.at(-1)!)}, ${Math.round(entry.rps.at(-1)!)} rps`);
    }
  }
  const baseline = median(runs.get(ROUTES[0]!.name)!.p99);
  const rows = [...runs].map(([name, r]) => {
    const p99 = median(r.p99);
    const verdict = name.startsWith('baseline') ? '' : p99 <= TARGET_P99 ? 'ok' : 'MISS';
    if (verdict === 'MISS') exitCode = 1;
    return [
      name,
      ms(median(r.p50)),
      ms(p99),
      r.p99.map(ms).join(' / '),
      Math.round(median(r.rps)),
      `${(r.bytes / 1024).toFixed(1)} KB`,
      `${(p99 / baseline).toFixed(2)}×`,
      verdict,
    ];
  });
  console.log(`\n50 connections, ${RUNS} runs of ${SECONDS} s, medians (target p99 ≤ ${TARGET_P99} ms):`);
  console.log(table(['route', 'p50', 'p99', 'p99 per run', 'rps', 'sent per answer', 'p99 vs health', 'target'], rows));
} finally {
  await server.stop();
}
process.exit(exitCode);
