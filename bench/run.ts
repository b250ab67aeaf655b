// `npm run bench`: every benchmark in turn, one at a time (they share two cores), then one line
// each — issues 24 and 55 read this summary: every line `ok`. A benchmark
// that misses its target does not stop the others. Benchmarks another change has not added yet
// (a script missing from package.json) are listed as such, not skipped silently.
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** In the order they run: the light ones first, the 10-minute soak last. */
const benches = [
  'bench:pages', // page weight: JavaScript budgets (issues 11, 24 target 2)
  'bench:lighthouse', // Lighthouse mobile, median of 5 runs (target 2)
  'bench:server', // API lists p99 at 50 connections, pages against a static file (targets 5, 3)
  'bench:stages', // the stages of a 256-player double elimination, p99 (target 5)
  'bench:render', // held pages against nginx, uncached renders against 1f57859 (issue 55: at least as fast)
  'bench:load', // the 200-connection mix on PostgreSQL beside cdc24b6 (issue 55: p99 within 1.25×)
  'bench:nginx', // the same mix and held pages through deploy/nginx.conf in front of two instances (issue 55)
  'bench:live', // 10 000 event-stream viewers, one instance and through nginx across two (target 4)
  'bench:soak', // the mix for 10 minutes: memory flat (target 1)
];
const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;

const outcomes = benches.map((name) => {
  if (!scripts[name]) return { name, ok: false, seconds: 0, missing: true };
  console.log(`\n━━ npm run ${name} ━━`);
  const started = Date.now();
  const { status } = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  return { name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000), missing: false };
});

console.log(`\nПідсумок (${new Date().toISOString()}):`);
for (const { name, ok, seconds, missing } of outcomes) console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${name}  ${missing ? '(немає такого скрипту)' : `(${seconds} с)`}`);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
