/**
 * Event streams (server-sent events, api/routes/live.ts) are answers that stay open for as long as
 * a page does. They skip what every other read goes through: the read queue (a stream would hold
 * one of its few places for hours; the route caps streams itself), the answer cache and the ETag
 * digest (both read the whole body, which never ends) and compression (which would buffer events).
 *
 * Streams are served here, on the Node socket, rather than through Astro and Hono (decision 018):
 * a stream through them (a Request, a web ReadableStream piped into the response, its own promise
 * chain) cost about 40 KB, so 10 000 viewers of one final would not fit the server's memory; here
 * one costs under 10 KB, and one event is serialised once for all of them (services/live-streams.ts,
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
  Connection: 'keep-alive',
  ...API_SECURITY_HEADERS,
};

/** The same over HTTPS: HSTS, as every other answer sent over HTTPS carries (src/middleware.ts, api/app.ts). */
const STREAM_HEADERS_OVER_HTTPS: Readonly<Record<string, string>> = { ...STREAM_HEADERS, 'Strict-Transport-Security': HSTS };

/** A reader that has not taken this much of its stream is not reading: it is let go. */
const MAX_UNSENT_BYTES = 64 * 1024;

/**
 * Serves an event stream (a tournament's, or the signed-in reader's own) on the socket when it can (see above), else hands the request
 * to `fallback` (the built app). Event-stream paths only (`isEventStreamPath`). `depsOf` gives the
 * app's dependencies (`Deps`: the caps are counted per that object, shared with the route).
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
  res.writeHead(200, forwardedOverHttps(nodeHeader(req, 'x-forwarded-proto'), deps) ? STREAM_HEADERS_OVER_HTTPS : STREAM_HEADERS);
  const detach = attachStream(topic, {
    write: (bytes) => {
      if (res.writableLength > MAX_UNSENT_BYTES) res.destroy();
      else res.write(bytes);
    },
    end: () => res.end(),
  });
  res.once('close', () => {
    detach();
    release();
  });
}
