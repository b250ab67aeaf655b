// Held answers written on the socket, before Node's HTTP server (decision 030, bench/server FINDINGS F36).
//
// A guest's page held in memory costs Node's HTTP server about twice what it costs nginx to send
// the same bytes: a parser, an IncomingMessage and a ServerResponse with their streams, the
// headers validated and joined again, a dozen ticks per request. Under a flood of guests that,
// not the page, is what the serving thread spends its time on. The front takes each connection
// first: a read holding one plain GET head, whole and alone, whose answer is held, gets that
// answer's bytes written as they were serialised once. Anything else — another method, a head in
// pieces or with something after it, a body, credentials, a header given twice,
// an answer not held — goes to Node's server with the bytes read, and the connection stays there.
import type { Server as HttpServer } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { RENDER_AGAIN_HEADER, type CachedAnswer } from './response-cache.ts';
import { refusalOf } from './refusals.ts';

/** A plain GET head: its target and its headers (names in lower case), each given once. */
export interface PlainHead {
  target: string;
  header(name: string): string | null;
}

/**
 * Headers that make a request one the front does not answer: a body's framing, credentials, a
 * protocol change, and the mark of the server's own render requests (serve.ts), which must reach the line.
 */
const NOT_PLAIN = new Set(['authorization', 'content-length', 'transfer-encoding', 'upgrade', 'expect', 'te', 'trailer', RENDER_AGAIN_HEADER]);

/** Node's default limit for a request's head: a bigger one goes to Node, which answers 431. */
const MAX_HEAD_BYTES = 16 * 1024;
/**
 * Far more header lines than a browser sends (15–20), and far fewer than the 2 000 past which Node
 * drops the rest: the front and Node never disagree about a header given that late.
 */
const MAX_HEADER_LINES = 100;

const REQUEST_LINE = /^GET (\/[!-~]*) HTTP\/1\.1$/;
/** RFC 9110's field-name (token) and field-value: visible ASCII, spaces, tabs and obs-text, no other control. */
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([\t -~\x80-\xff]*?)[ \t]*$/;

/**
 * The plain GET head that `chunk` holds whole and alone, or undefined. Stricter than Node's own
 * parser on purpose: what it does not take, Node's server gets, so it never has to be right about
 * anything unusual — only never take a request Node would read differently.
 */
export function plainHead(chunk: Uint8Array): PlainHead | undefined {
  const { length } = chunk;
  if (length > MAX_HEAD_BYTES || length < 18) return undefined;
  // Ends with the blank line and holds no other: one request, all of it, and nothing after.
  if (chunk[length - 4] !== 13 || chunk[length - 3] !== 10 || chunk[length - 2] !== 13 || chunk[length - 1] !== 10) return undefined;
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, length).toString('latin1', 0, length - 4);
  if (text.includes('\r\n\r\n')) return undefined;
  const lines = text.split('\r\n');
  if (lines.length > MAX_HEADER_LINES + 1) return undefined;
  const target = REQUEST_LINE.exec(lines[0]!)?.[1];
  if (target === undefined) return undefined;
  const headers = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    const match = HEADER_LINE.exec(lines[i]!);
    if (!match) return undefined;
    const name = match[1]!.toLowerCase();
    // A header given twice goes to Node, which joins or drops the second as each header's rules say.
    if (NOT_PLAIN.has(name) || headers.has(name)) return undefined;
    headers.set(name, match[2]!);
  }
  // Node's server keeps the connection open for these only; anything else there (close, an upgrade) is Node's.
  const connection = headers.get('connection');
  if (connection !== undefined && connection.toLowerCase() !== 'keep-alive') return undefined;
  // What the server refuses before the app (a Host that names no host, a target that does not decode) is refused by it.
  if (refusalOf({ method: 'GET', url: target, httpVersion: '1.1', headers: { host: headers.get('host') } }, { pages: true })) return undefined;
  return { target, header: (name) => headers.get(name) ?? null };
}

/** The current second's Date header, as Node's server writes it (made once a second, not per answer). */
let dateSecond = -1;
let dateLine = '';
function currentDateLine(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `Date: ${new Date(now).toUTCString()}\r\n`;
  }
  return dateLine;
}

/** An answer's bytes, keyed by its headers (each held copy has its own list), remade when the second changes. */
const wires = new WeakMap<readonly string[], { dateLine: string; keepAliveMs: number; bytes: Buffer }>();

/**
 * `answer` as Node's server writes it on a kept-alive connection: the status line, its headers as
 * held (Content-Length among them), then Date, Connection and Keep-Alive, then the body. Made once
 * a second per held copy.
 */
export function wireAnswer(answer: CachedAnswer, keepAliveMs: number): Buffer {
  const date = currentDateLine();
  const made = wires.get(answer.headers);
  if (made?.dateLine === date && made.keepAliveMs === keepAliveMs) return made.bytes;
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'unknown'}\r\n`;
  for (let i = 0; i < answer.headers.length; i += 2) head += `${answer.headers[i]}: ${answer.headers[i + 1]}\r\n`;
  head += `${date}Connection: keep-alive\r\nKeep-Alive: timeout=${Math.floor(keepAliveMs / 1000)}\r\n\r\n`;
  const bytes = answer.body ? Buffer.concat([Buffer.from(head, 'latin1'), answer.body]) : Buffer.from(head, 'latin1');
  wires.set(answer.headers, { dateLine: date, keepAliveMs, bytes });
  return bytes;
}

export interface FrontOptions {
  /** The bytes that answer `head` from memory, or undefined to send the connection on to Node's server. */
  answer(head: PlainHead, socket: Socket): Uint8Array | undefined;
}

/**
 * Puts the front before `server`: every connection it takes (its own socket's and those handed to
 * it, listen.ts) comes to the front first, and goes on to Node's own connection handling, with
 * what was read, at the first request the front does not answer. Closing the server closes the
 * front's connections with Node's idle ones: between answers, they are all idle.
 */
export function holdFront(server: HttpServer, options: FrontOptions): void {
  const listeners = server.listeners('connection');
  if (listeners.length !== 1) throw new Error("the held front goes before Node's own connection listener, and only that");
  const nodeConnection = listeners[0] as (this: HttpServer, socket: Socket) => void;
  server.removeListener('connection', nodeConnection);
  const sockets = new Set<Socket>();

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const onData = (chunk: Buffer) => {
      // A reader that sends on without reading what it was sent goes to Node's server, which waits for it to read.
      if (socket.writableLength > 0) return handOff(chunk);
      const head = plainHead(chunk);
      const bytes = head && options.answer(head, socket);
      if (!bytes) return handOff(chunk);
      socket.write(bytes);
      // Answered: from now on idle between requests, as long as Node's server keeps its own connections.
      if (!answered) socket.setTimeout(server.keepAliveTimeout);
      answered = true;
    };
    // The server's sockets are half-open ones: when the reader ends its side, the front ends its own, as Node's server does.
    const onEnd = () => socket.end();
    const onTimeout = () => socket.destroy();
    const onError = () => socket.destroy();
    const onClose = () => sockets.delete(socket);
    const handOff = (chunk: Buffer) => {
      socket.off('data', onData).off('end', onEnd).off('timeout', onTimeout).off('error', onError).off('close', onClose);
      sockets.delete(socket);
      socket.setTimeout(0);
      // Read again by Node's parser, first, before anything the socket receives later.
      socket.unshift(chunk);
      nodeConnection.call(server, socket);
    };
    // A first request must come within the time Node's server gives a whole request (requestTimeout).
    let answered = false;
    socket.setTimeout(server.requestTimeout || server.keepAliveTimeout);
    socket.on('data', onData).on('end', onEnd).on('timeout', onTimeout).on('error', onError).on('close', onClose);
  });

  // server.close() closes Node's idle connections through this; the front's are idle between answers.
  const closeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeIdle();
    for (const socket of sockets) socket.end();
  };
  const closeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeAll();
    for (const socket of sockets) socket.destroy();
  };
}
