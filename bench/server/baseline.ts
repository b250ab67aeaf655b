// Another commit of the project, built and started beside this one, so a benchmark can compare the
// two in the same run (issue 55: "against cdc24b6 in a git worktree"). One plain mechanism for every
// benchmark that has a baseline (bench:render against 1f57859, bench:load against cdc24b6):
//   - `checkout(commit)`: a git worktree of the commit in /tmp/bench-base-<sha>, made when missing
//     and kept for the next run; its packages are this checkout's node_modules (a symlink) when the
//     two lockfiles are the same, else its own `npm ci --prefer-offline`. Its first start builds it
//     (scripts/start.ts builds into BUILD_DIR when the sources are newer than the last build).
//   - `currentCheckout()`: what is measured as "this code": the working directory, or with
//     BENCH_CURRENT another folder, or a commit (`BENCH_CURRENT=HEAD`: a worktree of the last
//     commit, away from unfinished edits in a shared tree, made the same way).
//   - `alternating(rounds, measure)`: base, this, this, base, base, this… so load on the machine
//     that rises or falls through a pair favours neither side.
// Remove a worktree when done with it: `git worktree remove --force /tmp/bench-base-<sha>`.
//
// `node bench/server/baseline.ts <commit>…` makes the worktrees (and installs their packages) ahead of a run.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A checkout to start a server from (`startServer`'s `cwd`), and what it needs in its environment. */
export interface Checkout {
  /** How tables name it: a short commit, or "this code". */
  label: string;
  /** Its folder. */
  dir: string;
  /** Extra environment for its server (an old commit's switches, such as cdc24b6's HELD_FRONT=false). */
  env: Record<string, string>;
}

function git(args: string[], cwd = '.'): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr.trim()}`);
  return run.stdout.trim();
}

/** `A=1,B=2` (an environment variable's value) as an object. */
export function envList(text: string | undefined): Record<string, string> {
  return Object.fromEntries(
    (text ?? '')
      .split(',')
      .map((pair) => pair.trim())
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]),
  );
}

/**
 * A worktree of `commit` in /tmp/bench-base-<short sha> with its packages installed, made when
 * missing. Packages: this checkout's node_modules linked when the commit's package-lock.json is
 * this checkout's, else `npm ci --prefer-offline` from the commit's own lockfile.
 */
export function checkout(commit: string, env: Record<string, string> = {}): Checkout {
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const label = sha.slice(0, 7);
  const dir = join('/tmp', `bench-base-${label}`);
  if (!existsSync(join(dir, '.git'))) {
    console.log(`Базовий код: git worktree ${label} у ${dir}…`);
    // A folder left by a removed worktree is pruned first, so `add` can use the name again.
    git(['worktree', 'prune']);
    git(['worktree', 'add', '--force', '--detach', dir, sha]);
  }
  const at = git(['rev-parse', 'HEAD'], dir);
  if (at !== sha) throw new Error(`${dir} holds ${at.slice(0, 7)}, not ${label}: remove it (git worktree remove --force ${dir})`);
  if (!existsSync(join(dir, 'node_modules'))) {
    const ours = resolve('node_modules');
    const sameLock = existsSync('package-lock.json') && readFileSync('package-lock.json', 'utf8') === readFileSync(join(dir, 'package-lock.json'), 'utf8');
    if (sameLock && existsSync(ours)) symlinkSync(ours, join(dir, 'node_modules'));
    else {
      console.log(`${label}: npm ci --prefer-offline (його власний package-lock.json)…`);
      // With its own settings (its .npmrc, npm's defaults), not the ones `npm run` passes down in
      // npm_config_* from this checkout's .npmrc: this one's strict-allow-scripts would fail an older
      // lockfile whose package.json predates an allowScripts entry.
      const ownSettings = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_config_')));
      const installed = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: 'inherit', env: ownSettings });
      if (installed.status !== 0) throw new Error(`${label}: npm ci failed in ${dir}`);
    }
  }
  return { label, dir, env };
}

/**
 * This code: the working directory, or BENCH_CURRENT — a folder (another checkout), or a commit
 * (`HEAD`: the last commit in a worktree of its own, built apart from edits under way in this tree).
 */
export function currentCheckout(fallback = process.env.BENCH_CURRENT): Checkout {
  if (!fallback || fallback === '.') return { label: 'this code', dir: resolve('.'), env: {} };
  if (existsSync(fallback)) return { label: 'this code', dir: resolve(fallback), env: {} };
  return { ...checkout(fallback), label: `this code (${git(['rev-parse', '--short=7', fallback])})` };
}

/**
 * Runs `measure` for each side `rounds` times in the order base, this, this, base, base, this…:
 * the noise of a shared machine falls on both.
 */
export async function alternating<T>(rounds: number, measure: (side: 'base' | 'current', round: number) => Promise<T>): Promise<{ base: T[]; current: T[] }> {
  const results: { base: T[]; current: T[] } = { base: [], current: [] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['base', 'current'] as const) : (['current', 'base'] as const);
    for (const side of order) results[side].push(await measure(side, round));
  }
  return results;
}

if (import.meta.main) {
  for (const commit of process.argv.slice(2)) console.log(checkout(commit).dir);
}
