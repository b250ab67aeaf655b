import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overloaded, servingServer } from '../../scripts/serve.ts';
import { apiServer } from '../../src/server/main.ts';
import { tournamentData } from '../../src/server/services/live/changes.ts';
import { AnswerCache, askedOf } from '../../src/server/serving/answer-cache.ts';
import { heldReads } from '../../src/server/serving/held-reads.ts';
import { HSTS, NO_PROXY } from '../../src/server/transport.ts';
import { MAX_UNANSWERED_PER_CONNECTION } from '../../src/server/serving/refusals.ts';

/** Starts `server` on a free loopback port and gives its base address. */
async function listen(server: http.Server): Promise<{ port: number; base: string }> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { port, base: `http://127.0.0.1:${port}` };
}

const close = (server: http.Server) =>
  new Promise<void>((done) => {
    server.closeAllConnections();
    server.close(() => done());
  });

interface RawAnswer {
  status: number;
  headers: Map<string, string>;
  body: string;
  /** Milliseconds from the first byte sent until the server closed the connection. */
  closedAfterMs: number;
}

/**
 * Sends raw HTTP (what fetch will not send: a Host with `@`, TRACE, a broken request line) on a
 * socket of its own and reads until the server closes it. `trickle` bytes then follow one at a
 * time every `everyMs`, as a slow sender would.
 */
function raw(port: number, text: string, trickle?: { bytes: string; everyMs: number }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body: rest.join('\r\n\r\n'), closedAfterMs: Date.now() - started });
    });
    socket.once('connect', () => {
      socket.write(text);
      if (!trickle) return;
      let sent = 0;
      timer = setInterval(() => {
        if (sent < trickle.bytes.length && !socket.destroyed) socket.write(trickle.bytes[sent++]!);
      }, trickle.everyMs);
    });
    setTimeout(() => reject(new Error('no answer within 10 s')), 10_000).unref();
  });
}

const request = (method: string, path: string, host = 'arena.test', extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${extra}\r\n`;

/** What every refusal made before the app carries (the API's own security headers). */
function expectRefusal(answer: RawAnswer, status: number, message: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('x-frame-options')).toBe('DENY');
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  expect(answer.headers.get('cross-origin-resource-policy')).toBe('same-site');
  expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(JSON.parse(answer.body)).toEqual({ message });
}

describe('a request that waited too long for its turn', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    server = http.createServer(overloaded);
    ({ base } = await listen(server));
  });

  afterAll(() => close(server));

  it('gets the API its 503 JSON in the reader\'s language, not to be cached, with a time to retry', async () => {
    const response = await fetch(`${base}/api/tournaments`, { headers: { cookie: 'lang=en' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toEqual({ message: 'The service is temporarily unavailable. Try again later.' });
  });

  it('gets a page a short page saying the same, in Ukrainian by default', async () => {
    const response = await fetch(`${base}/tournaments`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toContain('<html lang="uk">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain('<p>Сервіс тимчасово недоступний. Спробуйте пізніше.</p>');
  });
});

/**
 * The site's server (`servingServer`) in front of a stand-in for the build's handler: it records
 * what reached it, reads a POST's body before answering, and answers anything else at once.
 */
describe('the site\'s server, before the app', () => {
  const REQUEST_TIMEOUT_MS = 500;
  const reached: string[] = [];
  let server: http.Server;
  let port: number;
  let base: string;
  let clientDir: string;

  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'serve-test-'));
    writeFileSync(join(clientDir, 'favicon.ico'), 'icon');
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      reached.push(`${req.method} ${req.url}`);
      const answer = () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      if (req.method === 'POST') {
        req.resume();
        req.on('end', answer);
      } else answer();
    };
    server = servingServer(handler, clientDir, { concurrency: 2, requestTimeoutMs: REQUEST_TIMEOUT_MS });
    ({ port, base } = await listen(server));
  });

  afterAll(async () => {
    await close(server);
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('answers TRACE 405 with what is allowed, and a method it does not know 501, never reaching the app', async () => {
    reached.length = 0;
    const page = await raw(port, request('TRACE', '/'));
    expectRefusal(page, 405, 'Цей метод тут не підтримується');
    expect(page.headers.get('allow')).toBe('GET, HEAD');
    const api = await raw(port, request('TRACE', '/api/games'));
    expectRefusal(api, 405, 'Цей метод тут не підтримується');
    expect(api.headers.get('allow')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    expectRefusal(await raw(port, request('PROPFIND', '/api/games')), 501, 'Сервер не підтримує цей метод');
    expectRefusal(await raw(port, request('PROPFIND', '/')), 501, 'Сервер не підтримує цей метод');
    // Not even Node's parser knows this one.
    expectRefusal(await raw(port, request('FOO', '/')), 501, 'Сервер не підтримує цей метод');
    expect(reached).toEqual([]);
  });

  it('answers a write to a page or a file 405 with Allow: GET, HEAD, without reaching the app', async () => {
    reached.length = 0;
    for (const [method, path] of [['POST', '/tournaments'], ['PUT', '/'], ['DELETE', '/favicon.ico'], ['PATCH', '/news/1'], ['OPTIONS', '/login']]) {
      const response = await fetch(`${base}${path}`, { method, headers: { host: 'arena.test', cookie: 'lang=en' }, ...(method === 'POST' ? { body: 'x=1' } : {}) });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.json()).toEqual({ message: 'This method is not allowed here' });
    }
    expect(reached).toEqual([]);
    // The API takes its writes.
    expect((await fetch(`${base}/api/news`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(reached).toEqual(['POST /api/news']);
  });

  it('refuses a malformed Host with a 400 JSON instead of a 500 or the home page', async () => {
    reached.length = 0;
    for (const host of ['a@b', '[::1', '', 'a b', 'arena.test:99999']) {
      expectRefusal(await raw(port, request('GET', '/api/games', host)), 400, 'Неправильний заголовок Host');
      expectRefusal(await raw(port, request('GET', '/news', host)), 400, 'Неправильний заголовок Host');
    }
    // HTTP/1.1 requires one; an HTTP/1.0 probe may leave it out.
    expectRefusal(await raw(port, 'GET /api/games HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'Неправильний заголовок Host');
    expect(reached).toEqual([]);
    expect((await raw(port, 'GET /api/games HTTP/1.0\r\n\r\n')).status).toBe(200);
    expect((await raw(port, request('GET', '/api/games', '[::1]:4321'))).status).toBe(200);
  });

  it('refuses broken percent-encoding and targets that are not a path with a 400 JSON', async () => {
    reached.length = 0;
    for (const target of ['/api/news/%E0%A4%A', '/news/%ff', '/api/tournaments?offset=%ff', '/news/100%', 'http://evil.test/', '*']) {
      expectRefusal(await raw(port, request('GET', target)), 400, 'Неправильна адреса запиту');
    }
    expect(reached).toEqual([]);
    expect((await raw(port, request('GET', '/news/%D0%BD%D0%BE%D0%B2%D0%B8%D0%BD%D0%B8'))).status).toBe(200);
  });

  it('answers a request Node cannot parse with the same JSON refusal', async () => {
    expectRefusal(await raw(port, 'GET / HTTP/1.1\r\nHost: arena.test\r\nno colon here\r\n\r\n'), 400, 'Неправильний запит');
    expectRefusal(await raw(port, `GET / HTTP/1.1\r\nHost: arena.test\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`), 431, 'Заголовки запиту завеликі');
  });

  it('cuts off a client that trickles its request body, after the request timeout', async () => {
    const head = 'POST /api/news HTTP/1.1\r\nHost: arena.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const answer = await raw(port, head, { bytes: '{'.repeat(1000), everyMs: 50 });
    expectRefusal(answer, 408, 'Запит надходив надто довго');
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS);
    // Node looks for late requests once a second at most.
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
  });

  it('cuts off a client that trickles its headers too', async () => {
    const answer = await raw(port, 'GET / HTTP/1.1\r\nHost: arena.test\r\n', { bytes: 'X-Slow: yes\r\n'.repeat(100), everyMs: 20 });
    expectRefusal(answer, 408, 'Запит надходив надто довго');
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
  });
});

describe('the API\'s own server (npm run api), before the app', () => {
  const REQUEST_TIMEOUT_MS = 500;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    const app = { fetch: async (request: Request) => Response.json({ read: (await request.text()).length }) };
    server = apiServer(app, { requestTimeoutMs: REQUEST_TIMEOUT_MS });
    ({ port } = await listen(server));
  });

  afterAll(() => close(server));

  it('takes ordinary requests', async () => {
    const answer = await raw(port, `${request('POST', '/api/news').slice(0, -2)}Content-Length: 2\r\n\r\n{}`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ read: 2 });
  });

  it('refuses TRACE, a malformed Host and broken encoding the same way as the site', async () => {
    expectRefusal(await raw(port, request('TRACE', '/api/games')), 405, 'Цей метод тут не підтримується');
    expectRefusal(await raw(port, request('GET', '/api/games', 'a@b')), 400, 'Неправильний заголовок Host');
    expectRefusal(await raw(port, request('GET', '/api/news/%E0%A4%A')), 400, 'Неправильна адреса запиту');
  });

  it('cuts off a client that trickles its request body, after the request timeout', async () => {
    const head = 'POST /api/news HTTP/1.1\r\nHost: arena.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const answer = await raw(port, head, { bytes: '{'.repeat(1000), everyMs: 50 });
    expectRefusal(answer, 408, 'Запит надходив надто довго');
    expect(answer.closedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 1500);
  });
});

describe('the site\'s server: two lines into the app (decision 019)', () => {
  it('lets a read of the API in while every place of the pages\' line is taken by slow renders', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'serve-lines-'));
    const renders: (() => void)[] = [];
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url);
      // Pages wait until the test lets them finish; the API answers at once.
      if (req.url?.startsWith('/api/')) answer();
      else renders.push(answer);
    };
    const server = servingServer(handler, clientDir, { concurrency: 1 });
    const { base } = await listen(server);
    try {
      const pages = [fetch(`${base}/tournaments?page=1`), fetch(`${base}/tournaments?page=2`)];
      await expect.poll(() => renders.length).toBe(1);
      // The pages' one place is taken and another page waits for it; the API's line is free.
      const api = await fetch(`${base}/api/team/1/chat`);
      expect(await api.text()).toBe('/api/team/1/chat');
      expect(renders).toHaveLength(1);
      renders.shift()!();
      await expect.poll(() => renders.length).toBe(1);
      renders.shift()!();
      expect((await Promise.all(pages)).map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await close(server);
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
  it('gives the API its own number of places (CONCURRENT_API_READS): reads waiting on the database do not hold up each other', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'serve-lines-'));
    const inside: { url: string; answer: () => void }[] = [];
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      inside.push({ url: req.url!, answer: () => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url) });
    };
    const server = servingServer(handler, clientDir, { concurrency: 1, apiConcurrency: 3 });
    const { base } = await listen(server);
    try {
      const reads = ['/api/team/1/chat', '/api/team/2/chat', '/api/team/3/chat', '/api/team/4/chat'];
      const answers = ['/tournaments?page=1', '/tournaments?page=2', ...reads].map((path) => fetch(`${base}${path}`));
      // One page and three API reads are let in; the second page and the fourth read wait their turn.
      await expect.poll(() => inside.length).toBe(4);
      expect(inside.filter((r) => r.url.startsWith('/api/'))).toHaveLength(3);
      // The requests travel on separate connections: which read waits depends on their arrival.
      const waitingRead = reads.find((url) => !inside.some((r) => r.url === url));
      inside.splice(inside.findIndex((r) => r.url.startsWith('/api/')), 1)[0]!.answer();
      await expect.poll(() => inside.length).toBe(4);
      expect(inside.at(-1)!.url).toBe(waitingRead);
      for (const r of inside.splice(0)) r.answer();
      await expect.poll(() => inside.length).toBe(1);
      inside.shift()!.answer();
      expect((await Promise.all(answers)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    } finally {
      await close(server);
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

/** Opens a raw connection to `port`, collecting what it reads; `close` resolves when the server closes it. */
function connection(port: number, options: { read?: boolean } = {}) {
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  let reset = false;
  if (options.read !== false) socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', (error: NodeJS.ErrnoException) => (reset = error.code === 'ECONNRESET'));
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  const connected = new Promise<void>((done) => socket.once('connect', () => done()));
  return { socket, connected, closed, text: () => text, reset: () => reset };
}

describe('the site\'s server against clients that do not play by the rules', () => {
  let clientDir: string;
  let server: http.Server;
  let port: number;
  let base: string;
  /** Requests that reached the app, by connection's remote port. */
  const reached = new Map<number, number>();
  /** A page of 256 KB: a client that never reads its answers would make the server hold them all. */
  const PAGE = 'x'.repeat(256 * 1024);

  beforeAll(async () => {
    clientDir = mkdtempSync(join(tmpdir(), 'serve-abuse-'));
    writeFileSync(join(clientDir, 'favicon.svg'), '<svg/>');
    writeFileSync(join(clientDir, 'gone.txt'), 'soon removed');
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      const from = req.socket.remotePort ?? 0;
      reached.set(from, (reached.get(from) ?? 0) + 1);
      const body = req.url === '/big' ? PAGE : `answer to ${req.url}`;
      const answer = () => res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
      // Some answers are made at once, some a moment later, as a render or a query would.
      if (req.url?.includes('later')) setTimeout(answer, 20);
      else answer();
    };
    server = servingServer(handler, clientDir, { concurrency: 4 });
    ({ port, base } = await listen(server));
  });

  afterAll(async () => {
    await close(server);
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('closes a connection that pipelines hundreds of requests and reads none of the answers, and answers others meanwhile', async () => {
    // Answers made a moment later (a render, a query): Node has written nothing yet when the rest of the segment is parsed.
    const flood = Array.from({ length: 300 }, () => 'GET /big-later HTTP/1.1\r\nHost: arena.test\r\n\r\n').join('');
    const floods = Array.from({ length: 8 }, () => connection(port, { read: false }));
    await Promise.all(floods.map((f) => f.connected));
    for (const f of floods) f.socket.write(flood);
    await Promise.all(floods.map((f) => f.closed));
    for (const f of floods) {
      // However many it sent, the app was asked for at most MAX_UNANSWERED_PER_CONNECTION of them.
      expect(reached.get(f.socket.localPort!) ?? 0).toBeLessThanOrEqual(MAX_UNANSWERED_PER_CONNECTION);
    }
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
  });

  it('stops reading a connection whose answers, made at once, it cannot send', async () => {
    const flood = connection(port, { read: false });
    await flood.connected;
    flood.socket.write(Array.from({ length: 300 }, () => 'GET /big HTTP/1.1\r\nHost: arena.test\r\n\r\n').join(''));
    await new Promise((done) => setTimeout(done, 300));
    expect(reached.get(flood.socket.localPort!) ?? 0).toBeLessThanOrEqual(MAX_UNANSWERED_PER_CONNECTION);
    expect((await fetch(`${base}/api/health`)).status).toBe(200);
    flood.socket.destroy();
  });

  it('holds the same bound for static files, and a pipelining client that reads gets every answer in order', async () => {
    const flood = connection(port, { read: false });
    await flood.connected;
    flood.socket.write(Array.from({ length: 200 }, () => 'GET /favicon.svg HTTP/1.1\r\nHost: arena.test\r\n\r\n').join(''));
    await flood.closed;
    // A well-behaved client pipelining within the bound is answered as it asked.
    const polite = connection(port);
    await polite.connected;
    polite.socket.write(['/a', '/b-later', '/favicon.svg', '/c'].map((path) => `GET ${path} HTTP/1.1\r\nHost: arena.test\r\n\r\n`).join(''));
    await expect.poll(() => (polite.text().match(/HTTP\/1\.1 200/g) ?? []).length).toBe(4);
    const order = [...polite.text().matchAll(/answer to (\S+)|<svg\/>/g)].map((m) => m[1] ?? 'svg');
    expect(order).toEqual(['/a', '/b-later', 'svg', '/c']);
    polite.socket.destroy();
  });

  it('survives a static file that fails while it is sent (gone from the disk), and goes on answering', async () => {
    rmSync(join(clientDir, 'gone.txt'));
    const failed = await fetch(`${base}/gone.txt`).then(
      async (r) => r.status === 200 && (await r.text()) === 'soon removed',
      () => false,
    );
    expect(failed).toBe(false);
    expect((await fetch(`${base}/favicon.svg`)).status).toBe(200);
  });

  it('answers a head of 70 KB 431 in JSON, read to the end rather than reset', async () => {
    const big = connection(port);
    await big.connected;
    big.socket.write(`GET / HTTP/1.1\r\nHost: arena.test\r\nX-Padding: ${'a'.repeat(70 * 1024)}\r\n\r\n`);
    await big.closed;
    expect(big.reset()).toBe(false);
    expect(big.text()).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(big.text().split('\r\n\r\n')[1]!)).toEqual({ message: expect.any(String) });
  });

  it('answers a request that said Connection: close, whatever the client sent after it', async () => {
    for (const path of ['/closing', '/closing-later']) {
      const closing = connection(port);
      await closing.connected;
      closing.socket.write(`GET ${path} HTTP/1.1\r\nHost: arena.test\r\nConnection: close\r\n\r\nGET /after HTTP/1.1\r\nHost: arena.test\r\n\r\n`);
      await closing.closed;
      expect(closing.text(), path).toMatch(/^HTTP\/1\.1 200 /);
      expect(closing.text()).toContain(`answer to ${path}`);
      expect(closing.text()).not.toMatch(/answer to \/after|HTTP\/1\.1 400/);
    }
  });

  it('answers CONNECT 405 in JSON instead of closing without a word', async () => {
    const tunnel = connection(port);
    await tunnel.connected;
    tunnel.socket.write('CONNECT 127.0.0.1:80 HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n');
    await tunnel.closed;
    expect(tunnel.text()).toMatch(/^HTTP\/1\.1 405 /);
    expect(tunnel.text()).toMatch(/\r\nAllow: GET, HEAD\r\n/);
    // The connection's bytes are read as latin1 (heads are ASCII); the JSON body is UTF-8.
    const body = Buffer.from(tunnel.text().split('\r\n\r\n')[1]!, 'latin1').toString('utf8');
    expect(JSON.parse(body)).toEqual({ message: 'Цей метод тут не підтримується' });
  });

  it('answers every request of a client that sends them and closes its side, those made at once and those made later alike', async () => {
    const half = connection(port);
    await half.connected;
    half.socket.write(['/one', '/two-later', '/three', '/four-later'].map((path) => `GET ${path} HTTP/1.1\r\nHost: arena.test\r\n\r\n`).join(''));
    half.socket.end();
    await half.closed;
    expect([...half.text().matchAll(/answer to (\S+)/g)].map((m) => m[1])).toEqual(['/one', '/two-later', '/three', '/four-later']);
  });
});

describe('an event stream\'s connection', () => {
  it('holds no place in the API line once its head is written, and ends when the client closes its side', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'serve-stream-'));
    let open = 0;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
      if (req.url === '/api/games') return void res.end('[]');
      open++;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ready\ndata: {}\n\n');
      res.once('close', () => open--);
    };
    // One place for API reads: a stream that kept it would leave every other read waiting.
    const server = servingServer(handler, clientDir, { concurrency: 1, apiConcurrency: 1 });
    const { port, base } = await listen(server);
    try {
      const streams = [connection(port), connection(port)];
      for (const stream of streams) {
        await stream.connected;
        stream.socket.write('GET /api/tournaments/00000000-0000-4000-8000-000000000000/events HTTP/1.1\r\nHost: arena.test\r\n\r\n');
        await expect.poll(() => stream.text()).toMatch(/event: ready/);
      }
      const read = await fetch(`${base}/api/games`, { signal: AbortSignal.timeout(2000) });
      expect(await read.text()).toBe('[]');
      // A client that closes its side has left: the stream ends with its connection.
      streams[0]!.socket.end();
      await streams[0]!.closed;
      await expect.poll(() => open).toBe(1);
      streams[1]!.socket.destroy();
      await expect.poll(() => open).toBe(0);
    } finally {
      await close(server);
      rmSync(clientDir, { recursive: true, force: true });
    }
  });


  it('never carries an error answer inside the stream\'s body when the client sends garbage after it', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'serve-stream-'));
    const handler = (_req: http.IncomingMessage, res: http.ServerResponse) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: ready\ndata: {}\n\n');
      const beat = setInterval(() => res.write(': beat\n\n'), 20);
      res.once('close', () => clearInterval(beat));
    };
    const server = servingServer(handler, clientDir, { concurrency: 1 });
    const { port } = await listen(server);
    try {
      const stream = connection(port);
      await stream.connected;
      stream.socket.write('GET /api/tournaments/00000000-0000-4000-8000-000000000000/events HTTP/1.1\r\nHost: arena.test\r\n\r\n');
      await expect.poll(() => stream.text()).toMatch(/event: ready/);
      stream.socket.write('THIS IS NOT HTTP\r\n\r\n');
      await new Promise((done) => setTimeout(done, 200));
      expect(stream.text()).toMatch(/^HTTP\/1\.1 200 /);
      expect(stream.text().match(/HTTP\/1\.1/g)).toHaveLength(1);
      expect(stream.text()).not.toMatch(/"message"/);
      stream.socket.destroy();
    } finally {
      await close(server);
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

describe('the site\'s server: guests\' fresh held reads before the app (decision 048)', () => {
  const TOURNAMENT = tournamentData('11111111-1111-4111-8111-111111111111');
  const page = 'турнір '.repeat(400);
  let cache: AnswerCache;
  let server: http.Server;
  let base: string;
  let clientDir: string;
  /** The paths the app (Astro's handler, in the built site) was asked for. */
  const asked: string[] = [];
  const transport = { trustProxy: NO_PROXY, siteUrl: undefined as string | undefined };

  beforeAll(async () => {
    cache = new AnswerCache(60_000);
    // What the middleware does: a guest's read through the cache, rendered when it holds nothing fresh.
    const app = getRequestListener(
      (request) => {
        const url = new URL(request.url);
        asked.push(url.pathname);
        const render = async () => ({ response: new Response(page, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=0', etag: '"p1"' } }), shown: new Set([TOURNAMENT]) });
        return request.headers.has('authorization') ? new Response('mine', { headers: { 'cache-control': 'private' } }) : cache.get(askedOf(request, url, null), render);
      },
      { overrideGlobalObjects: false },
    );
    clientDir = mkdtempSync(join(tmpdir(), 'kiberarena-held-'));
    server = servingServer((req, res) => void app(req, res), clientDir, { concurrency: 1, held: heldReads(cache, transport, null) });
    ({ base } = await listen(server));
  });

  afterAll(async () => {
    await close(server);
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('sends a fresh held page without the app, in the reader’s encoding, and 304 for its ETag', async () => {
    asked.length = 0;
    const first = await fetch(`${base}/tournaments/one`);
    expect(await first.text()).toBe(page);
    expect(asked).toEqual(['/tournaments/one']);
    const again = await fetch(`${base}/tournaments/one`, { headers: { 'accept-encoding': 'br' } });
    expect(again.status).toBe(200);
    expect(again.headers.get('content-encoding')).toBe('br');
    expect(await again.text()).toBe(page);
    const notModified = await fetch(`${base}/tournaments/one`, { headers: { 'if-none-match': '"p1"' } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('content-length')).toBeNull();
    expect(asked).toEqual(['/tournaments/one']);
  });

  it('leaves to the app a read with a token, from another host, in another language, and one whose data changed', async () => {
    await fetch(`${base}/tournaments/two`);
    asked.length = 0;
    await fetch(`${base}/tournaments/two`, { headers: { authorization: 'Bearer x' } });
    // fetch will not send another Host.
    await new Promise((done) => http.get(`${base}/tournaments/two`, { headers: { host: 'other.test' } }, (answer) => answer.resume().on('end', done)));
    await fetch(`${base}/tournaments/two`, { headers: { cookie: 'lang=en' } });
    cache.changed(new Set([TOURNAMENT]));
    await fetch(`${base}/tournaments/two`);
    expect(asked).toEqual(['/tournaments/two', '/tournaments/two', '/tournaments/two', '/tournaments/two']);
    // Rendered again, the next guest has it from the front; a reader in English has the English copy from it once that is rendered.
    await fetch(`${base}/tournaments/two`);
    expect(asked).toHaveLength(4);
    const english = { headers: { cookie: 'theme=dark; lang=en' } };
    await fetch(`${base}/tournaments/two`, english);
    expect(asked).toHaveLength(5);
    expect((await fetch(`${base}/tournaments/two`, english)).status).toBe(200);
    expect(asked).toHaveLength(5);
  });

  it('adds HSTS as the answer leaves, only for a reader who came over HTTPS', async () => {
    await fetch(`${base}/tournaments/three`);
    asked.length = 0;
    expect((await fetch(`${base}/tournaments/three`)).headers.get('strict-transport-security')).toBeNull();
    transport.siteUrl = 'https://arena.test';
    try {
      expect((await fetch(`${base}/tournaments/three`)).headers.get('strict-transport-security')).toBe(HSTS);
    } finally {
      transport.siteUrl = undefined;
    }
    expect(asked).toEqual([]);
  });
});
