import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { causeOf, supervise } from '../../scripts/supervise.mjs';

const dir = mkdtempSync(join(tmpdir(), 'supervise-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes a child script into the test's folder and gives its path. */
function script(name: string, source: string): string {
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

/** A server stand-in: says it is up, and on SIGTERM or SIGINT closes (taking 100 ms, once) and exits 0. */
// 'up' only once the handlers are on: a signal sent the moment it is read must find them.
const SERVER = `
  let closing = false;
  const stop = (signal) => { if (closing) return; closing = true; setTimeout(() => { console.log('stopped cleanly on ' + signal); process.exit(0); }, 100); };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  setInterval(() => {}, 1000);
  console.log('up ' + process.pid);
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, done: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Runs `supervise` on `node <path>` with quiet stderr, recording starts and log lines. */
function supervised(path: string, options: { firstDelayMs?: number; maxDelayMs?: number; stableMs?: number; stopTimeoutMs?: number; nodeFlags?: string[] } = {}) {
  const starts: { pid: number; at: number }[] = [];
  const logs: { line: string; at: number }[] = [];
  const supervisor = supervise({
    command: process.execPath,
    args: [...(options.nodeFlags ?? []), path],
    ...options,
    log: (line) => logs.push({ line, at: Date.now() }),
    stderr: new PassThrough().resume(),
    onStart: (pid) => starts.push({ pid, at: Date.now() }),
  });
  return { supervisor, starts, logs };
}

describe('supervise', () => {
  it('starts a server that ran out of heap again within 2 s, and logs the signal and why', async () => {
    const marker = join(dir, 'crashed-once');
    const path = script(
      'oom-once.mjs',
      `import { existsSync, writeFileSync } from 'node:fs';
       if (!existsSync(${JSON.stringify(marker)})) {
         writeFileSync(${JSON.stringify(marker)}, '');
         const hoard = [];
         for (;;) hoard.push(new Array(100_000).fill({ n: hoard.length }));
       }
       ${SERVER}`,
    );
    const { supervisor, starts, logs } = supervised(path, { nodeFlags: ['--max-old-space-size=16'] });
    try {
      await until('the second start', () => starts.length === 2, 20_000);
      expect(logs).toHaveLength(1);
      const [crash] = logs;
      expect(crash!.line).toMatch(/heap out of memory/i);
      expect(crash!.line).toMatch(/сигнал SIGABRT|код 134/);
      expect(crash!.line).toContain(`pid ${starts[0]!.pid}`);
      expect(starts[1]!.at - crash!.at).toBeLessThan(2000);
      expect(alive(starts[1]!.pid)).toBe(true);
    } finally {
      await supervisor.stop();
    }
  }, 30_000);

  it('waits twice as long after each crash that follows a short run, up to the most it waits', async () => {
    const path = script('crash.mjs', `console.error('Error: cannot listen'); process.exit(3);`);
    const { supervisor, starts, logs } = supervised(path, { firstDelayMs: 100, maxDelayMs: 800, stableMs: 60_000 });
    try {
      await until('six starts', () => starts.length === 6, 20_000);
    } finally {
      await supervisor.stop();
    }
    const waits = logs.map(({ line }) => line.match(/через ([\d.]+) с$/)?.[1]);
    expect(waits.slice(0, 5)).toEqual(['0.1', '0.2', '0.4', '0.8', '0.8']);
    expect(logs[0]!.line).toContain('код 3 (Error: cannot listen)');
    for (let i = 1; i < 6; i++) expect(starts[i]!.at - starts[i - 1]!.at).toBeGreaterThanOrEqual([100, 200, 400, 800, 800][i - 1]!);
  }, 30_000);

  it('waits the shortest time again after a run that lasted', async () => {
    const path = script('crash-later.mjs', `setTimeout(() => process.exit(1), 300);`);
    const { supervisor, starts, logs } = supervised(path, { firstDelayMs: 100, maxDelayMs: 800, stableMs: 200 });
    try {
      await until('four starts', () => starts.length === 4, 20_000);
    } finally {
      await supervisor.stop();
    }
    expect(logs.slice(0, 3).map(({ line }) => line.match(/через ([\d.]+) с$/)?.[1])).toEqual(['0.1', '0.1', '0.1']);
  }, 30_000);

  it('kills a child that does not stop after SIGTERM, and starts nothing after stopping', async () => {
    const path = script('stubborn.mjs', `process.on('SIGTERM', () => {}); console.log('up'); setInterval(() => {}, 1000);`);
    const { supervisor, starts } = supervised(path, { stopTimeoutMs: 300 });
    await until('the start', () => starts.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = Date.now();
    await supervisor.stop();
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(300);
    expect(alive(starts[0]!.pid)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(starts).toHaveLength(1);
  });

  it('names the cause from the last words of the child', () => {
    expect(causeOf('<--- Last few GCs --->\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n 1: 0xb8 node::Abort()\n')).toBe(
      'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
    );
    expect(causeOf('listening\nError: listen EADDRINUSE: address already in use 127.0.0.1:4321\n    at Server.setupListenHandle\n')).toBe(
      'Error: listen EADDRINUSE: address already in use 127.0.0.1:4321',
    );
    expect(causeOf('')).toBeUndefined();
  });
});

describe('node scripts/supervise.mjs', () => {
  /** Starts the supervisor as npm start does (a group of its own here, as Playwright and terminals make one). */
  function start(path: string) {
    const child = spawn(process.execPath, ['--max-old-space-size=16', 'scripts/supervise.mjs', '--node-options=--max-old-space-size=64', process.execPath, path], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'close', not 'exit': it comes after the pipes have given every line (the server writes its
    // last one into the same pipe just before the supervisor exits).
    const exit = once(child, 'close') as Promise<[number | null, NodeJS.Signals | null]>;
    return { child, exit, output: () => output, serverPid: () => Number(output.match(/up (\d+)/)?.[1]) };
  }

  it('stops the server cleanly on SIGTERM and exits 0, with the server given its own NODE_OPTIONS', async () => {
    const path = script('server.mjs', `console.log('options ' + process.env.NODE_OPTIONS); ${SERVER}`);
    const supervisor = start(path);
    await until('the server to be up', () => /up \d+/.test(supervisor.output()));
    expect(supervisor.output()).toContain('options --max-old-space-size=64');
    supervisor.child.kill('SIGTERM');
    expect(await supervisor.exit).toEqual([0, null]);
    expect(supervisor.output()).toContain('stopped cleanly on SIGTERM');
    expect(supervisor.output().match(/up \d+/g)).toHaveLength(1);
    expect(alive(supervisor.serverPid())).toBe(false);
  });

  it('stops cleanly when the whole group gets SIGINT (Ctrl+C in a terminal)', async () => {
    const supervisor = start(script('server-int.mjs', SERVER));
    await until('the server to be up', () => /up \d+/.test(supervisor.output()));
    process.kill(-supervisor.child.pid!, 'SIGINT');
    expect(await supervisor.exit).toEqual([0, null]);
    expect(supervisor.output()).toMatch(/stopped cleanly on SIG(INT|TERM)/);
    expect(supervisor.output().match(/up \d+/g)).toHaveLength(1);
    expect(alive(supervisor.serverPid())).toBe(false);
  });

  it('leaves no server behind when the group is killed outright (Playwright stopping its webServer)', async () => {
    const supervisor = start(script('server-kill.mjs', SERVER));
    await until('the server to be up', () => /up \d+/.test(supervisor.output()));
    process.kill(-supervisor.child.pid!, 'SIGKILL');
    await supervisor.exit;
    await until('the server to be gone', () => !alive(supervisor.serverPid()), 2000);
  });

  it('keeps itself small', async () => {
    const supervisor = start(script('server-small.mjs', SERVER));
    await until('the server to be up', () => /up \d+/.test(supervisor.output()));
    const rss = Number(readFileSync(`/proc/${supervisor.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1]) / 1024;
    supervisor.child.kill('SIGTERM');
    await supervisor.exit;
    // A bare Node process is about 45 MB; type stripping alone would add about 15.
    expect(rss).toBeLessThan(56);
  });

  it("exits with the server's code when the server does not stop cleanly", async () => {
    const supervisor = start(
      script('server-fails-to-stop.mjs', `process.on('SIGTERM', () => process.exit(3)); setInterval(() => {}, 1000); console.log('up ' + process.pid);`),
    );
    await until('the server to be up', () => /up \d+/.test(supervisor.output()));
    supervisor.child.kill('SIGTERM');
    expect(await supervisor.exit).toEqual([3, null]);
  });
});

describe('npm start', () => {
  /**
   * A project of its own with package.json's real `start` command, whose scripts/start.ts does what
   * the real one ends with (execve into scripts/supervise.mjs) without building: npm runs the command
   * through a shell, and the signal npm passes on has to reach the supervisor.
   */
  function npmStart(name: string) {
    const project = join(dir, name);
    mkdirSync(join(project, 'scripts'), { recursive: true });
    const { scripts } = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name, private: true, scripts: { start: scripts.start } }));
    const server = script(`${name}-server.mjs`, `console.log('parent ' + process.ppid); ${SERVER}`);
    writeFileSync(
      join(project, 'scripts', 'start.ts'),
      `process.execve(process.execPath, [process.execPath, ${JSON.stringify(resolve('scripts/supervise.mjs'))}, process.execPath, ${JSON.stringify(server)}], process.env);`,
    );
    // A group of its own, so that whatever a failed run leaves behind can be killed at the end.
    const npm = spawn('npm', ['start'], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    // 'exit', not 'close': without the fix what npm leaves behind keeps its pipes open.
    const exit = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const pids = () => ({ server: Number(output.match(/up (\d+)/)?.[1]), supervisor: Number(output.match(/parent (\d+)/)?.[1]) });
    const cleanUp = () => {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // Nothing of the group is left.
      }
    };
    return { npm, exit, output: () => output, pids, cleanUp };
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`stops the supervisor and the server when npm alone gets ${signal}`, async () => {
      const run = npmStart(`npm-start-${signal.toLowerCase()}`);
      try {
        await until('the server to be up', () => /up \d+/.test(run.output()), 20_000);
        const { server, supervisor } = run.pids();
        expect(alive(supervisor)).toBe(true);
        run.npm.kill(signal);
        // Without the fix a shell between npm and the supervisor dies of SIGTERM, or waits on SIGINT for ever.
        expect(await Promise.race([run.exit, new Promise((resolve) => setTimeout(resolve, 5000, 'npm still running'))])).toEqual([0, null]);
        await until('the supervisor and the server to be gone', () => !alive(supervisor) && !alive(server), 2000);
        await until('the server to say it stopped cleanly', () => run.output().includes('stopped cleanly on SIGTERM'), 2000);
      } finally {
        run.cleanUp();
      }
    }, 30_000);
  }
});
