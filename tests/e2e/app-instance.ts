import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

export interface AppInstance {
  url: string;
  /** The server's process. */
  pid: number;
  /** What the server printed, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts one more app server from the build Playwright's own server made, on a database of the
 * test's choosing, and waits until it is healthy. `scripts/serve.ts` serves the existing build
 * (BUILD_DIR), so it never rebuilds under the running servers.
 */
export async function startInstance(port: number, env: Record<string, string>): Promise<AppInstance> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), SEED_DEMO: 'false', ASTRO_TELEMETRY_DISABLED: '1', DISCORD_API_ROOT: 'http://127.0.0.1:9/api', TELEGRAM_BOT_TOKEN: '', TELEGRAM_API_ROOT: 'http://127.0.0.1:9', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const instance: AppInstance = {
    url,
    pid: child.pid!,
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server on ${port} exited:\n${log}`);
    const healthy = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (healthy) return instance;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await instance.stop();
  throw new Error(`the server on ${port} did not become healthy:\n${log}`);
}

/**
 * A port the system has free, for an instance of a spec's own: a fixed offset from E2E_PORT may
 * land on another service's (5399 + 33 is PostgreSQL's 5432).
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
