import fc from 'fast-check';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { servingServer } from '../../scripts/serve.ts';
import { plainHead } from '../../src/server/serving/held-front.ts';
import { answerKey, publicAnswers } from '../../src/server/serving/response-cache.ts';

const head = (lines: string[]) => Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
const BROWSER = [
  'GET /news?page=2 HTTP/1.1',
  'Host: arena.test',
  'User-Agent: Mozilla/5.0 (Linux; Android 10)',
  'Accept: text/html,application/xhtml+xml',
  'ACCEPT-Encoding: gzip, deflate, br, zstd',
  'Cookie: lang=en; theme=dark',
  'Connection: keep-alive',
  'If-None-Match:  W/"abc"  ',
];

describe('the heads the held front answers itself (plainHead)', () => {
  it("reads a browser's GET: its target and the headers the held answers read, whatever their case", () => {
    const plain = plainHead(head(BROWSER))!;
    expect(plain.target).toBe('/news?page=2');
    expect(plain.header('host')).toBe('arena.test');
    expect(plain.header('accept-encoding')).toBe('gzip, deflate, br, zstd');
    expect(plain.header('cookie')).toBe('lang=en; theme=dark');
    expect(plain.header('if-none-match')).toBe('W/"abc"');
    expect(plain.header('authorization')).toBeNull();
  });

  const others: [string, Buffer][] = [
    ['another method', head(['POST /news HTTP/1.1', 'Host: arena.test'])],
    ['HEAD', head(['HEAD /news HTTP/1.1', 'Host: arena.test'])],
    ['a method in lower case', head(['get /news HTTP/1.1', 'Host: arena.test'])],
    ['HTTP/1.0', head(['GET /news HTTP/1.0', 'Host: arena.test'])],
    ['HTTP/2 words', head(['GET /news HTTP/2.0', 'Host: arena.test'])],
    ['no Host', head(['GET /news HTTP/1.1', 'Accept: */*'])],
    ['a Host that names no host', head(['GET /news HTTP/1.1', 'Host: user@arena.test'])],
    ['a target that does not decode', head(['GET /news/%zz HTTP/1.1', 'Host: arena.test'])],
    ['an absolute target', head(['GET http://arena.test/news HTTP/1.1', 'Host: arena.test'])],
    ['a body by length', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Content-Length: 0'])],
    ['a body in chunks', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Transfer-Encoding: chunked'])],
    ['credentials', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Authorization: Bearer x'])],
    ['a cookie given twice', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Cookie: lang=en', 'Cookie: lang=uk'])],
    ['any other header given twice', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Accept: text/html', 'Accept: */*'])],
    ['a Host given twice', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Host: evil.test'])],
    ['Connection: close', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Connection: close'])],
    ['an upgrade', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Connection: Upgrade', 'Upgrade: websocket'])],
    ['Expect', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Expect: 100-continue'])],
    ["the server's own render mark", head(['GET /news HTTP/1.1', 'Host: arena.test', 'X-Kiberarena-Render-Again: guess'])],
    ['a folded header', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Cookie: lang=en', ' theme=dark'])],
    ['a space before the colon', head(['GET /news HTTP/1.1', 'Host : arena.test'])],
    ['a NUL in a value', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Cookie: lang=en\0'])],
    ['a bare CR in a value', head(['GET /news HTTP/1.1', 'Host: arena.test', 'Cookie: a\rb'])],
    ['a space in the target', head(['GET /news x HTTP/1.1', 'Host: arena.test'])],
    ['a head bigger than Node takes', head(['GET /news HTTP/1.1', 'Host: arena.test', `Cookie: ${'a'.repeat(17_000)}`])],
    ['more header lines than any browser sends', head(['GET /news HTTP/1.1', 'Host: arena.test', ...Array.from({ length: 150 }, (_, i) => `X-${i}: 1`)])],
    ['lines ended by LF alone', Buffer.from('GET /news HTTP/1.1\nHost: arena.test\n\n')],
    ['a head not yet whole', Buffer.from('GET /news HTTP/1.1\r\nHost: arena.test\r\n')],
    ['a second request after it', Buffer.concat([head(['GET /news HTTP/1.1', 'Host: arena.test']), head(['GET /a HTTP/1.1', 'Host: arena.test'])])],
    ['a second request begun after it', Buffer.concat([head(['GET /news HTTP/1.1', 'Host: arena.test']), Buffer.from('GET /a HTTP/1.1\r\n\r\n')])],
  ];
  it.each(others)("sends on to Node's server: %s", (_name, bytes) => {
    expect(plainHead(bytes)).toBeUndefined();
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.boolean(), (bytes, ended) => {
        const chunk = ended ? Buffer.concat([Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n'), bytes, Buffer.from('\r\n\r\n')]) : Buffer.from(bytes);
        const plain = plainHead(chunk);
        return plain === undefined || plain.target.startsWith('/');
      }),
      { numRuns: 2000 },
    );
  });

  it("reads every head it takes as Node's own parser reads it", async () => {
    // Heads made of a few parts each, some odd: whatever plainHead takes, Node must see the same target and values.
    const token = fc.constantFrom(
      'host',
      'Host',
      'HOST',
      'cookie',
      'Cookie',
      'accept-encoding',
      'if-none-match',
      'x-forwarded-proto',
      'cache-control',
      'pragma',
      'connection',
      'accept',
      'x-a',
    );
    const value = fc.stringMatching(/^[ \t!-~\u00a0-\u00ff]{0,20}$/);
    const line = fc.tuple(token, fc.constantFrom(':', ': ', ':\t', ' :'), value).map(([name, colon, text]) => `${name}${colon}${text}`);
    const target = fc.stringMatching(/^\/[!-~]{0,24}$/);
    const heads = fc
      .tuple(target, fc.array(line, { maxLength: 5 }))
      .map(([path, lines]) => ({ path, bytes: head([`GET ${path} HTTP/1.1`, 'Host: arena.test', ...lines]) }));
    const samples = fc.sample(heads, { numRuns: 300, seed: 24 }).filter(({ bytes }) => plainHead(bytes) !== undefined);
    expect(samples.length).toBeGreaterThan(50);
    const seen: http.IncomingMessage[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req);
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    try {
      for (const { bytes } of samples) {
        const before = seen.length;
        await new Promise<void>((done) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.end(bytes));
          socket.on('data', () => socket.destroy());
          socket.on('error', () => {});
          socket.on('close', () => done());
        });
        const plain = plainHead(bytes)!;
        expect(seen.length, bytes.toString('latin1')).toBe(before + 1);
        const req = seen.at(-1)!;
        expect(req.url).toBe(plain.target);
        for (const name of ['host', 'cookie', 'accept-encoding', 'if-none-match', 'x-forwarded-proto', 'cache-control', 'pragma']) {
          expect(req.headers[name] ?? null, `${name} in ${JSON.stringify(bytes.toString('latin1'))}`).toBe(plain.header(name));
        }
      }
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});

/**
 * One connection: each of `writes` is sent once the answers before it have come (or, `trickleMs`,
 * that long after the one before, answered or not); gives everything read once `answers` have come.
 */
function converse(port: number, writes: (string | Buffer)[], answers: number, options: { trickleMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const count = () => text.split(/HTTP\/1\.1 \d{3} /).length - 1;
    let sent = 0;
    const next = () => {
      if (sent < writes.length) socket.write(writes[sent++]!);
      if (options.trickleMs !== undefined && sent < writes.length) setTimeout(next, options.trickleMs);
    };
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      text += chunk;
      // Each whole answer lets the next write go; bodies here are short, and their length is known.
      if (count() >= answers && complete(text)) {
        socket.destroy();
        resolve(text);
      } else if (options.trickleMs === undefined && complete(text) && count() >= sent) next();
    });
    socket.on('error', reject);
    socket.once('connect', next);
    setTimeout(() => reject(new Error(`no ${answers} answers within 5 s: ${text}`)), 5000).unref();
  });
}

/** Whether every answer in `text` has all the body its Content-Length says. */
function complete(text: string): boolean {
  let rest = text;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return false;
    const length = Number(/content-length: (\d+)/i.exec(rest.slice(0, end))?.[1] ?? 0);
    if (rest.length < end + 4 + length) return false;
    rest = rest.slice(end + 4 + length);
  }
  return true;
}

const withoutDate = (text: string) => text.replace(/Date: [^\r]*\r\n/g, '');

describe("the site's server with the held front (decision 030)", () => {
  const PUBLIC = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=0, s-maxage=30', etag: '"n1"' };
  const started: { server: http.Server; dir: string }[] = [];
  afterEach(async () => {
    publicAnswers.clear();
    for (const { server, dir } of started.splice(0)) {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A serving server whose app answers `app <url>`, with /news held; `front: false` is the way without the front. */
  async function start(front: boolean) {
    const dir = mkdtempSync(join(tmpdir(), 'held-front-'));
    const reached: string[] = [];
    const server = servingServer(
      (req, res) => {
        reached.push(`${req.method} ${req.url}`);
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(4 + req.url!.length) }).end(`app ${req.url}`);
      },
      dir,
      { concurrency: 2, front },
    );
    started.push({ server, dir });
    // What reached Node's HTTP server at all, held or not.
    const parsed: string[] = [];
    server.on('request', (req: http.IncomingMessage) => parsed.push(req.url!));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    for (const cookie of [null, 'lang=en']) {
      const key = answerKey({ cookie, forwardedProto: null, host: `127.0.0.1:${port}`, path: '/news' })!;
      await publicAnswers.get(
        key,
        new Request(`http://127.0.0.1:${port}/news`, { headers: { 'accept-encoding': 'identity' } }),
        async () => new Response(cookie ? 'News, held' : 'held news, uk', { headers: PUBLIC }),
      );
    }
    return { server, port, reached, parsed };
  }

  const get = (port: number, path: string, extra: string[] = []) => head([`GET ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...extra]);

  it("writes a held answer byte for byte as Node's server would, 200 and 304 alike, and the app never hears of it", async () => {
    const asks = (port: number) => [
      get(port, '/news', ['Accept-Encoding: identity']),
      get(port, '/news', ['Accept-Encoding: identity', 'Cookie: lang=en']),
      get(port, '/news', ['Accept-Encoding: identity', 'If-None-Match: "n1"']),
    ];
    const front = await start(true);
    const node = await start(false);
    const [byFront, byNode] = await Promise.all([converse(front.port, asks(front.port), 3), converse(node.port, asks(node.port), 3)]);
    expect(withoutDate(byFront)).toBe(withoutDate(byNode));
    expect(byFront).toContain('Connection: keep-alive\r\nKeep-Alive: timeout=65\r\n');
    expect(byFront).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*News, held[\s\S]*HTTP\/1\.1 304 Not Modified\r\n/);
    expect(byFront).toMatch(/Date: \w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT\r\n/);
    expect(front.parsed).toEqual([]);
    expect(node.parsed).toEqual(['/news', '/news', '/news']);
    expect([...front.reached, ...node.reached]).toEqual([]);
  });

  it("sends the connection on to Node's server at the first request it does not answer, and Node serves the rest in order", async () => {
    const { port, reached, parsed } = await start(true);
    const text = await converse(
      port,
      [
        get(port, '/news', ['Accept-Encoding: identity']),
        get(port, '/tournaments'),
        head(['POST /news HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Length: 0']),
        get(port, '/news', ['Accept-Encoding: identity']),
      ],
      4,
    );
    const statuses = [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);
    expect(statuses).toEqual(['200', '200', '405', '200']);
    expect(text.indexOf('app /tournaments')).toBeGreaterThan(text.indexOf('held news, uk'));
    expect(text.lastIndexOf('held news, uk')).toBeGreaterThan(text.indexOf('app /tournaments'));
    expect(reached).toEqual(['GET /tournaments']);
    expect(parsed).toEqual(['/tournaments', '/news', '/news']);
  });

  it("has Node's server read a head that came in pieces, and two requests sent together, in order", async () => {
    const { port } = await start(true);
    const whole = get(port, '/news', ['Accept-Encoding: identity']);
    const pieces = await converse(port, [whole.subarray(0, 10), whole.subarray(10)], 1, { trickleMs: 30 });
    expect(pieces).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*held news, uk$/);
    const together = await converse(port, [Buffer.concat([whole, get(port, '/tournaments')])], 2);
    expect(together.indexOf('app /tournaments')).toBeGreaterThan(together.indexOf('held news, uk'));
  });

  it("closes a connection that sends nothing within the request timeout, as Node's server does", async () => {
    const { server, port } = await start(true);
    server.requestTimeout = 300;
    const socket = net.connect(port, '127.0.0.1');
    const began = Date.now();
    await new Promise((done) => socket.on('close', done).on('error', () => {}));
    expect(Date.now() - began).toBeLessThan(3000);
  });

  it('closes its idle connections with the server, and after the keep-alive time', async () => {
    const { server, port } = await start(true);
    server.keepAliveTimeout = 300;
    const socket = net.connect(port, '127.0.0.1');
    const closed = new Promise<number>((done) => socket.on('close', () => done(Date.now())));
    socket.on('data', () => {});
    socket.write(get(port, '/news', ['Accept-Encoding: identity']));
    const began = Date.now();
    expect((await closed) - began).toBeLessThan(3000);
    // An idle one goes when the server closes: close() does not wait out its keep-alive.
    server.keepAliveTimeout = 60_000;
    const idle = net.connect(port, '127.0.0.1');
    idle.on('data', () => {});
    await new Promise((done) => idle.once('connect', done));
    idle.write(get(port, '/news', ['Accept-Encoding: identity']));
    await new Promise((done) => idle.once('data', done));
    const closing = Date.now();
    await new Promise((done) => server.close(done));
    rmSync(started.pop()!.dir, { recursive: true, force: true });
    expect(Date.now() - closing).toBeLessThan(2000);
  });
});
