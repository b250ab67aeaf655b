// The viewers of `npm run bench:live` (bench/server/live.ts), in a process of their own so they do
// not share the measuring process's event loop: opens event streams to a tournament, spread over
// loopback source addresses (127.1.x.y) so the per-address cap holds, and notes when each
// `match` event arrives; then does what the page's live script does (src/islands/live): waits
// 150 ms and up to a second at random, reads the page's regions at the address the event names,
// and notes when the answer has arrived whole. It asks as a browser does (Accept-Encoding). What
// each browser would then do on its own device — unpack the answer, find the new result in it —
// is done once the round's reads are all in, so one process's unpacking of 10 000 answers does not
// take the shared cores from the server while it answers; a viewer counts as served at its
// answer's arrival when the answer holds the new result (the words it was told to expect).
// Driven over IPC:
//   → { type: 'open', targets: [{ port, count }], tournamentId, regions, perAddress } ← { type: 'opened', ready, failed, statuses }
//   → { type: 'expect', round, words }                                             ← { type: 'expecting' }
//   → { type: 'arrivals', round, timeoutMs }                                       ← { type: 'arrivals', round, times, served } (per target)
//   → { type: 'close' }                                                            ← { type: 'closed' }
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
// What the page's live script waits after an event: the burst's settling, then its share of the spread.
import { JITTER_MS, SETTLE_MS } from '../../src/lib/live/timing.ts';



interface Viewer {
  target: number;
  port: number;
  socket: net.Socket;
  /** Wall-clock times (ms, performance.timeOrigin-based) of each `match` event, in order. */
  matches: number[];
  /** When the round's result was on the viewer's page (an answer holding the expected words arrived). */
  served: (number | undefined)[];
  /** The round's answers as they arrived, not yet unpacked. */
  answers: { round: number; at: number; body: Buffer; encoding: string | undefined }[];
  ready: boolean;
}

type Message =
  | { type: 'open'; targets: { port: number; count: number }[]; tournamentId: string; regions: string; perAddress: number }
  | { type: 'expect'; round: number; words: string }
  | { type: 'arrivals'; round: number; timeoutMs: number }
  | { type: 'close' };

/** The page's regions address (without `?v=`), and what the current round's result says on the page. */
let regions = '';
let expected: { round: number; words: string } | null = null;
/** Connections for the regions' reads, kept open as a browser keeps its own. */
const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

/** The body as the page would read it: browsers take the compressed answer and unpack it. */
function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Reads scheduled and not yet answered: a round is in once none is left. */
let reading = 0;

/** Reads the regions the event named, as the page would, and keeps the answer with its arrival time. */
function readRegions(viewer: Viewer, change: string): void {
  const waiting = expected;
  if (!waiting) {
    reading--;
    return;
  }
  const headers = { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br, zstd' };
  let done = false;
  const finish = () => {
    if (!done) reading--;
    done = true;
  };
  const request = http.get({ host: '127.0.0.1', port: viewer.port, path: `${regions}?v=${encodeURIComponent(change)}`, agent, headers }, (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => {
      if (response.statusCode === 200) viewer.answers.push({ round: waiting.round, at: now(), body: Buffer.concat(chunks), encoding: response.headers['content-encoding'] });
      finish();
    });
    response.on('error', finish);
  });
  request.on('error', finish);
}

/** Unpacks the round's answers: each viewer is served at the first arrival that holds the new result. */
function judge(round: number, words: string): void {
  for (const viewer of viewers) {
    for (const answer of viewer.answers) {
      if (answer.round !== round || viewer.served[round] !== undefined) continue;
      if (decoded(answer.body, answer.encoding).includes(words)) viewer.served[round] = answer.at;
    }
    viewer.answers = viewer.answers.filter((answer) => answer.round > round);
  }
}

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
    const viewer: Viewer = { target, port, socket, matches: [], served: [], answers: [], ready: false };
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
      // The last event of the chunk names the change the page reads after it.
      const change = [...chunk.toString('utf8').matchAll(/"change":"([0-9a-f-]{36})"/g)].at(-1)?.[1];
      if (change && count(chunk, MATCH) > 0) {
        reading++;
        setTimeout(() => readRegions(viewer, change), SETTLE_MS + Math.random() * JITTER_MS);
      }
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
  regions = message.regions;
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
  // In once every viewer has an answer and no read is under way or waiting its moment.
  const answered = () => viewers.every((v) => v.answers.some((answer) => answer.round === round));
  while (Date.now() < deadline && (reading > 0 || !answered())) await new Promise((r) => setTimeout(r, 20));
  if (expected?.round === round) judge(round, expected.words);
  const times: (number | null)[][] = [];
  const served: (number | null)[][] = [];
  for (const viewer of viewers) {
    (times[viewer.target] ??= []).push(viewer.matches[round] ?? null);
    (served[viewer.target] ??= []).push(viewer.served[round] ?? null);
  }
  send({ type: 'arrivals', round, times, served });
}

process.on('message', (message: Message) => {
  if (message.type === 'open') void open(message);
  else if (message.type === 'expect') {
    expected = { round: message.round, words: message.words };
    send({ type: 'expecting' });
  } else if (message.type === 'arrivals') void arrivals(message);
  else {
    for (const viewer of viewers) viewer.socket.destroy();
    viewers.length = 0;
    send({ type: 'closed' });
  }
});
// The benchmark stopped (or failed): its viewers go with it.
process.on('disconnect', () => process.exit(0));
