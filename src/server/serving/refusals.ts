import http, { STATUS_CODES, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { localeOfCookie, translate, type CommonKey } from '../../lib/i18n/common.ts';
import { validHost } from '../transport.ts';

/*
 * What the HTTP server refuses before a request reaches the app, for the site (scripts/serve.ts)
 * and the API alone (main.ts) alike: a JSON `{ message }` in the reader's language with the API's
 * security headers. Astro and fetch's Request cannot take these requests at all (a TRACE, a Host
 * with credentials in it, broken percent-encoding): they used to end in a 500 or the home page.
 */

/** Methods the API takes. */
export const API_METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
/** Pages and static files are only read: a POST to a page used to render it, and empty the answer cache. */
export const PAGE_METHODS: readonly string[] = ['GET', 'HEAD'];
/** Methods known, and served nowhere (fetch's Request refuses to carry them): 405 rather than 501. */
const REFUSED_METHODS: readonly string[] = ['TRACE', 'TRACK', 'CONNECT'];

/** A request (headers and body) must arrive within this; a slow sender does not hold its socket longer. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** Idle keep-alive connections are kept a little longer than a load balancer's own (60 s on most). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface Refusal {
  status: 400 | 405 | 408 | 413 | 431 | 501;
  key: CommonKey;
  headers?: Record<string, string>;
}

/** The API's security headers (server/api/app.ts, `secureHeaders`), for the answers made before it. */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-site',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
};

/** A refusal made before the app: JSON, never stored, with the API's security headers. */
export const REFUSAL_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  ...API_SECURITY_HEADERS,
};

/** Whether a request target (path with its query) is the API's. */
export const isApiPath = (target: string): boolean => target === '/api' || target.startsWith('/api/') || target.startsWith('/api?');

/**
 * Whether `method` may be used on `target`: on the site (`pages`) pages and files are only read; the
 * API takes its methods. Anything known but not taken is 405 with Allow; anything else 501.
 */
export function methodRefusal(method: string, target: string, { pages }: { pages: boolean }): Refusal | undefined {
  const allowed = pages && !isApiPath(target) ? PAGE_METHODS : API_METHODS;
  if (allowed.includes(method)) return undefined;
  if (REFUSED_METHODS.includes(method) || API_METHODS.includes(method)) {
    return { status: 405, key: 'error.methodNotAllowed', headers: { Allow: allowed.join(', ') } };
  }
  return { status: 501, key: 'error.notImplemented' };
}

const decodes = (target: string) => {
  if (!target.includes('%')) return true;
  try {
    decodeURIComponent(target);
    return true;
  } catch {
    return false;
  }
};

/** Why a request must not reach the app, or undefined. */
export function refusalOf(
  req: Pick<IncomingMessage, 'method' | 'url' | 'httpVersion'> & { headers: { host?: string | undefined } },
  options: { pages: boolean },
): Refusal | undefined {
  const { host } = req.headers;
  // HTTP/1.0 may leave Host out (old health probes do); the app then calls itself localhost.
  if (host === undefined ? req.httpVersion !== '1.0' : !validHost(host)) return { status: 400, key: 'error.badHost' };
  const target = req.url ?? '';
  // The origin form only (`/path?query`), with percent-encoding that decodes: what a browser or a proxy sends.
  if (!target.startsWith('/') || !decodes(target)) return { status: 400, key: 'error.badAddress' };
  return methodRefusal(req.method ?? '', target, options);
}

const messageOf = (cookie: string | null | undefined, refusal: Refusal) => JSON.stringify({ message: translate(localeOfCookie(cookie), refusal.key) });

/** Sends `refusal` on a Node response. */
export function refuse(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const body = messageOf(req.headers.cookie, refusal);
  res.writeHead(refusal.status, { ...REFUSAL_HEADERS, ...refusal.headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** `refusal` as a fetch Response (the middleware, for `astro dev`). */
export function refusalResponse(request: Request, refusal: Refusal): Response {
  const body = request.method === 'HEAD' ? null : messageOf(request.headers.get('cookie'), refusal);
  return new Response(body, { status: refusal.status, headers: { ...REFUSAL_HEADERS, ...refusal.headers } });
}

/** Node's client errors (a request it could not parse, or that took too long), by code. */
const CLIENT_ERRORS: Readonly<Record<string, Refusal>> = {
  HPE_HEADER_OVERFLOW: { status: 431, key: 'error.headersTooLarge' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, key: 'error.tooLarge' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: 'error.requestTimeout' },
  // A method Node's parser does not know at all (`FOO / HTTP/1.1`).
  HPE_INVALID_METHOD: { status: 501, key: 'error.notImplemented' },
};

/** A refused connection may still be sending (a 70 KB head); it is read and dropped this long, so closing it does not reset the answer away. */
const DRAIN_MS = 5000;
/** Connections already answered with a refusal: Node's parser reports each later chunk again. */
const refused = new WeakSet<Duplex>();

/**
 * Answers what Node refuses itself as JSON like every other refusal (Node's own answer is a bare
 * status line). As Node does, nothing is written once an answer has begun. The connection then
 * closes: our side at once, and the rest of what the client sends is read and dropped until it
 * closes too (or DRAIN_MS), since closing a socket with unread bytes sends a TCP reset, and the
 * client would lose the answer with it.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (refused.has(socket)) return;
  refused.add(socket);
  // Bytes after a request that said `Connection: close` (or an HTTP/1.0 one): that request is
  // answered, and the connection closes after it, as it asked; what came after is read and dropped.
  if (error.code === 'HPE_CLOSED_CONNECTION') return void socket.resume();
  const refusal = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, key: 'error.badRequest' };
  const answering = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) return void socket.destroy();
  refuseOnSocket(socket, refusal);
}

/** Writes `refusal` on a bare socket and closes it, reading and dropping what still comes (DRAIN_MS). */
function refuseOnSocket(socket: Duplex, refusal: Refusal): void {
  const body = messageOf(null, refusal);
  const headers = { ...REFUSAL_HEADERS, ...refusal.headers, Connection: 'close', 'Content-Length': String(Buffer.byteLength(body)) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n${head.join('')}\r\n${body}`);
  socket.resume();
  setTimeout(() => socket.destroy(), DRAIN_MS).unref();
}

/**
 * Requests of one connection whose answers have not gone out yet. Browsers never pipeline; a
 * client that sends hundreds of requests in one segment and reads none of the answers would make
 * the server build them all (Node stops reading a socket only once an answer cannot be written),
 * and a few such connections would fill the heap. Past this the connection is closed.
 */
export const MAX_UNANSWERED_PER_CONNECTION = 8;

/**
 * A Node HTTP server that refuses what the app cannot take (`refusalOf`, `answerClientError`), cuts
 * off a request that has not fully arrived within `requestTimeoutMs`, and closes a connection that
 * pipelines more than MAX_UNANSWERED_PER_CONNECTION requests ahead of the answers it has read.
 */
export function guardedServer(handle: RequestListener, options: { pages: boolean; requestTimeoutMs?: number }): http.Server {
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const unanswered = new WeakMap<Duplex, number>();
  const server = http.createServer(
    {
      requestTimeout,
      // Counted from the request's first byte too, so headers get no longer than the whole request.
      headersTimeout: requestTimeout,
      // Node looks for requests past their time only this often (30 s by default: a slow body could last a minute).
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      // A request without Host gets the JSON 400 below rather than Node's bare one.
      requireHostHeader: false,
    },
    (req, res) => {
      const { socket } = req;
      const count = (unanswered.get(socket) ?? 0) + 1;
      if (count > MAX_UNANSWERED_PER_CONNECTION) return void socket.destroy();
      unanswered.set(socket, count);
      // 'close' comes once the answer has been handed to the system, or the connection is gone.
      res.once('close', () => unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1));
      const refusal = refusalOf(req, options);
      if (refusal) return refuse(req, res, refusal);
      return handle(req, res);
    },
  );
  // A client that sends its requests and then closes its side (a script, `nc`) gets every answer,
  // then the connection closes; by default Node would close at once and drop the answers not yet made.
  Object.assign(server, { httpAllowHalfOpen: true });
  server.on('clientError', answerClientError);
  // Node hands CONNECT to its own event, and with no listener closes the connection without a word.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const refusal = methodRefusal('CONNECT', req.url ?? '', options);
    if (refusal) refuseOnSocket(socket, refusal);
    else socket.destroy();
  });
  // Each request waiting for its turn listens for its connection's close (admission.ts), up to the bound above.
  server.on('connection', (socket: Duplex) => socket.setMaxListeners(MAX_UNANSWERED_PER_CONNECTION + 10));
  return server;
}
