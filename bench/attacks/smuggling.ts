// Request smuggling and framing, on raw sockets: each case is written on a fresh connection,
// followed on the same connection by a harmless `GET /api/health`, and everything the server sends
// back is read until it closes the connection or CASE_TIMEOUT_MS pass. Loopback only, bounded in
// count (the cases below) and time. Runnable on its own against a running server:
//
//   node bench/attacks/smuggling.ts http://127.0.0.1:4321 [case-name-filter]
//
// How an answer is told apart: the hidden (smuggled) request alone asks for
// `/api/smuggled-<random>` with `Cookie: lang=en`, so its answer is the only English 404
// ("Not found"); the health request's answer is the only 200 with `"status"`. Everything else is
// the answer to the case's own first request. The CLI prints a table and exits 1 when a case
// desynced: an answer to the smuggled request, or more answers than the case allows (the server
// should have refused the first request and closed, or closed after answering it).
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/**
 * What a correct server does with a case's first request:
 * - `refuse-close`: its framing is ambiguous or broken (RFC 9112 §6.3, §5.2): it is refused (or, at
 *   most, answered) and the connection closed, so exactly one answer comes back;
 * - `answer`: it is well framed: it is answered (or refused) and the health request after it too;
 * - `close`: it asks for the connection to close (HTTP/1.0 without keep-alive): one answer, then close.
 */
export type Expectation = 'refuse-close' | 'answer' | 'close';

export interface SmugglingCase {
  name: string;
  expect: Expectation;
  /** The case's bytes; the health request is written after them. */
  bytes: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whose answer it is (see the top of the file). */
  of: 'case' | 'smuggled' | 'health';
}

export interface CaseResult {
  name: string;
  expect: Expectation;
  answers: Answer[];
  /** Bytes the server sent after the last whole answer (a broken or unfinished answer). */
  trailing: number;
  /** Whether the server closed the connection within the time, and after how long. */
  closed: boolean;
  closedAfterMs: number | null;
  /** Whether an answer belongs to the request hidden in the case. */
  smuggledAnswered: boolean;
  /** Whether the first answer was a refusal (4xx/5xx) and the server then closed the connection. */
  closedAfterRefusal: boolean | null;
  desync: boolean;
  /** Why the case desynced, or what was unexpected without being a desync. */
  note: string;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1)$/;

/** How long one case is read, at most. */
export const CASE_TIMEOUT_MS = 3000;
/** Cases run at once. */
const PARALLEL = 6;
/** A server that keeps sending is read this far, no further. */
const MAX_READ_BYTES = 1024 * 1024;

const CRLF = '\r\n';

/** The cases, with `marker` naming the smuggled request's path (`/api/smuggled-<marker>`). */
export function smugglingCases(marker: string, hostHeader = '127.0.0.1'): SmugglingCase[] {
  const host = `Host: ${hostHeader}`;
  const first = `/api/first-${marker}`;
  const smuggled = [`GET /api/smuggled-${marker} HTTP/1.1`, host, 'Cookie: lang=en', 'Content-Length: 0', '', ''].join(CRLF);
  const post = (...headers: string[]) => [`POST ${first} HTTP/1.1`, host, 'Content-Type: text/plain', ...headers, '', ''].join(CRLF);
  const hex = (text: string) => Buffer.byteLength(text).toString(16);

  /** A body that is whole as chunked encoding, and ends before the smuggled request: a parser that takes the chunks sees it. */
  const chunkedThenSmuggled = `0${CRLF}${CRLF}${smuggled}`;
  /** A chunked body that carries the smuggled request inside its one chunk, after a first line of `lineLength` bytes. */
  const chunkHiding = `${hex(smuggled)}${CRLF}${smuggled}${CRLF}0${CRLF}${CRLF}`;
  const firstLineLength = Buffer.byteLength(`${hex(smuggled)}${CRLF}`);

  /** CL.TE: the length covers the whole chunked body and the smuggled request; chunked framing ends before it. */
  const clTe = (te: string, extra: string[] = []) => post(`Content-Length: ${Buffer.byteLength(chunkedThenSmuggled)}`, te, ...extra) + chunkedThenSmuggled;
  /** TE.CL: chunked framing holds the smuggled request inside a chunk; the length ends before it. */
  const teCl = (te: string, extra: string[] = []) => post(`Content-Length: ${firstLineLength}`, te, ...extra) + chunkHiding;
  /** TE alone: a parser that ignores the header takes no body and reads the smuggled request next. */
  const teAlone = (te: string) => post(te) + smuggled;

  const cases: SmugglingCase[] = [];
  const add = (name: string, expect: Expectation, bytes: string) => cases.push({ name, expect, bytes });

  // CL.TE and TE.CL with a plain Transfer-Encoding.
  add('cl-te', 'refuse-close', clTe('Transfer-Encoding: chunked'));
  add('te-cl', 'refuse-close', teCl('Transfer-Encoding: chunked'));
  add('te-cl-zero', 'refuse-close', post('Transfer-Encoding: chunked', 'Content-Length: 0') + chunkHiding);

  // Obfuscated Transfer-Encoding, each with a length (both framings) and alone.
  const obfuscated: [string, string][] = [
    ['xchunked', 'Transfer-Encoding: xchunked'],
    ['space-value', 'Transfer-Encoding:  chunked'],
    ['space-before-colon', 'Transfer-Encoding : chunked'],
    ['chunked-identity', 'Transfer-Encoding: chunked, identity'],
    ['identity-chunked', 'Transfer-Encoding: identity, chunked'],
    ['tab-value', 'Transfer-Encoding:\tchunked'],
    ['tab-before-colon', 'Transfer-Encoding\t: chunked'],
    ['upper-case', 'Transfer-Encoding: CHUNKED'],
    ['quoted', 'Transfer-Encoding: "chunked"'],
    ['vertical-tab', 'Transfer-Encoding: \x0bchunked'],
    ['duplicated', `Transfer-Encoding: chunked${CRLF}Transfer-Encoding: identity`],
    ['duplicated-x', `Transfer-Encoding: chunked${CRLF}Transfer-encoding: x`],
    ['leading-space-line', ` Transfer-Encoding: chunked`],
  ];
  for (const [name, te] of obfuscated) {
    add(`cl-te:${name}`, 'refuse-close', clTe(te));
    add(`te-cl:${name}`, 'refuse-close', teCl(te));
  }
  add('te-alone:xchunked', 'refuse-close', teAlone('Transfer-Encoding: xchunked'));
  add('te-alone:chunked-identity', 'refuse-close', teAlone('Transfer-Encoding: chunked, identity'));
  add('te-alone:identity', 'refuse-close', teAlone('Transfer-Encoding: identity'));

  // Content-Length: duplicated (same value), conflicting, listed, malformed.
  const hidden = smuggled;
  const len = Buffer.byteLength(hidden);
  add('cl-duplicate-same', 'answer', post(`Content-Length: ${len}`, `Content-Length: ${len}`) + hidden);
  add('cl-conflict-short-first', 'refuse-close', post('Content-Length: 0', `Content-Length: ${len}`) + hidden);
  add('cl-conflict-long-first', 'refuse-close', post(`Content-Length: ${len}`, 'Content-Length: 0') + hidden);
  add('cl-list', 'refuse-close', post(`Content-Length: 0, ${len}`) + hidden);
  add('cl-plus', 'refuse-close', post(`Content-Length: +${len}`) + hidden);
  add('cl-hex', 'refuse-close', post(`Content-Length: 0x${len.toString(16)}`) + hidden);
  add('cl-negative', 'refuse-close', post('Content-Length: -1') + hidden);
  add('cl-space-inside', 'refuse-close', post(`Content-Length: 0 ${len}`) + hidden);
  add('cl-overflow', 'refuse-close', post('Content-Length: 99999999999999999999999') + hidden);

  // Header folding (obs-fold): of a harmless header, and folding a framing header into place.
  add('obs-fold-harmless', 'answer', post(`X-Folded: a${CRLF} b`, `Content-Length: ${len}`) + hidden);
  add('obs-fold-te', 'refuse-close', post(`Content-Length: ${Buffer.byteLength(chunkedThenSmuggled)}`, `Transfer-Encoding: x${CRLF} chunked`) + chunkedThenSmuggled);
  add('obs-fold-cl', 'refuse-close', post(`X-Folded: a${CRLF} Content-Length: ${len}`) + hidden);

  // Bare LF line endings: everywhere, in one header line, and in a chunk-size line.
  add('bare-lf-request', 'answer', [`GET ${first} HTTP/1.1`, host, '', ''].join('\n'));
  add('bare-lf-header', 'refuse-close', post(`X-Before: x\nContent-Length: ${len}`) + hidden);
  add('bare-lf-chunk', 'refuse-close', post('Transfer-Encoding: chunked') + `${hex(hidden)}\n${hidden}${CRLF}0${CRLF}${CRLF}`);
  add('bare-cr-header', 'refuse-close', post(`X-Before: x\rContent-Length: ${len}`) + hidden);

  // Chunked bodies that are broken or stretched.
  add('chunk-size-overflow', 'refuse-close', post('Transfer-Encoding: chunked') + `ffffffffffffffff1${CRLF}x${CRLF}0${CRLF}${CRLF}${hidden}`);
  add('chunk-size-0x', 'refuse-close', post('Transfer-Encoding: chunked') + `0x0${CRLF}${CRLF}${hidden}`);
  add('chunk-extension-lf', 'refuse-close', post('Transfer-Encoding: chunked') + `0;a=b\nx${CRLF}${CRLF}${hidden}`);
  add('chunk-trailer-cl', 'answer', post('Transfer-Encoding: chunked') + `0${CRLF}Content-Length: ${len}${CRLF}${CRLF}`);

  // HTTP/1.0: keep-alive asked for, not asked for, and a chunked body (undefined in 1.0).
  add('http10-keep-alive', 'answer', [`GET ${first} HTTP/1.0`, host, 'Connection: keep-alive', '', ''].join(CRLF));
  add('http10-no-host-keep-alive', 'answer', [`GET ${first} HTTP/1.0`, 'Connection: keep-alive', '', ''].join(CRLF));
  add('http10-close', 'close', [`GET ${first} HTTP/1.0`, host, '', ''].join(CRLF));
  add('http11-close-then-more', 'close', [`GET ${first} HTTP/1.1`, host, 'Connection: close', '', ''].join(CRLF));
  add('http10-chunked', 'refuse-close', [`POST ${first} HTTP/1.0`, host, 'Connection: keep-alive', 'Transfer-Encoding: chunked', '', ''].join(CRLF) + chunkHiding);

  // Request targets that are not the origin form.
  add('absolute-form', 'answer', [`GET http://${hostHeader}/api/health HTTP/1.1`, host, '', ''].join(CRLF));
  add('absolute-form-other-host', 'answer', [`GET http://evil-${marker}.example/ HTTP/1.1`, host, '', ''].join(CRLF));
  add('asterisk-form', 'answer', ['OPTIONS * HTTP/1.1', host, '', ''].join(CRLF));
  add('authority-form', 'answer', [`CONNECT ${hostHeader}:80 HTTP/1.1`, host, '', ''].join(CRLF));

  // A request hidden in a well-framed body: it is data, never a request.
  add('body-hides-request', 'answer', post(`Content-Length: ${len}`) + hidden);
  add('get-body-hides-request', 'answer', [`GET ${first} HTTP/1.1`, host, `Content-Length: ${len}`, '', ''].join(CRLF) + hidden);
  add('chunked-hides-request', 'answer', post('Transfer-Encoding: chunked') + chunkHiding);
  add('page-post-hides-request', 'answer', [`POST /tournaments HTTP/1.1`, host, `Content-Length: ${len}`, '', ''].join(CRLF) + hidden);
  return cases;
}

/** The request written after every case; it asks the server to close once it has answered it. */
export const healthRequest = (hostHeader = '127.0.0.1') => ['GET /api/health HTTP/1.1', `Host: ${hostHeader}`, 'Connection: close', '', ''].join(CRLF);

/** Whole answers at the start of `data`, and how many bytes are left after them. */
export function parseAnswers(data: Buffer, closed: boolean): { answers: Omit<Answer, 'of'>[]; trailing: number } {
  const answers: Omit<Answer, 'of'>[] = [];
  let at = 0;
  for (;;) {
    const headEnd = data.indexOf('\r\n\r\n', at);
    if (headEnd === -1) break;
    const lines = data.subarray(at, headEnd).toString('latin1').split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]);
    if (!Number.isInteger(status)) break;
    const headers: Record<string, string> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    let next = headEnd + 4;
    let body: Buffer;
    if (status < 200 || status === 204 || status === 304) body = Buffer.alloc(0);
    else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      let complete = false;
      for (;;) {
        const lineEnd = data.indexOf('\r\n', next);
        if (lineEnd === -1) break;
        const size = parseInt(data.subarray(next, lineEnd).toString('latin1'), 16);
        if (!Number.isFinite(size)) break;
        if (size === 0) {
          const trailerEnd = data.indexOf('\r\n\r\n', lineEnd - 2);
          if (trailerEnd === -1) break;
          next = trailerEnd + 4;
          complete = true;
          break;
        }
        if (lineEnd + 2 + size + 2 > data.length) break;
        parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        next = lineEnd + 2 + size + 2;
      }
      if (!complete) break;
      body = Buffer.concat(parts);
    } else if (headers['content-length'] !== undefined) {
      const length = Number(headers['content-length']);
      if (!Number.isInteger(length) || next + length > data.length) break;
      body = data.subarray(next, next + length);
      next += length;
    } else {
      // Delimited by the close: whole only once the server has closed.
      if (!closed) break;
      body = data.subarray(next);
      next = data.length;
    }
    answers.push({ status, headers, body: body.toString('utf8') });
    at = next;
  }
  return { answers, trailing: data.length - at };
}

/** Whose answer `answer` is (see the top of the file). */
export function ownerOf(answer: Omit<Answer, 'of'>): Answer['of'] {
  if (answer.status === 404 && answer.body.includes('Not found')) return 'smuggled';
  if (answer.status === 200 && answer.body.includes('"status"')) return 'health';
  return 'case';
}

/** Writes `bytes` on a fresh connection and reads until the server closes it or `timeoutMs` pass. */
export function exchange(port: number, host: string, bytes: string, timeoutMs = CASE_TIMEOUT_MS): Promise<{ data: Buffer; closed: boolean; closedAfterMs: number | null }> {
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  return new Promise((done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const started = Date.now();
    const socket = net.connect({ port, host });
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      done({ data: Buffer.concat(chunks), closed, closedAfterMs: closed ? Date.now() - started : null });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > MAX_READ_BYTES) finish(false);
    });
    // The server's FIN (its side closed) or a reset: either way it is done with the connection.
    socket.once('end', () => finish(true));
    socket.once('close', () => finish(true));
    socket.on('error', () => {});
    socket.once('connect', () => socket.write(Buffer.from(bytes, 'latin1')));
  });
}

/** Runs one case and judges it. */
export async function runCase(port: number, host: string, testCase: SmugglingCase, timeoutMs = CASE_TIMEOUT_MS): Promise<CaseResult> {
  const { data, closed, closedAfterMs } = await exchange(port, host, testCase.bytes + healthRequest(), timeoutMs);
  const parsed = parseAnswers(data, closed);
  const answers = parsed.answers.map((answer) => ({ ...answer, of: ownerOf(answer) }));
  const smuggledAnswered = answers.some((answer) => answer.of === 'smuggled');
  const firstRefused = answers[0] !== undefined && answers[0].status >= 400;
  const closedAfterRefusal = firstRefused ? closed && answers.length === 1 : null;
  const notes: string[] = [];
  let desync = false;
  if (smuggledAnswered) {
    desync = true;
    notes.push('the smuggled request was answered');
  }
  if ((testCase.expect === 'refuse-close' || testCase.expect === 'close') && answers.length > 1) {
    desync = true;
    notes.push(`${answers.length} answers where one was due before the close`);
  }
  if (testCase.expect === 'answer' && answers.length > 2) {
    desync = true;
    notes.push(`${answers.length} answers to two requests`);
  }
  // A refusal made by the parser (Connection: close) followed by another answer: the server read on.
  if (firstRefused && answers[0]?.headers.connection?.toLowerCase() === 'close' && answers.length > 1) {
    desync = true;
    notes.push('answered on after a refusal that closes');
  }
  if (!desync) {
    if (answers.length === 0) notes.push(closed ? 'closed with no answer' : 'no answer within the time');
    else if (testCase.expect === 'answer' && answers.length === 1 && firstRefused) notes.push('refused, then closed');
    else if (testCase.expect === 'close' && firstRefused && answers[0]?.headers.connection?.toLowerCase() === 'close') {
      // Not a desync (nothing of another request comes back), but the answer due never comes.
      notes.push('its answer replaced by the refusal of the bytes after the close');
    }
    else if (testCase.expect === 'answer' && answers.at(-1)?.of !== 'health') notes.push('health not answered');
    if (!closed) notes.push('connection left open');
    if (parsed.trailing > 0) notes.push(`${parsed.trailing} bytes after the last whole answer`);
  }
  return {
    name: testCase.name,
    expect: testCase.expect,
    answers,
    trailing: parsed.trailing,
    closed,
    closedAfterMs,
    smuggledAnswered,
    closedAfterRefusal,
    desync,
    note: notes.join('; '),
  };
}

export interface SmugglingOptions {
  port: number;
  host?: string;
  /** Only cases whose name contains this. */
  filter?: string;
  timeoutMs?: number;
}

/** Every case against `port`, a few at a time; results in the cases' order. */
export async function runSmuggling(options: SmugglingOptions): Promise<CaseResult[]> {
  const host = options.host ?? '127.0.0.1';
  if (!LOOPBACK.test(host)) throw new Error(`only loopback addresses are attacked, not ${host}`);
  const marker = randomBytes(6).toString('hex');
  const cases = smugglingCases(marker).filter((c) => !options.filter || c.name.includes(options.filter));
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      results[index] = await runCase(options.port, host, cases[index]!, options.timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, cases.length) }, worker));
  return results;
}

if (import.meta.main) {
  const [address = 'http://127.0.0.1:4321', filter] = process.argv.slice(2);
  const url = new URL(address);
  const results = await runSmuggling({ port: Number(url.port || 80), host: url.hostname.replace(/^\[|\]$/g, ''), filter });
  const rows = results.map((r) => ({
    case: r.name,
    expect: r.expect,
    statuses: r.answers.map((a) => `${a.status}${a.of === 'case' ? '' : `(${a.of})`}`).join(' ') || '-',
    smuggled: r.smuggledAnswered ? 'ANSWERED' : 'no',
    closed: r.closed ? `${r.closedAfterMs} ms` : 'no',
    'closed after refusal': r.closedAfterRefusal === null ? '-' : r.closedAfterRefusal ? 'yes' : 'no',
    verdict: r.desync ? 'DESYNC' : 'ok',
    note: r.note,
  }));
  console.table(rows);
  const desynced = results.filter((r) => r.desync);
  console.log(`${results.length} cases, ${desynced.length} desynced${desynced.length ? `: ${desynced.map((r) => r.name).join(', ')}` : ''}`);
  process.exitCode = desynced.length > 0 ? 1 : 0;
}
