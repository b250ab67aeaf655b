// API writes served on a worker thread (decision 021): the main thread keeps HTTP, held answers,
// pages and reads; the writes' transactions run on a thread of their own, on the machine's other
// core, where a statement's answer does not wait behind a turn of the main thread's loop.
import type http from 'node:http';
import { Worker } from 'node:worker_threads';
import { bodyLimitOf } from '../api/body-limits.ts';
import type { WriteMethod } from '../services/live.ts';
import { afterApiWrite, WROTE_SET_COOKIE } from './api-writes.ts';
import { refuse, type Refusal } from './refusals.ts';

/** A write as it crosses to the thread: what `Request` needs, and the caller's address for rate limits. */
export interface CrossingRequest {
  id: number;
  method: WriteMethod;
  url: string;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
  clientAddress: string | undefined;
}

/** The thread's answer to a `CrossingRequest`, compressed as it will be sent. */
export interface CrossingAnswer {
  id: number;
  status: number;
  headers: [string, string][];
  body: Uint8Array<ArrayBuffer>;
}

export interface WriteThreadOptions {
  /** The thread's environment: this process's, unless a test gives its own. The thread never sweeps (this process does). */
  env?: NodeJS.ProcessEnv;
  /** Answers a write the thread cannot take (it stopped): 503, as an overloaded server would. */
  unavailable: (req: http.IncomingMessage, res: http.ServerResponse) => void;
  /** The thread's heap, in MB (decision 021: inside the process's 384 MB with the main thread's). */
  youngGenerationMb?: number;
  oldGenerationMb?: number;
}

export interface WriteThread {
  /** Serves one API write: its body is read here (at most the API's limit for its path), its answer made there. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, method: WriteMethod): void;
  /** Waits until the thread has loaded the API (or failed to). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** After the thread stopped, writes are refused for this long before it is started again: a thread that cannot start (the database down) must not be started for every write. */
const RESTART_DELAY_MS = 1_000;

/** The thread's entry beside this module: the build's bundle (`dist/serving/`, scripts/bundle-serving.ts), or the source when this runs from it (tests, `node scripts/serve.ts`). */
const WORKER_ENTRY = new URL(import.meta.url.endsWith('.ts') ? './write-worker.ts' : './write-worker.mjs', import.meta.url);

/** Headers about this connection and the body's framing, not about the request (RFC 9110 §7.6.1), and the length, set anew. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'content-length']);

interface Waiting {
  req: http.IncomingMessage;
  res: http.ServerResponse;
  method: WriteMethod;
  path: string;
}

/** The rest of the body is not read: the connection closes after this answer. */
const TOO_LARGE: Refusal = { status: 413, key: 'error.tooLarge', headers: { Connection: 'close' } };

/** The answer's headers as `writeHead` takes them, with every `set-cookie` kept and the body's length. */
function headersOf(pairs: readonly [string, string][], extraCookie: string | null, length: number): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  const cookies: string[] = [];
  for (const [name, value] of pairs) {
    if (name === 'set-cookie') cookies.push(value);
    else headers[name] = value;
  }
  if (extraCookie) cookies.push(extraCookie);
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  headers['content-length'] = length;
  return headers;
}

/** Starts the thread (server/serving/write-worker.ts) that serves API writes; it is started again after it stops. */
export function writeThread(options: WriteThreadOptions): WriteThread {
  const waiting = new Map<number, Waiting>();
  let next = 0;
  let worker: Worker | undefined;
  let loaded: Promise<void> = Promise.resolve();
  let stoppedAt = -Infinity;
  let closed = false;

  const start = (): Worker => {
    const thread = new Worker(WORKER_ENTRY, {
      env: { ...(options.env ?? process.env), SWEEPS: 'false' },
      resourceLimits: { maxYoungGenerationSizeMb: options.youngGenerationMb ?? 16, maxOldGenerationSizeMb: options.oldGenerationMb ?? 128 },
    });
    loaded = new Promise((done) => {
      const settle = () => done();
      thread.once('message', settle);
      thread.once('exit', settle);
    });
    thread.on('message', (message: CrossingAnswer | { ready: true }) => {
      if ('ready' in message) return;
      const entry = waiting.get(message.id);
      if (!entry) return;
      waiting.delete(message.id);
      const wrote = message.status < 400;
      // The held answers this write made out of date, marked before its writer can read them again.
      if (wrote) afterApiWrite(entry.path, entry.method);
      if (entry.res.destroyed) return;
      entry.res.writeHead(message.status, headersOf(message.headers, wrote ? WROTE_SET_COOKIE : null, message.body.byteLength));
      entry.res.end(Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength));
    });
    thread.on('error', (error) => console.error('[writes] потік записів зупинився:', error.message));
    thread.once('exit', () => {
      if (worker === thread) worker = undefined;
      stoppedAt = performance.now();
      // A write that was inside it may or may not have committed: its writer is told to try again.
      for (const [id, entry] of waiting) {
        waiting.delete(id);
        if (!entry.res.headersSent) options.unavailable(entry.req, entry.res);
      }
    });
    return thread;
  };
  worker = start();

  return {
    handle(req, res, method) {
      if (closed || (worker === undefined && performance.now() - stoppedAt < RESTART_DELAY_MS)) return options.unavailable(req, res);
      const target = req.url ?? '/';
      const path = target.split('?', 1)[0]!;
      const limit = bodyLimitOf(path);
      if (Number(req.headers['content-length'] ?? 0) > limit) return refuse(req, res, TOO_LARGE);
      const chunks: Buffer[] = [];
      let size = 0;
      let refused = false;
      req.on('data', (chunk: Buffer) => {
        if (refused) return;
        size += chunk.byteLength;
        if (size > limit) {
          refused = true;
          chunks.length = 0;
          return refuse(req, res, TOO_LARGE);
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (refused || res.destroyed) return;
        const id = next++;
        // One copy, into a buffer of its own that can be handed over (a small Buffer lives in a shared pool).
        const body = new Uint8Array(size);
        let offset = 0;
        for (const chunk of chunks) {
          body.set(chunk, offset);
          offset += chunk.byteLength;
        }
        // The body arrives whole: its framing (chunks, the connection's) stays with this hop.
        const headers: [string, string][] = [['content-length', String(size)]];
        for (let i = 0; i < req.rawHeaders.length; i += 2) {
          const name = req.rawHeaders[i]!;
          if (!HOP_HEADERS.has(name.toLowerCase())) headers.push([name, req.rawHeaders[i + 1]!]);
        }
        const crossing: CrossingRequest = {
          id,
          method,
          url: `http://${req.headers.host ?? 'localhost'}${target}`,
          headers,
          body,
          clientAddress: req.socket.remoteAddress,
        };
        waiting.set(id, { req, res, method, path });
        (worker ??= start()).postMessage(crossing, [body.buffer]);
      });
    },
    ready: () => loaded,
    async close() {
      closed = true;
      const thread = worker;
      worker = undefined;
      await thread?.terminate();
    },
  };
}
