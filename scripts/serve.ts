// Serves a finished build: Node's HTTP server → refusals → guests' held reads (decision 048)
// → static files → Astro (pages and the API); the API's event streams on Node's own response
// (decision 047).
// `npm start` calls it after building; on its own (`node scripts/serve.ts`) it serves the
// existing build, which is how extra instances and tests start without rebuilding.
import type http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import onHeaders from 'on-headers';
import sirv from 'sirv';
import { localeOfCookie, translate } from '../src/lib/i18n/common.ts';
import { admission } from '../src/server/serving/admission.ts';
import { guardedServer, isApiPath, REFUSAL_HEADERS } from '../src/server/serving/refusals.ts';
import type { BeforeAstro, EventStreams } from '../src/server/node-entry.ts';
import type { HeldReads } from '../src/server/serving/held-reads.ts';
import { NODE_ENTRY_FILE } from './node-entry.ts';

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

/** The path of a request target, without its query. */
const pathOf = (target: string) => target.split('?', 1)[0]!;

/** Fingerprinted by the build: a changed file gets a new name, so it may be kept for a year. */
const FINGERPRINTED = /^\/_astro\//;

/**
 * sirv pipes a file's stream into the response without listening for the stream's errors: one that
 * fails (no file descriptor left, a file removed under it) would end the process. The response
 * hears of the stream through `pipe`; a failed one is cut off, the client sees a broken answer and
 * may ask again.
 */
function cutOffOnFileError(res: http.ServerResponse): void {
  res.once('pipe', (source: NodeJS.ReadableStream) => source.once('error', () => res.destroy()));
}

/**
 * A half-closed connection has its answers finished before it closes (refusals.ts), but a stream's
 * answer never finishes: a client that closes its side has left the stream, which ends with the
 * connection instead of at its next failed write. Known by its head (a refused stream, 429 or 404,
 * is an ordinary answer whose connection goes on as any other).
 */
function leaveWithTheClient(req: http.IncomingMessage, res: http.ServerResponse): void {
  onHeaders(res, function (this: http.ServerResponse) {
    if (!String(this.getHeader('content-type') ?? '').startsWith('text/event-stream')) return;
    const { socket } = req;
    if (socket.readableEnded) return void socket.destroy();
    socket.once('end', () => socket.destroy());
  });
}

export interface ServingOptions {
  /** Page reads let into Astro at once (`CONCURRENT_READS`). */
  concurrency: number;
  /** API reads let into Astro at once (`CONCURRENT_API_READS`); `concurrency` when not given. */
  apiConcurrency?: number;
  /** How long a request may take to arrive (REQUEST_TIMEOUT_MS); shorter in tests. */
  requestTimeoutMs?: number;
  /** The app's event streams, answered on Node's response instead of through `handler` (decision 047). */
  streams?: EventStreams;
  /** Guests' fresh held reads, answered before a read waits for its line (decision 048). */
  held?: HeldReads;
}

/**
 * The HTTP server in front of a build's handler (`entry.handler`) and its static files in
 * `clientDir`. What the app cannot take is refused first (server/serving/refusals.ts). Static files
 * are sent as the `.br` or `.gz` copy made at build time when the browser takes it (astro.config.mjs,
 * `precompress`); everything else goes to Astro's own handler, at most `concurrency` page reads and
 * `apiConcurrency` API reads at a time, each line with its own queue (`admission`). An event
 * stream goes to the app's own Node listener (`streams`): it would hold Astro's request and
 * response for as long as its reader watches, and it waits in no line (the route caps streams). A
 * guest's read whose held copy the cache hands out (`held`: fresh, or out of date while it is
 * rendered again, decisions 033 and 050) is sent from it before the files are looked up and before
 * it would wait in its line.
 */
export function servingServer(handler: NodeHandler, clientDir: string, options: ServingOptions): http.Server {
  // Two lines, each with its own places (decision 019): a poll of the API (a chat, a bracket's
  // ETag) costs a query or two and must not wait behind page renders, which cost tens of times more.
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
  // What the handler's middleware holds, sent without it; the rest goes on (`next`).
  const { held } = options;
  const heldOr = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => {
    if (!held || req.method !== 'GET') return next();
    let answered: boolean | Promise<boolean>;
    try {
      answered = held(req, res);
    } catch {
      answered = res.headersSent;
    }
    if (answered === true) return;
    if (answered === false) return next();
    answered.then(
      (done) => done || next(),
      () => res.headersSent || next(),
    );
  };
  return guardedServer(
    (req, res) => {
      const target = req.url ?? '';
      // Writes (to the API: the guard refused the rest) skip the lines too: their bodies come at the
      // sender's pace (an avatar over a slow phone link) and must not hold a place the reads wait
      // for; they are few, and rate-limited. A load balancer's probe must get its answer within
      // seconds, queue or not.
      if ((req.method !== 'GET' && req.method !== 'HEAD') || target === '/api/health') return void handler(req, res);
      if (isApiPath(target)) {
        leaveWithTheClient(req, res);
        if (options.streams?.isStream(pathOf(target))) return void options.streams.listener(req, res);
        return heldOr(req, res, () => api(req, res));
      }
      cutOffOnFileError(res);
      // Held answers before the files: the app answered that address, so no file has it (files
      // are looked up before the app is asked), and the lookup would be a hot copy's readers' cost.
      heldOr(req, res, () => files(req, res, () => pages(req, res)));
    },
    { pages: true, requestTimeoutMs: options.requestTimeoutMs },
  );
}

/** Starts the HTTP server (`servingServer`) for the build in `buildDir`. */
export async function serveBuild(buildDir: string, options: { port: number; host: string; concurrency: number; apiConcurrency: number }): Promise<http.Server> {
  const { port, host } = options;
  // React and other packages outside the bundle read it at run time: without it React renders with its development build.
  process.env.NODE_ENV ??= 'production';
  // The adapter's `middleware` build: its handler renders pages and the API only, and starts no server of its own.
  const entry = (await import(pathToFileURL(resolve(buildDir, 'server/entry.mjs')).href)) as { handler: NodeHandler };
  // The same build's second entry: its modules are the handler's own, loaded once (scripts/node-entry.ts).
  const { beforeAstro } = (await import(pathToFileURL(resolve(buildDir, 'server', NODE_ENTRY_FILE)).href)) as { beforeAstro: () => Promise<BeforeAstro> };
  const { streams, held } = await beforeAstro();
  const server = servingServer(entry.handler, resolve(buildDir, 'client'), {
    concurrency: options.concurrency,
    apiConcurrency: options.apiConcurrency,
    streams,
    held,
  });
  await new Promise<void>((done, failed) => {
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      done();
    });
  });
  // The build's own runtime opens the database on its first request: make that now, not for a visitor.
  await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch(() => {});
  return server;
}

if (import.meta.main) {
  const { parseEnv } = await import('../src/server/env.ts');
  const env = parseEnv();
  await serveBuild(process.env.BUILD_DIR ?? 'dist', { port: env.PORT, host: env.HOST, concurrency: env.CONCURRENT_READS, apiConcurrency: env.apiReads });
  console.log(`Кіберарена: http://${env.HOST}:${env.PORT}`);
}
