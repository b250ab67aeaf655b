import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerKey, ResponseCache } from '../../src/server/response-cache.ts';

const get = (headers: Record<string, string> = {}) => new Request('http://arena.test/tournaments', { headers });
const PUBLIC = 'public, max-age=0, s-maxage=30';

/** A render that counts its calls and answers `body` with `cacheControl`. */
function renderer(cacheControl = PUBLIC, status = 200, extra: Record<string, string> = {}) {
  let calls = 0;
  const render = async () => {
    calls++;
    return new Response(`сторінка ${calls}`, { status, headers: { 'cache-control': cacheControl, 'content-type': 'text/html', ...extra } });
  };
  return { render, calls: () => calls };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ResponseCache', () => {
  it('renders a public answer once and serves it until it expires', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache(5000);
    const { render, calls } = renderer();
    expect(await (await cache.get('k', get(), render)).text()).toBe('сторінка 1');
    expect(await (await cache.get('k', get(), render)).text()).toBe('сторінка 1');
    expect(calls()).toBe(1);
    vi.advanceTimersByTime(5001);
    expect(await (await cache.get('k', get(), render)).text()).toBe('сторінка 2');
  });

  it('never keeps what its own Cache-Control keeps private, errors or answers that must be revalidated', async () => {
    for (const [cacheControl, status] of [['private, no-store', 200], ['public, no-cache', 200], ['no-store', 200], [PUBLIC, 503], ['', 200]] as const) {
      const cache = new ResponseCache(5000);
      const { render, calls } = renderer(cacheControl, status);
      await cache.get('k', get(), render);
      await cache.get('k', get(), render);
      expect(calls(), `${cacheControl} ${status}`).toBe(2);
    }
  });

  it('renders once for a burst of simultaneous requests', async () => {
    const cache = new ResponseCache(5000);
    const { render, calls } = renderer();
    const bodies = await Promise.all(Array.from({ length: 20 }, async () => (await cache.get('k', get(), render)).text()));
    expect(new Set(bodies)).toEqual(new Set(['сторінка 1']));
    expect(calls()).toBe(1);
  });

  it('shares an answer it will not keep among the requests of one burst, but not with a different If-None-Match', async () => {
    const cache = new ResponseCache(5000);
    const { render, calls } = renderer('no-store', 503);
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.get('k', get(), render)));
    expect(answers.map((a) => a.status)).toEqual([503, 503, 503, 503, 503]);
    expect(calls()).toBe(1);
    await Promise.all([cache.get('k', get(), render), cache.get('k', get({ 'if-none-match': '"x"' }), render)]);
    expect(calls()).toBe(3);
  });

  it('forgets everything when data changes, including a render that was under way', async () => {
    const cache = new ResponseCache(5000);
    const { render, calls } = renderer();
    await cache.get('k', get(), render);
    cache.clear();
    expect(await (await cache.get('k', get(), render)).text()).toBe('сторінка 2');

    let finish!: () => void;
    const slow = () => new Promise<Response>((resolve) => (finish = () => resolve(new Response('стара', { headers: { 'cache-control': PUBLIC } }))));
    const inFlight = cache.get('slow', get(), slow);
    cache.clear();
    finish();
    expect(await (await inFlight).text()).toBe('стара');
    // Rendered before the write finished: handed out once, not kept.
    expect(await (await cache.get('slow', get(), async () => new Response('нова', { headers: { 'cache-control': PUBLIC } }))).text()).toBe('нова');
    expect(calls()).toBe(2);
  });

  it('answers 304 to a request that holds the cached ETag', async () => {
    const cache = new ResponseCache(5000);
    const { render } = renderer(PUBLIC, 200, { etag: '"v1"' });
    await cache.get('k', get(), render);
    expect((await cache.get('k', get({ 'if-none-match': 'W/"v1"' }), render)).status).toBe(304);
    expect((await cache.get('k', get({ 'if-none-match': '"v0"' }), render)).status).toBe(200);
  });

  it('keeps separate answers per key, and no more bytes than allowed, the oldest going first', async () => {
    // Each body is 'сторінка N': 18 bytes in UTF-8, so 40 bytes hold two.
    const cache = new ResponseCache(5000, 40);
    const { render, calls } = renderer();
    for (const key of ['a', 'b', 'c']) await cache.get(key, get(), render);
    await cache.get('c', get(), render);
    expect(calls()).toBe(3);
    await cache.get('a', get(), render);
    expect(calls()).toBe(4);
  });

  it('hands the fast path an answer only once it is held and compressed the way the request takes it', async () => {
    const cache = new ResponseCache(5000);
    const page = 'турнір '.repeat(400);
    const render = async () => new Response(page, { headers: { 'cache-control': PUBLIC, 'content-type': 'text/html', etag: '"v1"' } });
    expect(cache.lookup('k', 'br', null)).toBeUndefined();
    await cache.get('k', get({ 'accept-encoding': 'br' }), render);
    const held = cache.lookup('k', 'gzip, deflate, br', null);
    const headers = new Headers(Object.fromEntries(Array.from({ length: (held?.headers.length ?? 0) / 2 }, (_, i) => [held!.headers[2 * i], held!.headers[2 * i + 1]])));
    expect(held?.status).toBe(200);
    expect(headers.get('content-encoding')).toBe('br');
    expect(Number(headers.get('content-length'))).toBe(held?.body?.byteLength);
    expect(held!.body!.byteLength).toBeLessThan(Buffer.byteLength(page) / 10);
    // Not yet made for gzip-only clients: they go the long way once, which makes it.
    expect(cache.lookup('k', 'gzip', null)).toBeUndefined();
    await cache.get('k', get({ 'accept-encoding': 'gzip' }), render);
    expect(cache.lookup('k', 'gzip', null)?.status).toBe(200);
    expect(cache.lookup('k', 'br', 'W/"v1"')).toMatchObject({ status: 304, body: null });
  });

  it('lets go of the uncompressed body once a compressed copy is held, and unpacks it for other encodings', async () => {
    const pages = Object.fromEntries(['a', 'b'].map((key) => [key, `турнір ${key} `.repeat(2000)]));
    // 40 KB holds one uncompressed page (30 KB) or both brotli copies, not two uncompressed pages.
    const cache = new ResponseCache(5000, 40 * 1024);
    let renders = 0;
    const render = (key: string) => async () => {
      renders++;
      return new Response(pages[key], { headers: { 'cache-control': PUBLIC, 'content-type': 'text/html' } });
    };
    for (const key of ['a', 'b']) await cache.get(key, get({ 'accept-encoding': 'br' }), render(key));
    expect(cache.lookup('a', 'br', null)?.status).toBe(200);
    expect(cache.lookup('b', 'br', null)?.status).toBe(200);
    const plain = await cache.get('a', get(), render('a'));
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(pages.a);
    const gzipped = await cache.get('b', get({ 'accept-encoding': 'gzip' }), render('b'));
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(renders).toBe(2);
  });

  it('renders a held answer again shortly before it expires, serving the held copy meanwhile', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache(5000);
    let version = 1;
    let finish: (() => void) | undefined;
    const render = () =>
      new Promise<Response>((resolve) => {
        const body = `версія ${version++}`;
        finish = () => resolve(new Response(body, { headers: { 'cache-control': PUBLIC } }));
        if (version === 2) finish();
      });
    await cache.get('k', get(), render);
    vi.advanceTimersByTime(4200);
    expect(cache.lookup('k', null, null)).toBeUndefined();
    // That one request is on its way to the middleware (perhaps waiting its turn): the rest still get the held copy.
    expect(new TextDecoder().decode(cache.lookup('k', null, null)?.body ?? undefined)).toBe('версія 1');
    const refreshing = cache.get('k', get(), render);
    await vi.advanceTimersByTimeAsync(0);
    // Others still get the held copy, from the fast path and the middleware alike.
    expect(new TextDecoder().decode(cache.lookup('k', null, null)?.body ?? undefined)).toBe('версія 1');
    expect(await (await cache.get('k', get(), render)).text()).toBe('версія 1');
    finish?.();
    expect(await (await refreshing).text()).toBe('версія 2');
    vi.advanceTimersByTime(3000);
    expect(await (await cache.get('k', get(), render)).text()).toBe('версія 2');
  });

  it('keys an answer by language, protocol, host and path, from the raw header values', () => {
    const base = { cookie: 'theme=dark; lang=en', forwardedProto: null, host: 'arena.test', path: '/news?x=1' };
    expect(answerKey(base)).toBe(answerKey({ ...base, cookie: 'lang=en; other=1' }));
    for (const other of [{ cookie: 'lang=uk' }, { cookie: null }, { forwardedProto: 'https' }, { host: 'other.test' }, { path: '/news?x=2' }]) {
      expect(answerKey({ ...base, ...other })).not.toBe(answerKey(base));
    }
    // A language the site does not have is served, and so held, as Ukrainian: junk cookies make no extra copies.
    expect(answerKey({ ...base, cookie: 'lang=xx' })).toBe(answerKey({ ...base, cookie: null }));
  });

  it('forgets only the answers whose path a write changed, and keeps no render of those under way', async () => {
    const cache = new ResponseCache(5000);
    const key = (path: string) => answerKey({ cookie: null, forwardedProto: null, host: 'arena.test', path });
    const { render, calls } = renderer();
    await cache.get(key('/a'), get(), render);
    await cache.get(key('/b'), get(), render);
    let finish!: () => void;
    const slow = () => new Promise<Response>((resolve) => (finish = () => resolve(new Response('стара', { headers: { 'cache-control': PUBLIC } }))));
    const inFlight = cache.get(key('/b/slow'), get(), slow);
    cache.forget((path) => path.startsWith('/b'));
    finish();
    expect(await (await inFlight).text()).toBe('стара');
    expect(cache.lookup(key('/a'), null, null)?.status).toBe(200);
    expect(cache.lookup(key('/b'), null, null)).toBeUndefined();
    expect(cache.lookup(key('/b/slow'), null, null)).toBeUndefined();
    await cache.get(key('/a'), get(), render);
    expect(calls()).toBe(2);
  });

  it('keeps no answer whose body was still arriving when a write changed its path', async () => {
    const cache = new ResponseCache(5000);
    const key = answerKey({ cookie: null, forwardedProto: null, host: 'arena.test', path: '/slow-body' });
    let finishBody!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        finishBody = () => {
          controller.enqueue(new TextEncoder().encode('стара'));
          controller.close();
        };
      },
    });
    const inFlight = cache.get(key, get(), async () => new Response(body, { headers: { 'cache-control': PUBLIC } }));
    await Promise.resolve();
    cache.forget(() => true);
    finishBody();
    expect(await (await inFlight).text()).toBe('стара');
    expect(cache.lookup(key, null, null)).toBeUndefined();
  });
});

