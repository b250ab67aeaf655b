// @ts-check
// `npm start` runs the server under this (scripts/start.ts): the server is a child process, and
// when it stops on its own (a crash, V8 out of heap) it is started again within moments, so one
// failure does not leave the site down. Plain JavaScript, and nothing but node:child_process:
// a .ts file would make Node load its TypeScript stripper (about 15 MB) into a process that only waits.
//
//   node scripts/supervise.mjs [--node-options=<NODE_OPTIONS for the server>] <command> [args…]
import { spawn } from 'node:child_process';

/**
 * @typedef {object} SuperviseOptions
 * @property {string} command
 * @property {string[]} args
 * @property {NodeJS.ProcessEnv} [env] the child's environment (this process's by default)
 * @property {number} [firstDelayMs] wait before the first restart after a crash
 * @property {number} [maxDelayMs] the longest wait, as crashes repeat and the wait doubles
 * @property {number} [stableMs] a run this long counts as stable: the next crash waits `firstDelayMs` again
 * @property {number} [stopTimeoutMs] how long a stopping child has after SIGTERM before SIGKILL
 * @property {(line: string) => void} [log]
 * @property {NodeJS.WritableStream} [stderr] where the child's stderr goes on to
 * @property {(pid: number) => void} [onStart]
 */

/**
 * @typedef {object} Supervisor
 * @property {() => number | undefined} pid the running child's pid
 * @property {(signal?: NodeJS.Signals) => Promise<Exit | undefined>} stop stops the child (SIGTERM, then SIGKILL) and restarts no
 *   more; gives how it ended (nothing when none was running)
 */

/** @typedef {{ code: number | null, signal: NodeJS.Signals | null }} Exit how a child ended */

/** How much of the child's stderr is kept to say why it stopped. */
const TAIL_BYTES = 4096;

/** @param {number} ms */
const seconds = (ms) => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} с`;

/**
 * The line of the child's last words that says why it stopped: V8's fatal error, else the last
 * error, else the last line.
 * @param {string} tail
 */
export function causeOf(tail) {
  const lines = tail
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const line =
    lines.findLast((l) => /heap out of memory|FATAL ERROR/i.test(l)) ?? lines.findLast((l) => /^\w*Error\b|^\[?\w+\]? .*error/i.test(l)) ?? lines.at(-1);
  return line?.slice(0, 300);
}

/**
 * Runs `command` and starts it again whenever it exits without being asked to: after `firstDelayMs`,
 * then twice as long for each crash that follows a short run, up to `maxDelayMs`. Each stop is
 * logged with its exit code or signal and the line of stderr that says why.
 * @param {SuperviseOptions} options
 * @returns {Supervisor}
 */
export function supervise({
  command,
  args,
  env = process.env,
  firstDelayMs = 100,
  maxDelayMs = 30_000,
  stableMs = 60_000,
  stopTimeoutMs = 10_000,
  log = (line) => console.error(line),
  stderr = process.stderr,
  onStart,
}) {
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  let stopping = false;
  let crashes = 0;
  /** @type {NodeJS.Timeout | undefined} */
  let restart;
  /** @type {Promise<Exit>} */
  let exited = Promise.resolve({ code: null, signal: null });

  const start = () => {
    restart = undefined;
    const startedAt = Date.now();
    /** @type {Buffer} */
    let tail = Buffer.alloc(0);
    const running = spawn(command, args, { env, stdio: ['ignore', 'inherit', 'pipe'] });
    child = running;
    running.stderr?.on('data', (/** @type {Buffer} */ chunk) => {
      stderr.write(chunk);
      tail = Buffer.concat([tail, chunk]).subarray(-TAIL_BYTES);
    });
    exited = new Promise((done) => {
      let settled = false;
      /** @param {number | null} code @param {NodeJS.Signals | null} signal @param {string} [error] */
      const ended = (code, signal, error) => {
        if (settled) return;
        settled = true;
        if (child === running) child = undefined;
        done({ code, signal });
        if (stopping) return;
        const ranMs = Date.now() - startedAt;
        crashes = ranMs >= stableMs ? 1 : crashes + 1;
        const delay = Math.min(firstDelayMs * 2 ** (crashes - 1), maxDelayMs);
        const how = error ?? (signal ? `сигнал ${signal}` : `код ${code}`);
        const cause = error ? undefined : causeOf(tail.toString('utf8'));
        log(`[supervise] сервер (pid ${running.pid ?? '—'}) зупинився через ${seconds(ranMs)}: ${how}${cause ? ` (${cause})` : ''}; запускаємо знову через ${seconds(delay)}`);
        restart = setTimeout(start, delay);
      };
      // 'close' comes after stderr has ended, so the tail holds the child's last words.
      running.once('close', (code, signal) => ended(code, signal));
      running.once('error', (error) => {
        if (running.pid === undefined) ended(null, null, error.message);
      });
    });
    if (running.pid !== undefined) onStart?.(running.pid);
  };

  start();
  return {
    pid: () => child?.pid,
    async stop(signal = 'SIGTERM') {
      stopping = true;
      clearTimeout(restart);
      const running = child;
      if (!running) return undefined;
      running.kill(signal);
      const killer = setTimeout(() => running.kill('SIGKILL'), stopTimeoutMs);
      const exit = await exited;
      clearTimeout(killer);
      return exit;
    },
  };
}

/**
 * The command line's supervisor: SIGINT and SIGTERM stop the child cleanly (it closes the
 * database on SIGTERM) and then this process, with the child's exit code (0 for a clean stop; 1
 * when it had to be killed).
 * @param {string[]} argv what follows the script's name
 */
export function runSupervisor(argv) {
  const options = argv[0]?.startsWith('--node-options=') ? argv[0].slice('--node-options='.length) : undefined;
  const [command, ...args] = options === undefined ? argv : argv.slice(1);
  if (!command) {
    console.error('Використання: node scripts/supervise.mjs [--node-options=…] <команда> [аргументи…]');
    process.exit(2);
  }
  const env = options === undefined ? process.env : { ...process.env, NODE_OPTIONS: options };
  const supervisor = supervise({ command, args, env });
  let stopping = false;
  /** @param {NodeJS.Signals} signal */
  const stop = (signal) => {
    if (stopping) return;
    stopping = true;
    console.error(`[supervise] ${signal}: зупиняємо сервер`);
    // SIGTERM whatever came: a terminal's Ctrl+C reaches the child too, and it takes both alike.
    void supervisor.stop('SIGTERM').then((exit) => process.exit(exit?.code ?? (exit?.signal ? 1 : 0)));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return supervisor;
}

if (import.meta.main) runSupervisor(process.argv.slice(2));
