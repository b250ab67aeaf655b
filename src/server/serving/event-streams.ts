/**
 * Event streams (server-sent events, api/routes/live.ts) are answers that stay open for as long as
 * a page does. They skip what every other read goes through: the read queue (a stream would hold
 * one of its few places for hours; the route caps streams itself), the answer cache and the ETag
 * digest (both read the whole body, which never ends) and compression (which would buffer events).
 *
 * Streams are served here, on the Node socket, rather than through Astro and Hono (decision 018):
 * a stream through them (a Request, a web ReadableStream piped into the response, its own promise
 * chain) cost about 40 KB, so 10 000 viewers of one final would not fit the server's memory; here,
 * its head and frames written on the bare socket, one costs about 5 KB of heap (FINDINGS F34), and
 * one event is serialised once for all of them (services/live-streams.ts,
 * the one owner of the wire format and the caps, shared with the route). Only the 200 is made
 * here: a request this path does not take (an id that is not a UUID, a tournament not known, a
 * user stream without a live session, a stream refused by the caps, a server not started yet) goes
 * on to the route, which answers it as the contract says (400, 401, 404, 429, 503 in the reader's
 * language).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readerOf, tournamentExists } from '../services/live.ts';
import { attachStream, EVENT_STREAM_LIMITS, takeStreamPlace, type StreamLimits, type Topic } from '../services/live-streams.ts';
import { API_SECURITY_HEADERS } from './refusals.ts';
import { forwardedBy, forwardedOverHttps, HSTS, nodeHeader } from './transport.ts';

const EVENT_STREAM = /^\/api\/(tournaments\/[^/?#]+|users\/me)\/events\/?(\?|$)/;

/** Whether a request path (with or without its query) is an event stream's. */
export const isEventStreamPath = (path: string): boolean => EVENT_STREAM.test(path);

const TOURNAMENT_STREAM = /^\/api\/tournaments\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/events\/?(?:\?|$)/i;
const USER_STREAM = /^\/api\/users\/me\/events\/?(?:\?|$)/;
/** The bearer token as the API reads it (api/app.ts). */
const BEARER = /^Bearer\s+(\S{1,200})$/i;

/** What a stream request asks to hear, when it is one this path may take; else undefined (the route answers). */
async function topicOf(req: IncomingMessage): Promise<Topic | undefined> {
  if (req.method !== 'GET' || req.url === undefined) return undefined;
  const tournamentId = TOURNAMENT_STREAM.exec(req.url)?.[1]?.toLowerCase();
  if (tournamentId) return (await exists(tournamentId)) ? { tournamentId } : undefined;
  if (!USER_STREAM.test(req.url)) return undefined;
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  const userId = token ? await readerOf(token).catch(() => undefined) : undefined;
  return userId ? { userId } : undefined;
}

/** What of the running server's dependencies this path needs (api/context.ts `Deps`, from server/runtime.ts). */
export interface StreamDeps {
  trustProxy: number;
  /** The public address (SITE_URL): an https one means the stream went out over HTTPS (HSTS). */
  siteUrl?: string | undefined;
  eventStreams?: StreamLimits | undefined;
}

/** The runtime the built bundle opened (server/runtime.ts keeps it under this key, one per process). */
const RUNTIME = Symbol.for('kiberarena.runtime');
/** The built app's dependencies: the same object its routes count streams under, so both paths share the caps. */
export const runtimeDeps = async (): Promise<StreamDeps | undefined> => {
  const runtime = (globalThis as Record<symbol, Promise<{ deps: StreamDeps }> | undefined>)[RUNTIME];
  return runtime ? (await runtime.catch(() => undefined))?.deps : undefined;
};

/** Tournaments known to exist, until when (a deleted one's stream hears nothing and ends with its page). */
const known = new Map<string, number>();
const KNOWN_MS = 60_000;
const KNOWN_LIMIT = 10_000;
/** Lookups under way, so 10 000 viewers arriving at once ask the database once. */
const asking = new Map<string, Promise<boolean | undefined>>();

async function exists(id: string): Promise<boolean | undefined> {
  if ((known.get(id) ?? 0) > Date.now()) return true;
  let lookup = asking.get(id);
  if (!lookup) {
    lookup = tournamentExists(id).finally(() => asking.delete(id));
    asking.set(id, lookup);
  }
  const found = await lookup.catch(() => undefined);
  if (found) {
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(id, Date.now() + KNOWN_MS);
  }
  return found;
}

/** What a stream's answer carries: the route's SSE headers and the API's security headers. */
const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
  ...API_SECURITY_HEADERS,
};

/**
 * The head of a stream's answer, written on the socket as one string. Node's `writeHead` would build
 * it line by line and keep it with the response for as long as the stream is open (a rope of some 70
 * strings, a quarter of what an open stream cost: FINDINGS F33); this head is made once, and only
 * the date is the stream's own.
 */
const headOf = (headers: Readonly<Record<string, string>>) =>
  `HTTP/1.1 200 OK\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}`;
const HEAD = headOf(STREAM_HEADERS);
/** The same over HTTPS: HSTS, as every other answer sent over HTTPS carries (src/middleware.ts, api/app.ts). */
const HEAD_OVER_HTTPS = headOf({ ...STREAM_HEADERS, 'Strict-Transport-Security': HSTS });
/** HTTP/1.1 frames the endless body in chunks and keeps the connection; HTTP/1.0 (a proxy's default) ends it by closing. */
const CHUNKED = 'Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n';
const UNCHUNKED = 'Connection: close\r\n\r\n';
/** The last chunk, which ends a chunked body. */
const LAST_CHUNK = '0\r\n\r\n';

/** The Date line, made once a second, as Node's own answers carry it. */
let dated = { second: -1, line: '' };
function dateLine(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dated.second) dated = { second, line: `Date: ${new Date(second * 1000).toUTCString()}\r\n` };
  return dated.line;
}

/** Each frame in its chunk, made once however many streams it goes to (the frames are shared: services/live-streams.ts). */
const chunks = new WeakMap<Uint8Array, Buffer>();
function chunkOf(bytes: Uint8Array): Buffer {
  let chunk = chunks.get(bytes);
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`), bytes, Buffer.from('\r\n')]);
    chunks.set(bytes, chunk);
  }
  return chunk;
}

/** A reader that has not taken this much of its stream is not reading: it is let go. */
const MAX_UNSENT_BYTES = 64 * 1024;

/**
 * Serves an event stream (a tournament's, or the signed-in reader's own) on the socket when it can (see above), else hands the request
 * to `fallback` (the built app). Event-stream paths only (`isEventStreamPath`). `depsOf` gives the
 * app's dependencies (`Deps`: the caps are counted per that object, shared with the route).
 *
 * Once taken, the answer is written on the bare socket, head and frames, and never through `res`:
 * the response stays unanswered in Node's eyes, the connection is the stream's until it closes.
 */
export async function serveEventStream(
  req: IncomingMessage,
  res: ServerResponse,
  fallback: () => void,
  depsOf: () => Promise<StreamDeps | undefined> = runtimeDeps,
): Promise<void> {
  const deps = await depsOf();
  const topic = deps ? await topicOf(req) : undefined;
  // The reader may have left while the lookups ran: nothing to answer.
  if (res.destroyed) return;
  if (!deps || !topic) return fallback();
  const address = forwardedBy(nodeHeader(req, 'x-forwarded-for'), deps.trustProxy) ?? req.socket.remoteAddress ?? 'unknown';
  const release = takeStreamPlace(deps, deps.eventStreams ?? EVENT_STREAM_LIMITS, address);
  if (typeof release === 'string') return fallback();
  const { socket } = req;
  const chunked = req.httpVersionMajor === 1 && req.httpVersionMinor >= 1;
  const head = forwardedOverHttps(nodeHeader(req, 'x-forwarded-proto'), deps) ? HEAD_OVER_HTTPS : HEAD;
  socket.write(head + dateLine() + (chunked ? CHUNKED : UNCHUNKED));
  const detach = attachStream(topic, {
    write: (bytes) => {
      if (socket.writableLength > MAX_UNSENT_BYTES) socket.destroy();
      else if (socket.writable) socket.write(chunked ? chunkOf(bytes) : bytes);
    },
    // The connection ends with the stream: the response was never Node's to finish, so no other request may follow on it.
    end: () => {
      if (!socket.writable) return void socket.destroy();
      socket.end(chunked ? LAST_CHUNK : '', () => socket.destroy());
    },
  });
  socket.once('close', () => {
    detach();
    release();
  });
}
