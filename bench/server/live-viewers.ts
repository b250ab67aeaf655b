// The viewers of `npm run bench:live` (bench/server/live.ts), in a process of their own so they do
// not share the measuring process's event loop: opens event streams to a tournament, spread over
// loopback source addresses (127.1.x.y) so the per-address cap holds, and notes when each
// `match` event arrives. Driven over IPC:
//   → { type: 'open', targets: [{ port, count }], tournamentId, perAddress }   ← { type: 'opened', ready, failed, statuses }
//   → { type: 'arrivals', round, timeoutMs }                                   ← { type: 'arrivals', round, times: (number | null)[][] } (per target)
//   → { type: 'close' }                                                        ← { type: 'closed' }
import http from 'node:http';
import { performance } from 'node:perf_hooks';

interface Viewer {
  target: number;
  request: http.ClientRequest;
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

/** Opens one stream; resolves with its status once `ready` arrived (200) or the answer ended. */
function openOne(port: number, path: string, localAddress: string, target: number): Promise<number> {
  return new Promise((resolve) => {
    const viewer: Viewer = { target, request: undefined as never, matches: [], ready: false };
    let settled = false;
    const settle = (status: number) => {
      if (!settled) {
        settled = true;
        resolve(status);
      }
    };
    const request = http.request({ host: '127.0.0.1', port, path, localAddress, agent: false, headers: { accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        response.on('end', () => settle(response.statusCode ?? 0));
        return;
      }
      viewers.push(viewer);
      let tail = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        const at = now();
        const text = tail + chunk;
        let index = 0;
        for (;;) {
          const found = text.indexOf('event: ', index);
          if (found === -1) break;
          const end = text.indexOf('\n', found);
          if (end === -1) break;
          const name = text.slice(found + 7, end);
          if (name === 'match') viewer.matches.push(at);
          else if (name === 'ready') {
            viewer.ready = true;
            settle(200);
          }
          index = end + 1;
        }
        // Keep an event line cut in two for the next chunk.
        const last = text.lastIndexOf('\n');
        tail = text.slice(last + 1).slice(-64);
      });
      response.on('error', () => {});
      response.on('close', () => settle(-1));
    });
    viewer.request = request;
    request.on('error', () => settle(-2));
    request.end();
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
    for (const viewer of viewers) viewer.request.destroy();
    viewers.length = 0;
    send({ type: 'closed' });
  }
});
