// Serves a finished build: held answers first, then compressed static files, then Astro (pages and the API).
// `npm start` calls it after building; on its own (`node scripts/serve.ts`) it serves the
// existing build, which is how extra instances and tests start without rebuilding.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';
import { LOCALE_COOKIE, localeOfCookie, translate } from '../src/lib/i18n/common.ts';
import { takeAnswers } from '../src/server/db/pglite-thread.ts';
import { admission } from '../src/server/serving/admission.ts';
import { isEventStreamPath, serveEventStream, type StreamDeps } from '../src/server/serving/event-streams.ts';
import { isApiWrite } from '../src/server/serving/api-writes.ts';
import { guardedServer, isApiPath, REFUSAL_HEADERS } from '../src/server/serving/refusals.ts';
import { answerKey, publicAnswers, RENDER_AGAIN, RENDER_AGAIN_HEADER, wantsFresh, type CachedAnswer } from '../src/server/serving/response-cache.ts';
import { holdFront, wireAnswer, type PlainHead } from '../src/server/serving/held-front.ts';
import { listen } from '../src/server/serving/listen.ts';
import { nodeHeader } from '../src/server/serving/transport.ts';
import { writeThread, type WriteThread } from '../src/server/serving/write-thread.ts';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/** How long a request waits for its turn in Astro before it gets a 503 (admission). */
const MAX_WAIT_MS = 10_000;

/** A bare page that reads well on a phone: no stylesheet or script of the site has to load for it. */
const overloadedPage = (locale: string, message: string) =>
  `<!doctype html><html lang="${locale}"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${message}</title><body style="font:1.125rem/1.5 system-ui,sans-serif;margin:0;padding:2rem 1.25rem;text-align:center">` +
  `<p>${message}</p></body></html>`;

/** The overloaded page loads nothing; its only style is inline. */
const OVERLOADED_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A request that waited too long: the API's 503 JSON, or a page saying the same. */
export function overloaded(req: http.IncomingMessage, res: http.ServerResponse): void {
  const locale = localeOfCookie(req.headers.cookie);
  const message = translate(locale, 'error.unavailable');
  const api = req.url?.startsWith('/api/') ?? false;
  res.writeHead(503, {
    ...REFUSAL_HEADERS,
    ...(api ? {} : { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': OVERLOADED_PAGE_CSP }),
    'Retry-After': '5',
  });
  res.end(api ? JSON.stringify({ message }) : overloadedPage(locale, message));
}

/** Fingerprinted by the build: a changed file gets a new name, so it may be kept for a year. */
const FINGERPRINTED = /^\/_astro\//;

/** RENDER_AGAIN_HEADER's value: this process's secret, so no one else's request can jump the line with it. */
const RENDER_AGAIN_TOKEN = randomUUID();
const renderAgainAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });

/** A guest's GET as the held answers read it: from Node's parsed request, or the front's (held-front.ts). */
interface Asking {
  target: string;
  header(name: string): string | null;
  /** The address the request came to: the server's own render request goes there. */
  socket: { localAddress?: string | undefined; localPort?: number | undefined };
}

const askingOf = (req: http.IncomingMessage): Asking => ({ target: req.url ?? '', header: (name) => nodeHeader(req, name), socket: req.socket });

/**
 * Has the held answer `asking` was just served rendered again, by a request of the server's own to
 * itself: the reader who happened to come when it went out of date or neared its end gets the copy
 * at once, as everyone else does, instead of waiting for the render in the pages' line (bench/server
 * FINDINGS F21). The request carries what the answer's key is made of (answerKey) and the reader's
 * encoding, so the render replaces that answer and is compressed the way its readers take it.
 */
function renderAgain(asking: Asking, key: string): void {
  const { localAddress, localPort } = asking.socket;
  if (!localAddress || !localPort) return publicAnswers.refreshEnded(key);
  const headers: Record<string, string> = { [RENDER_AGAIN_HEADER]: RENDER_AGAIN_TOKEN, cookie: `${LOCALE_COOKIE}=${localeOfCookie(asking.header('cookie'))}` };
  for (const name of ['host', 'x-forwarded-proto', 'accept-encoding']) {
    const value = asking.header(name);
    if (value !== null) headers[name] = value;
  }
  // However it ends, the next reader of a copy still out of date may ask for another render.
  const ended = () => publicAnswers.refreshEnded(key);
  const request = http.request({ hostname: localAddress, port: localPort, path: asking.target, headers, agent: renderAgainAgent }, (answer) => {
    answer.once('end', ended);
    answer.resume();
  });
  request.on('error', ended);
  request.end();
}

/**
 * The held answer for a guest's GET (`asking`, with no credentials: the caller checks), with its
 * key; RENDER_AGAIN when this request is the one to render that answer anew for everyone;
 * undefined when it goes the long way. A held answer marked `renderAgain` has had its render sent.
 */
function heldAnswer(asking: Asking): { key: string; answer: CachedAnswer | typeof RENDER_AGAIN } | undefined {
  const key = answerKey({ cookie: asking.header('cookie'), forwardedProto: asking.header('x-forwarded-proto'), host: asking.header('host'), path: asking.target });
  if (key === undefined) return undefined;
  const answer = publicAnswers.lookup(key, asking.header('accept-encoding'), asking.header('if-none-match'), wantsFresh(asking.header));
  if (!answer) return undefined;
  if (answer !== RENDER_AGAIN && answer.renderAgain) renderAgain(asking, key);
  return { key, answer };
}

/**
 * A guest's GET that the build's middleware answered a moment ago is written from memory, as sent
 * then (true); when it needs rendering again, the server's own request does that (`renderAgain`).
 * RENDER_AGAIN when this request is the one to render that answer anew for everyone.
 */
function answerFromMemory(req: http.IncomingMessage, res: http.ServerResponse): boolean | typeof RENDER_AGAIN {
  if (req.method !== 'GET' || req.headers.authorization !== undefined || req.url === undefined) return false;
  const held = heldAnswer(askingOf(req));
  if (!held) return false;
  if (held.answer === RENDER_AGAIN) {
    // This reader renders it for everyone; however that ends, the next may ask for another.
    res.once('close', () => publicAnswers.refreshEnded(held.key));
    return RENDER_AGAIN;
  }
  res.writeHead(held.answer.status, held.answer.headers);
  res.end(held.answer.body);
  return true;
}

/**
 * The front's answer (held-front.ts): the bytes of a held answer, or undefined to send the request
 * on to Node's server. The one reader who is to render a held answer again goes there too, its
 * turn given back, and takes it again on the way in (`answerFromMemory`).
 */
function answerOnTheSocket(server: http.Server, head: PlainHead, socket: Socket): Uint8Array | undefined {
  // As for every request (below): the embedded database's answers that have come meanwhile go on first.
  takeAnswers();
  const held = heldAnswer({ target: head.target, header: head.header, socket });
  if (!held) return undefined;
  if (held.answer === RENDER_AGAIN) {
    publicAnswers.refreshEnded(held.key);
    return undefined;
  }
  return wireAnswer(held.answer, server.keepAliveTimeout);
}

export interface ServingOptions {
  /** Page reads let into Astro at once (`CONCURRENT_READS`). */
  concurrency: number;
  /** API reads let into Astro at once (`CONCURRENT_API_READS`); `concurrency` when not given. */
  apiConcurrency?: number;
  /** How long a request may take to arrive (REQUEST_TIMEOUT_MS); shorter in tests. */
  requestTimeoutMs?: number;
  /** The caps and proxy count of the event streams served on the socket: the built app's (its runtime) unless a test gives its own. */
  streamDeps?: () => Promise<StreamDeps | undefined>;
  /** Where API writes go instead of Astro (decision 021): a thread of their own. */
  writes?: WriteThread;
  /** Whether held answers are written on the socket before Node's server (held-front.ts, decision 030); tests compare both ways. */
  front?: boolean;
}

/**
 * The HTTP server in front of a build's handler (`entry.handler`) and its static files in
 * `clientDir`. Static files are sent as the `.br` or `.gz` copy made at build time when the browser
 * takes it (astro.config.mjs, `precompress`); a guest's page or public read held in the answer cache
 * is sent from memory; anything else goes to Astro's own handler, at most `concurrency` page reads
 * and `apiConcurrency` API reads at a time, each line with its own queue (`admission`). What Astro cannot take is refused before it (server/serving/refusals.ts): pages and
 * files are only read, so any other method there is a 405.
 */
export function servingServer(handler: NodeHandler, clientDir: string, options: ServingOptions): http.Server {
  // Two lines, each with its own places (decision 019): a poll of the API (a chat, a bracket's
  // ETag) costs a query or two and must not wait behind page renders, which cost tens of times more.
  // A render holds its place on the CPU; an API read mostly waits for the database, so its line has
  // more places (decision 023).
  const line = (limit: number) => admission({ limit, maxWaitMs: MAX_WAIT_MS, shed: overloaded }, (req, res) => void handler(req, res));
  const pages = line(options.concurrency);
  const api = line(options.apiConcurrency ?? options.concurrency);
  const files = sirv(clientDir, {
    brotli: true,
    gzip: true,
    etag: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', FINGERPRINTED.test(pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const server = guardedServer(
    (req, res) => {
      // The embedded database's answers that have come meanwhile: their requests go on right after
      // this one, not a turn of the loop later (db/pglite-thread.ts).
      takeAnswers();
      // Only reads can be files; writes (to the API: the guard refused the rest) skip the queue:
      // their bodies come at the sender's pace (an avatar over a slow phone link) and must not hold
      // a place the reads wait for; they are few, and rate-limited.
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        const { writes } = options;
        if (writes && isApiWrite(req.method, req.url ?? '')) return writes.handle(req, res, req.method);
        return void handler(req, res);
      }
      // Held answers first: an address the app answered is no file (files are served before the app
      // is asked), and the static files' lookup was 2 % of the main thread under the load mix.
      const held = req.headers[RENDER_AGAIN_HEADER] === RENDER_AGAIN_TOKEN ? RENDER_AGAIN : answerFromMemory(req, res);
      if (held === true) return;
      const app = () => {
        // A live page's stream stays open for hours: never held, and it must not hold a render's place (the
        // caps count streams). A tournament's is served on the socket itself; what that path does not take goes on to the route.
        if (isEventStreamPath(req.url ?? '')) return void serveEventStream(req, res, () => void handler(req, res), options.streamDeps);
        // A load balancer's probe must get its answer within seconds (health.ts), queue or not.
        if (req.url === '/api/health') return void handler(req, res);
        (isApiPath(req.url ?? '') ? api : pages)(req, res, held === RENDER_AGAIN);
      };
      // No file lives under /api.
      if (isApiPath(req.url ?? '')) app();
      else files(req, res, app);
    },
    { pages: true, requestTimeoutMs: options.requestTimeoutMs },
  );
  if (options.front !== false) holdFront(server, { answer: (head, socket) => answerOnTheSocket(server, head, socket) });
  return server;
}

/** Starts the HTTP server (`servingServer`) for the build in `buildDir`. */
export async function serveBuild(
  buildDir: string,
  options: { port: number; host: string; concurrency: number; apiConcurrency: number; writeThread: boolean; front: boolean },
): Promise<http.Server> {
  const { port, host } = options;
  // React and other packages outside the bundle read it at run time: without it React renders with its development build.
  process.env.NODE_ENV ??= 'production';
  // The adapter's `middleware` build: its handler renders pages and the API only, and starts no server of its own.
  const entry = (await import(pathToFileURL(resolve(buildDir, 'server/entry.mjs')).href)) as { handler: NodeHandler };
  const writes = options.writeThread ? writeThread({ unavailable: overloaded }) : undefined;
  const server = servingServer(entry.handler, resolve(buildDir, 'client'), { concurrency: options.concurrency, apiConcurrency: options.apiConcurrency, writes, front: options.front });
  server.once('close', () => void writes?.close());
  await listen(server, port, host);
  // The build's own runtime opens the database on its first request: make that now, not for a visitor.
  await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch(() => {});
  return server;
}

if (import.meta.main) {
  const { parseEnv } = await import('../src/server/env.ts');
  const env = parseEnv();
  // The thread needs a database a second pool can reach: PostgreSQL (decision 021).
  const writeThread = env.WRITE_THREAD && env.DATABASE_URL !== undefined;
  await serveBuild(process.env.BUILD_DIR ?? 'dist', { port: env.PORT, host: env.HOST, concurrency: env.CONCURRENT_READS, apiConcurrency: env.apiReads, writeThread, front: env.HELD_FRONT });
  console.log(`Кіберарена: http://${env.HOST}:${env.PORT}`);
}
