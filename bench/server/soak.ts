// `npm run bench:soak` (issue 24): the load mix of bench/server/load.ts for 10 minutes on one
// database (the embedded one by default: what `npm start` runs), the server's resident memory
// sampled five times a second. Targets: at most 384 MB throughout (the warm-up included), and flat —
// no growth after the first minute: the mean of the last three measured minutes' peaks is within
// SOAK_GROWTH_MB of the mean of minutes 2–4's peaks, and every acknowledged write is in the
// database afterwards.
// The mix has a phase that happens once: its reporters play their match-day stages in its first
// minute and a half, then read their matches, whose answers the server holds until its held
// answers reach their bound (MAX_HELD_ANSWERS) a minute later (decision 032, F34). The soak's warm-up
// (SOAK_WARM_SECONDS, unmeasured for flatness) runs past that phase, so the measured minutes are
// the mix's steady state, as on a server that has been serving for hours.
// Env: BENCH_SOAK_SECONDS (default 600), BENCH_SOAK_WARM_SECONDS (default 180), BENCH_SOAK_ON
// (`embedded` or `postgres`), and load.ts's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RESULTS_DIR, seconds } from './lib.ts';
import { ensureSources, LOAD_TARGETS, oneRun, type Kind } from './load.ts';
import { table } from '../table.ts';

const DURATION = seconds('BENCH_SOAK_SECONDS', 600);
const SOAK_WARM_SECONDS = seconds('BENCH_SOAK_WARM_SECONDS', 180);
const ON = (process.env.BENCH_SOAK_ON ?? 'embedded') as Kind;
/** A collector's sawtooth moves the peaks by a few MB; a leak grows them minute after minute. */
const SOAK_GROWTH_MB = 12;
/** RssSampler's rate. */
const SAMPLES_PER_MINUTE = 300;

await ensureSources([ON]);
const result = await oneRun(ON, 1, DURATION, SOAK_WARM_SECONDS);
const measured = result.rssSamples.slice(result.measuredFrom);
const minutes: number[] = [];
for (let i = 0; i < measured.length; i += SAMPLES_PER_MINUTE) minutes.push(Math.max(...measured.slice(i, i + SAMPLES_PER_MINUTE)));
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const early = mean(minutes.slice(1, 4));
const late = mean(minutes.slice(-3));
const growth = late - early;
const max = result.maxRss;
const writes = result.lost.table.reduce((n, [, acknowledged]) => n + acknowledged, 0);

console.log(`\nСтійкість: ${ON === 'postgres' ? 'PostgreSQL' : 'вбудована база'}, ${DURATION} с після розігріву ${SOAK_WARM_SECONDS} с, RSS за хвилинами (максимуми):`);
console.log(table(['minute', ...minutes.map((_, i) => String(i + 1))], [['RSS, MB', ...minutes.map((v) => v.toFixed(0))]]));
const checks: [string, boolean, string][] = [
  [`RSS ≤ ${LOAD_TARGETS.rssMb} MB`, max <= LOAD_TARGETS.rssMb, `${result.idle.toFixed(0)} MB idle, max ${max.toFixed(0)} MB`],
  [`flat after the first minute (growth ≤ ${SOAK_GROWTH_MB} MB)`, minutes.length >= 6 && growth <= SOAK_GROWTH_MB, `minutes 2–4 ${early.toFixed(0)} MB, last 3 ${late.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)})`],
  ['no lost write', result.lost.count === 0, `${result.lost.count} of ${writes}`],
];
console.log(table(['target', 'result', ''], checks.map(([what, ok, figure]) => [what, figure, ok ? 'ok' : 'FAIL'])));
for (const [what, ok] of checks) console.log(`  ${ok ? 'ok  ' : 'FAIL'} soak: ${what}`);
const stamp = new Date().toISOString();
writeFileSync(join(RESULTS_DIR, `soak-${stamp.replace(/[:.]/g, '-')}.json`), JSON.stringify({ stamp, on: ON, duration: DURATION, warmSeconds: SOAK_WARM_SECONDS, warmMaxRss: Math.max(0, ...result.rssSamples.slice(0, result.measuredFrom)), max, minutes, idle: result.idle, growth, writes: result.lost.table }, null, 2));
process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
