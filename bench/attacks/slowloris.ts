// Slowloris: connections that send a request's head one byte a second and never finish it, while
// `/api/health` is probed every PROBE_EVERY_MS. Reports how many connections the server cut off
// and after how long (and with what answer), and whether the probes were answered meanwhile.
// Loopback only, bounded in count (MAX_CONNECTIONS) and time (the duration, at most MAX_DURATION_MS).
// Runnable on its own against a running server:
//
//   node bench/attacks/slowloris.ts http://127.0.0.1:4321 [connections=200] [seconds=40] [cutoff-seconds=30]
//
// It exits 1 when a probe went unanswered (2 s), or when the run lasted past `cutoff-seconds` + 5 s
// (the server's request timeout: REQUEST_TIMEOUT_MS in src/server/serving/refusals.ts) and a slow
// connection was still open at its end.
import net from 'node:net';

export interface SlowlorisOptions {
  port: number;
  host?: string;
  /** Connections held at once (each opened once, never reopened); at most MAX_CONNECTIONS. */
  connections?: number;
  durationMs?: number;
  /** One byte per connection is written this often. */
  byteEveryMs?: number;
}

export interface SlowlorisResult {
  connections: number;
  /** Connections that could not be opened (refused, reset before they were). */
  failedToOpen: number;
  /** Connections the server closed before the end, and after how long (ms from their first byte). */
  cutOff: number;
  cutOffAfterMs: { min: number; median: number; max: number } | null;
  /** What the cut-off connections were answered before the close (`408`, `none`…), counted. */
  answers: Record<string, number>;
  /** Connections still open when the duration ended. */
  stillOpen: number;
  /** Bytes written in all. */
  bytesSent: number;
  probes: { sent: number; answered: number; failed: number; slowestMs: number };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;
export const MAX_CONNECTIONS = 2000;
export const MAX_DURATION_MS = 600_000;
const PROBE_EVERY_MS = 500;
const PROBE_TIMEOUT_MS = 2000;

/** A head that never ends: the request line and Host, then one header whose value goes on forever. */
function headByte(index: number): string {
  const start = 'GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';
  return index < start.length ? start[index]! : 'a';
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

/** Probes `/api/health` every PROBE_EVERY_MS until `stop` is called. */
function probeHealth(port: number, host: string) {
  const probes = { sent: 0, answered: 0, failed: 0, slowestMs: 0 };
  const pending: Promise<void>[] = [];
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const timer = setInterval(() => {
    probes.sent++;
    const started = Date.now();
    pending.push(
      fetch(`${base}/api/health`, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) }).then(
        async (response) => {
          await response.arrayBuffer();
          if (response.ok) {
            probes.answered++;
            probes.slowestMs = Math.max(probes.slowestMs, Date.now() - started);
          } else probes.failed++;
        },
        () => void probes.failed++,
      ),
    );
  }, PROBE_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await Promise.all(pending);
    return probes;
  };
}

/** Opens the slow connections and feeds them for `durationMs`, probing health meanwhile. */
export async function slowloris(options: SlowlorisOptions): Promise<SlowlorisResult> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  const count = Math.min(MAX_CONNECTIONS, Math.max(1, options.connections ?? 200));
  const durationMs = Math.min(MAX_DURATION_MS, options.durationMs ?? 40_000);
  const byteEveryMs = options.byteEveryMs ?? 1000;
  const stopProbing = probeHealth(options.port, host);

  interface Slow {
    socket: net.Socket;
    opened: boolean;
    sent: number;
    firstByteAt: number;
    closedAt: number | null;
    received: string;
  }
  const slow: Slow[] = [];
  let failedToOpen = 0;
  let bytesSent = 0;
  for (let i = 0; i < count; i++) {
    const socket = net.connect({ port: options.port, host });
    const entry: Slow = { socket, opened: false, sent: 0, firstByteAt: 0, closedAt: null, received: '' };
    slow.push(entry);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      if (entry.received.length < 512) entry.received += chunk.toString('latin1');
    });
    socket.on('error', () => {});
    socket.once('connect', () => {
      entry.opened = true;
      entry.firstByteAt = Date.now();
      socket.write(headByte(entry.sent++));
      bytesSent++;
    });
    socket.once('close', () => {
      if (!entry.opened) failedToOpen++;
      entry.closedAt ??= Date.now();
    });
    // The server's FIN counts as the cut-off, even if our side stays open a moment longer.
    socket.once('end', () => void (entry.closedAt ??= Date.now()));
    // Opened in steps of 100, so the listen backlog is not the first thing measured.
    if (i % 100 === 99) await new Promise((done) => setTimeout(done, 20));
  }

  const feeding = setInterval(() => {
    for (const entry of slow) {
      if (!entry.opened || entry.closedAt !== null || entry.socket.destroyed) continue;
      entry.socket.write(headByte(entry.sent++));
      bytesSent++;
    }
  }, byteEveryMs);
  await new Promise((done) => setTimeout(done, durationMs));
  clearInterval(feeding);
  const probes = await stopProbing();

  const cut = slow.filter((entry) => entry.opened && entry.closedAt !== null);
  const after = cut.map((entry) => entry.closedAt! - entry.firstByteAt);
  const answers: Record<string, number> = {};
  for (const entry of cut) {
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(entry.received)?.[1] ?? 'none';
    answers[status] = (answers[status] ?? 0) + 1;
  }
  const stillOpen = slow.filter((entry) => entry.opened && entry.closedAt === null).length;
  for (const entry of slow) entry.socket.destroy();
  return {
    connections: count,
    failedToOpen,
    cutOff: cut.length,
    cutOffAfterMs: after.length ? { min: Math.min(...after), median: median(after), max: Math.max(...after) } : null,
    answers,
    stillOpen,
    bytesSent,
    probes,
  };
}

if (import.meta.main) {
  const [address = 'http://127.0.0.1:4321', connections = '200', seconds = '40', cutoffSeconds = '30'] = process.argv.slice(2);
  const url = new URL(address);
  const durationMs = Number(seconds) * 1000;
  const result = await slowloris({ port: Number(url.port || 80), host: url.hostname.replace(/^\[|\]$/g, ''), connections: Number(connections), durationMs });
  console.log(result);
  const failures: string[] = [];
  if (result.probes.failed > 0) failures.push(`${result.probes.failed} of ${result.probes.sent} health probes unanswered`);
  if (durationMs >= (Number(cutoffSeconds) + 5) * 1000 && result.stillOpen > 0) {
    failures.push(`${result.stillOpen} slow connections still open after ${seconds} s (the server's limit: ${cutoffSeconds} s)`);
  }
  console.log(failures.length ? `FAIL: ${failures.join('; ')}` : 'ok');
  process.exitCode = failures.length ? 1 : 0;
}
