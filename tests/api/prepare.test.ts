import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScratchDatabase } from '../support/postgres.ts';

/**
 * `npm start` prepares the database in a short-lived process (scripts/prepare.ts) before serving.
 * That process must end by itself once the database is ready: a live link that reconnects or a
 * sweep's timer once kept it running for ever on PostgreSQL, so the site never started.
 */
async function prepare(env: Record<string, string>, args = ['scripts/prepare.ts']): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ADMIN_EMAIL: 'prepare@test.test', SEED_DEMO: 'false', SWEEPS: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
  clearTimeout(killer);
  return { code, output, ms: Date.now() - started };
}

describe('preparing the database (scripts/prepare.ts)', () => {
  it('migrates, makes the admin, and ends by itself', { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kiberarena-prepare-'));
    let drop = async () => {};
    let env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: '' };
    if (process.env.TEST_DB === 'postgres') {
      const scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL!);
      env = { ...env, DATABASE_URL: scratch.url };
      drop = scratch.drop;
    }
    try {
      const run = await prepare(env);
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain('prepare@test.test');
    } finally {
      await drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Tests run as root, for whom a folder's mode does not stop a write: a path through a regular
  // file (ENOTDIR) and one under /proc (where Node's recursive mkdir never returns) cannot be written.
  it('ends with one Ukrainian sentence naming a data folder it cannot write, not a trace', { timeout: 60_000 }, async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'kiberarena-unwritable-'));
    try {
      const file = join(scratch, 'a-file');
      await writeFile(file, '');
      for (const dataDir of [join(file, 'data'), '/proc/kiberarena-data']) {
        const run = await prepare({ DATA_DIR: dataDir, DATABASE_URL: '' });
        expect(run.code, run.output).not.toBe(0);
        expect(run.ms, run.output).toBeLessThan(30_000);
        const lines = run.output.trim().split('\n');
        expect(lines, run.output).toHaveLength(1);
        expect(lines[0]).toContain(`Сервер не може писати в папку ${dataDir} (`);
        expect(lines[0]).toContain('вкажіть у DATA_DIR іншу папку.');
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });

  it('ends a serving process the same way when the folder cannot be written at its start (a restart after a full disk)', { timeout: 60_000 }, async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'kiberarena-unwritable-'));
    try {
      const file = join(scratch, 'a-file');
      await writeFile(file, '');
      const dataDir = join(file, 'data');
      // As the server's first request opens it, with npm start's preparation already done.
      const serving = ['--input-type=module', '-e', "await (await import('./src/server/runtime.ts')).getRuntime({ serving: true });"];
      const run = await prepare({ DATA_DIR: dataDir, DATABASE_URL: '', KIBERARENA_DATABASE_PREPARED: '1' }, serving);
      expect(run.code, run.output).toBe(1);
      const lines = run.output.trim().split('\n');
      expect(lines, run.output).toHaveLength(1);
      expect(lines[0]).toContain(`Сервер не може писати в папку ${dataDir} (`);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
