// A hostile client: connections that pipeline requests in large segments and never read an answer,
// reconnecting whenever the server closes them. Loopback only, bounded in time. Used by
// tests/e2e/attacks.spec.ts and runnable on its own against a running server:
//
//   node bench/attacks/pipelining.ts http://127.0.0.1:4321 /favicon.svg [connections] [seconds]
import net from 'node:net';

export interface FloodOptions {
  port: number;
  host?: string;
  /** The request target every request asks for. */
  path: string;
  /** Connections open at once, each reopened when the server closes it. */
  connections: number;
  /** Requests written per segment. */
  perSegment?: number;
  durationMs: number;
  /** Extra header lines (`Accept-Encoding: br`). */
  headers?: string[];
}

export interface FloodResult {
  /** Connections opened in all (the first ones and every reconnection). */
  opened: number;
  /** Connections the server closed or reset. */
  closedByServer: number;
  /** Requests written. */
  sent: number;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/** Floods `path` on `port` for `durationMs` with connections that never read (see above). */
export async function pipelineFlood(options: FloodOptions): Promise<FloodResult> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  const head = [`GET ${options.path} HTTP/1.1`, 'Host: 127.0.0.1', ...(options.headers ?? []), '', ''].join('\r\n');
  const segment = head.repeat(options.perSegment ?? 100);
  const result: FloodResult = { opened: 0, closedByServer: 0, sent: 0 };
  const deadline = Date.now() + options.durationMs;
  const open = new Set<net.Socket>();

  const connect = () => {
    if (Date.now() >= deadline) return;
    const socket = net.connect({ port: options.port, host });
    result.opened++;
    open.add(socket);
    // Never read: what the server sends fills the buffers and stays there.
    socket.pause();
    let timer: NodeJS.Timeout | undefined;
    const write = () => {
      if (Date.now() >= deadline || socket.destroyed) return;
      // Written only while the socket takes it: the flood stops when the server stops reading.
      if (socket.writableLength < 64 * 1024) {
        socket.write(segment);
        result.sent += options.perSegment ?? 100;
      }
      timer = setTimeout(write, 10);
    };
    socket.once('connect', write);
    socket.on('error', () => {});
    socket.once('close', () => {
      clearTimeout(timer);
      open.delete(socket);
      if (Date.now() < deadline) {
        result.closedByServer++;
        setTimeout(connect, 5);
      }
    });
  };

  for (let i = 0; i < options.connections; i++) connect();
  await new Promise((done) => setTimeout(done, options.durationMs));
  for (const socket of open) socket.destroy();
  return result;
}

if (import.meta.main) {
  const [address = 'http://127.0.0.1:4321', path = '/', connections = '8', seconds = '10'] = process.argv.slice(2);
  const url = new URL(address);
  const probes: number[] = [];
  const probing = setInterval(() => {
    const started = Date.now();
    fetch(new URL('/api/health', url), { signal: AbortSignal.timeout(2000) }).then(
      (r) => probes.push(r.ok ? Date.now() - started : -1),
      () => probes.push(-1),
    );
  }, 500);
  const result = await pipelineFlood({ port: Number(url.port), host: url.hostname, path, connections: Number(connections), durationMs: Number(seconds) * 1000 });
  clearInterval(probing);
  const answered = probes.filter((ms) => ms >= 0);
  console.log({ ...result, healthProbes: probes.length, answered: answered.length, slowestMs: Math.max(0, ...answered) });
}
