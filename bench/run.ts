// `npm run bench`: every benchmark in turn, one at a time (they share two cores), then one line
// each. A benchmark that misses its target does not stop the others.
import { spawnSync } from 'node:child_process';

const benches = ['bench:pages', 'bench:lighthouse', 'bench:server', 'bench:load'];
const outcomes = benches.map((name) => {
  console.log(`\n━━ npm run ${name} ━━`);
  const started = Date.now();
  const { status } = spawnSync('npm', ['run', '--silent', name], { stdio: 'inherit' });
  return { name, ok: status === 0, seconds: Math.round((Date.now() - started) / 1000) };
});

console.log('\nПідсумок:');
for (const { name, ok, seconds } of outcomes) console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${name}  (${seconds} с)`);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
