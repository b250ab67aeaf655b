// The viewers of `npm run bench:live` (bench/server/live.ts), in a process of their own so they do
// not share the measuring process's event loop: opens event streams to a tournament, spread over
// loopback source addresses (127.1.x.y) so the per-address cap holds, and notes when each
// `match` event arrives. Driven over IPC:
//   → { type: 'open', targets: [{ port, count }], tournamentId, perAddress }   ← { type: 'opened', ready, failed, statuses }
//   → { type: 'arrivals', round, timeoutMs }                                   ← { type: 'arrivals', round, times: (number | null)[][] } (per target)
//   → { type: 'close' }                                                        ← { type: 'closed' }
import net from 'node:net';
import { performance } from 'node:perf_hooks';

interface Viewer {
  target: number;
  socket: net.Socket;
  /** Wall-clock times (ms, performance.timeOrigin-based) of each `match` event, in order. */
  matches: number[];
  ready: boolean;
}

type Message =
  | { type: 'open'; targets: { port: number; count: number }[]; tournamentId: string; perAddress: number }
  | { type: 'arrivals'; round: number; timeoutMs: number }
  | { type: 'close' };

const viewers: Viewer[] = [];
const now = () => performance.timeOrigin + performance.now();
const send = (message: unknown) => process.send!(message);

/** The n-th loopback source address (127.1.0.1, …): the server counts streams per address. */
const address = (n: number) => `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;

const READY = Buffer.from('event: ready\n');
const MATCH = Buffer.from('event: match\n');

/** How many times `needle` occurs in `haystack`. */
function count(haystack: Buffer, needle: Buffer): number {
  let found = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found++;
  return found;
}

/**
 * Opens one stream on a plain socket (an HTTP client's parser per chunk would make this process,
 * not the server, the slow part of 10 000 deliveries); resolves with its status once `ready`
 * arrived (200), or the answer's status, or -1 when the connection failed or ended first.
 */
function openOne(port: number, path: string, localAddress: string, target: number): Promise<number> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    const viewer: Viewer = { target, socket, matches: [], ready: false };
    let status = 0;
    let settled = false;
    const settle = (result: number) => {
      if (settled) return;
      settled = true;
      if (result === 200) viewers.push(viewer);
      else socket.destroy();
      resolve(result);
    };
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      const at = now();
      if (status === 0) {
        status = Number(chunk.subarray(9, 12).toString('latin1'));
        if (status !== 200) return settle(status);
      }
      // Frames are small and each is written whole: an event line is never cut between chunks.
      for (let n = count(chunk, MATCH); n > 0; n--) viewer.matches.push(at);
      if (!viewer.ready && chunk.includes(READY)) {
        viewer.ready = true;
        settle(200);
      }
    });
    socket.on('error', () => settle(-1));
    socket.on('close', () => settle(-1));
  });
}

async function open(message: Extract<Message, { type: 'open' }>) {
  const statuses: Record<string, number> = {};
  let n = 0;
  const jobs: { port: number; target: number; address: string }[] = [];
  message.targets.forEach(({ port, count }, target) => {
    for (let i = 0; i < count; i++) jobs.push({ port, target, address: address(Math.floor(n++ / message.perAddress)) });
  });
  // A few hundred at a time: the server's listen backlog is 511.
  const path = `/api/tournaments/${message.tournamentId}/events`;
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++]!;
      const status = await openOne(job.port, path, job.address, job.target);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: 200 }, worker));
  const ready = viewers.filter((v) => v.ready).length;
  send({ type: 'opened', ready, failed: jobs.length - ready, statuses });
}

async function arrivals({ round, timeoutMs }: Extract<Message, { type: 'arrivals' }>) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && viewers.some((v) => v.matches.length <= round)) await new Promise((r) => setTimeout(r, 20));
  const times: (number | null)[][] = [];
  for (const viewer of viewers) (times[viewer.target] ??= []).push(viewer.matches[round] ?? null);
  send({ type: 'arrivals', round, times });
}

process.on('message', (message: Message) => {
  if (message.type === 'open') void open(message);
  else if (message.type === 'arrivals') void arrivals(message);
  else {
    for (const viewer of viewers) viewer.socket.destroy();
    viewers.length = 0;
    send({ type: 'closed' });
  }
});
// The benchmark stopped (or failed): its viewers go with it.
process.on('disconnect', () => process.exit(0));
