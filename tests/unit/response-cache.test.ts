import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as CompressionModule from '../../src/server/serving/compression.ts';
import {
  answerKey,
  type CachedAnswer,
  ENTRY_OVERHEAD_BYTES,
  HELD_QUERY_PARAMETERS,
  MAX_HELD_ANSWERS,
  MAX_HELD_BYTES,
  PUBLIC_ANSWER_TTL_MS,
  RENDER_AGAIN,
  ResponseCache,
  OUT_OF_DATE_GRACE_MS,
  STALE_MAX_MS,
  STALE_REFRESH_MS,
  wantsFresh,
  WROTE_COOKIE,
} from '../../src/server/serving/response-cache.ts';

/** Holds every compression made while `hold` is set (one test needs a write to come in the middle of one). */
const compressing = vi.hoisted(() => ({ hold: null as Promise<void> | null, calls: 0 }));
vi.mock('../../src/server/serving/compression.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof CompressionModule>();
  return {
    ...actual,
    compress: async (...args: Parameters<typeof actual.compress>) => {
      compressing.calls++;
      if (compressing.hold) await compressing.hold;
      return actual.compress(...args);
    },
  };
});

const get = (headers: Record<string, string> = {}) => new Request('http://arena.test/tournaments', { headers });

/** The answer `lookup` sent from memory: a test that reads one was not sent on to render it again. */
function sent(answer: ReturnType<ResponseCache['lookup']>): CachedAnswer | undefined {
  expect(answer).not.toBe(RENDER_AGAIN);
  return answer === RENDER_AGAIN ? undefined : answer;
}
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

  it('keeps separate answers per key, and no more of them than allowed, the oldest going first', async () => {
    const cache = new ResponseCache(5000, { maxEntries: 2 });
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
    const held = sent(cache.lookup('k', 'gzip, deflate, br', null));
    const headers = new Headers(Object.fromEntries(Array.from({ length: (held?.headers.length ?? 0) / 2 }, (_, i) => [held!.headers[2 * i], held!.headers[2 * i + 1]])));
    expect(held?.status).toBe(200);
    expect(headers.get('content-encoding')).toBe('br');
    expect(Number(headers.get('content-length'))).toBe(held?.body?.byteLength);
    expect(held!.body!.byteLength).toBeLessThan(Buffer.byteLength(page) / 10);
    // Not yet made for gzip-only clients: they go the long way once, which makes it.
    expect(cache.lookup('k', 'gzip', null)).toBeUndefined();
    await cache.get('k', get({ 'accept-encoding': 'gzip' }), render);
    expect(cache.lookup('k', 'gzip', null)).toMatchObject({ status: 200 });
    const notModified = cache.lookup('k', 'br', 'W/"v1"');
    expect(notModified).toMatchObject({ status: 304, body: null });
    // No Content-Length on a 304 (from memory or through the middleware): some clients wait for those bytes.
    expect(sent(notModified)!.headers.map((h) => h.toLowerCase())).not.toContain('content-length');
    expect(sent(notModified)!.headers).toContain('etag');
    const through = await cache.get('k', get({ 'accept-encoding': 'br', 'if-none-match': '"v1"' }), render);
    expect(through.status).toBe(304);
    expect(through.headers.has('content-length')).toBe(false);
  });

  it('lets go of the uncompressed body once a compressed copy is held, and unpacks it for other encodings', async () => {
    const pages = Object.fromEntries(['a', 'b'].map((key) => [key, `турнір ${key} `.repeat(2000)]));
    // 40 KB holds one uncompressed page (30 KB) or both brotli copies, not two uncompressed pages.
    const cache = new ResponseCache(5000, { maxBytes: 40 * 1024 });
    let renders = 0;
    const render = (key: string) => async () => {
      renders++;
      return new Response(pages[key], { headers: { 'cache-control': PUBLIC, 'content-type': 'text/html' } });
    };
    for (const key of ['a', 'b']) await cache.get(key, get({ 'accept-encoding': 'br' }), render(key));
    expect(cache.lookup('a', 'br', null)).toMatchObject({ status: 200 });
    expect(cache.lookup('b', 'br', null)).toMatchObject({ status: 200 });
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
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    // That one request is on its way to the middleware (perhaps waiting its turn): the rest still get the held copy.
    expect(new TextDecoder().decode(sent(cache.lookup('k', null, null))?.body ?? undefined)).toBe('версія 1');
    const refreshing = cache.get('k', get(), render);
    await vi.advanceTimersByTimeAsync(0);
    // Others still get the held copy, from the fast path and the middleware alike.
    expect(new TextDecoder().decode(sent(cache.lookup('k', null, null))?.body ?? undefined)).toBe('версія 1');
    expect(await (await cache.get('k', get(), render)).text()).toBe('версія 1');
    finish?.();
    expect(await (await refreshing).text()).toBe('версія 2');
    vi.advanceTimersByTime(3000);
    expect(await (await cache.get('k', get(), render)).text()).toBe('версія 2');
  });

  it('keeps the compressed copies when a refresh renders the answer under the same ETag, and compresses anew when it changed', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache(5000);
    let tag = '"v1"';
    const render = async () => new Response(`етап ${tag} `.repeat(500), { headers: { 'cache-control': PUBLIC, 'content-type': 'application/json', etag: tag } });
    const first = await cache.get('k', get({ 'accept-encoding': 'br' }), render);
    const firstBody = new Uint8Array(await first.arrayBuffer());
    const heldBody = sent(cache.lookup('k', 'br', null))!.body!;
    vi.advanceTimersByTime(4200);
    expect(cache.lookup('k', 'br', null)).toMatchObject({ renderAgain: true }); // this request's sender has it rendered again
    await cache.get('k', get({ 'accept-encoding': 'br' }), render);
    // Same ETag: the very copy held before is sent, not a fresh compression of the same bytes.
    expect(sent(cache.lookup('k', 'br', null))!.body).toBe(heldBody);
    tag = '"v2"';
    vi.advanceTimersByTime(4200);
    expect(cache.lookup('k', 'br', null)).toMatchObject({ renderAgain: true });
    const changed = await cache.get('k', get({ 'accept-encoding': 'br' }), render);
    expect(changed.headers.get('etag')).toBe('"v2"');
    expect(new Uint8Array(await changed.arrayBuffer())).not.toEqual(firstBody);
    expect(cache.lookup('k', 'br', '"v2"')).toMatchObject({ status: 304 });
  });

  it('keys an answer by language, protocol, host and path, from the raw header values', () => {
    const base = { cookie: 'theme=dark; lang=en', forwardedProto: null, host: 'arena.test', path: '/news?page=1' };
    expect(answerKey(base)).toBe(answerKey({ ...base, cookie: 'lang=en; other=1' }));
    for (const other of [{ cookie: 'lang=uk' }, { cookie: null }, { forwardedProto: 'https' }, { host: 'other.test' }, { path: '/news?page=2' }]) {
      expect(answerKey({ ...base, ...other })).not.toBe(answerKey(base));
    }
    // A language the site does not have is served, and so held, as Ukrainian: junk cookies make no extra copies.
    expect(answerKey({ ...base, cookie: 'lang=xx' })).toBe(answerKey({ ...base, cookie: null }));
  });

  it('holds no share card: the picture cache has them, and a flood of `?v=` would push every page out', () => {
    const key = (path: string) => answerKey({ cookie: null, forwardedProto: null, host: 'arena.test', path });
    const id = '00000000-0000-4000-8000-000000000000';
    for (const path of [`/api/og/tournament/${id}.png`, `/api/og/match/${id}.png?lang=uk`, `/api/og/news/${id}.png?lang=en&v=7`, `/api/og/player/${id}.png?v=x1`]) {
      expect(key(path), path).toBeUndefined();
    }
    // `v` is no page's parameter either, so it makes no new entries anywhere.
    expect(key('/news?v=1')).toBeUndefined();
    expect(key('/news?page=2')).toBeDefined();
  });

  it('forgets only the answers whose path a write changed, and keeps no render of those under way', async () => {
    const cache = new ResponseCache(5000);
    const key = (path: string) => answerKey({ cookie: null, forwardedProto: null, host: 'arena.test', path })!;
    const { render, calls } = renderer();
    await cache.get(key('/a'), get(), render);
    await cache.get(key('/b'), get(), render);
    let finish!: () => void;
    const slow = () => new Promise<Response>((resolve) => (finish = () => resolve(new Response('стара', { headers: { 'cache-control': PUBLIC } }))));
    const inFlight = cache.get(key('/b/slow'), get(), slow);
    cache.forget((path) => path.startsWith('/b'));
    finish();
    expect(await (await inFlight).text()).toBe('стара');
    expect(cache.lookup(key('/a'), null, null)).toMatchObject({ status: 200 });
    expect(cache.lookup(key('/b'), null, null)).toBeUndefined();
    expect(cache.lookup(key('/b/slow'), null, null)).toBeUndefined();
    await cache.get(key('/a'), get(), render);
    expect(calls()).toBe(2);
  });

  it('keeps no answer whose body was still arriving when a write changed its path', async () => {
    const cache = new ResponseCache(5000);
    const key = answerKey({ cookie: null, forwardedProto: null, host: 'arena.test', path: '/slow-body' })!;
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


/** What the API sends with a guest's public read (server/api/app.ts, caching.ts): a dozen headers. */
const API_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'public, max-age=0, s-maxage=30, stale-while-revalidate=60',
  vary: 'Authorization, Cookie',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-site',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

/** A collection that leaves only what is reachable, so heap figures compare. */
function collect(): number {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('ResponseCache: answers a write made out of date (decision 019)', () => {
  const text = async (response: Response) => response.text();
  const bodyOf = (answer: ReturnType<ResponseCache['lookup']>) => {
    const body = sent(answer)?.body;
    return body ? Buffer.from(body).toString() : undefined;
  };
  const held = async (cache: ResponseCache, render: () => Promise<Response>) => {
    await cache.get('k', get(), render);
  };

  it('keeps serving the copy to other readers, and sends one request on to render it, at most once per STALE_REFRESH_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render, calls } = renderer();
    await held(cache, render);
    cache.markStale(() => true);
    // Rendered a moment ago: the next second's readers all get that copy.
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    // That one request's sender has it rendered; everyone else meanwhile keeps the copy, and renders nothing.
    expect(sent(cache.lookup('k', null, null))?.renderAgain).toBeUndefined();
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    expect(await text(await cache.get('k', get(), render))).toBe('сторінка 2');
    expect(calls()).toBe(2);
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 2');
  });

  it('asks each write only about the answers no write has marked yet', async () => {
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render } = renderer();
    await held(cache, render);
    const asked: string[] = [];
    cache.markStale((path) => (asked.push(path), true));
    cache.markStale((path) => (asked.push(path), true));
    expect(asked).toHaveLength(1);
    // Rendered again, it is asked about again.
    await cache.get('k', get(), render);
    cache.markStale((path) => (asked.push(path), false));
    expect(asked).toHaveLength(2);
  });

  it('sends the one reader it has no copy for in its encoding on to render it itself (RENDER_AGAIN)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render } = renderer();
    await held(cache, render);
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    // Held uncompressed only: a brotli reader goes the long way, and that render is the one that refreshes it.
    expect(cache.lookup('k', 'br', null)).toBe(RENDER_AGAIN);
    expect(sent(cache.lookup('k', null, null))?.renderAgain).toBeUndefined();
    expect(cache.lookup('k', 'br', null)).toBeUndefined();
  });

  it('never hands it to a reader who wants a fresh answer; past STALE_MAX_MS only while its render is under way, and never past OUT_OF_DATE_GRACE_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render, calls } = renderer();
    await held(cache, render);
    cache.markStale(() => true);
    expect(cache.lookup('k', null, null, true)).toBeUndefined();
    expect(await text(await cache.get('k', get({ 'cache-control': 'no-cache' }), render))).toBe('сторінка 2');
    expect(calls()).toBe(2);
    // The fresh render is held as an up-to-date copy, for everyone.
    expect(bodyOf(cache.lookup('k', null, null, true))).toBe('сторінка 2');
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    // Its render waits in a busy line: the copy is still handed out, to the end of the grace.
    vi.advanceTimersByTime(OUT_OF_DATE_GRACE_MS - STALE_REFRESH_MS);
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 2');
    vi.advanceTimersByTime(1);
    expect(cache.lookup('k', null, null)).toBeUndefined();
    expect(cache.lookup('k', null, null)).toBeUndefined();
  });

  it('hands a copy nobody read since the write out for STALE_MAX_MS, and one whose render ended without replacing it no longer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render } = renderer();
    await held(cache, render);
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_MAX_MS + 1);
    // No render was asked for: a change a few seconds old is not hidden from a page read now and then.
    expect(cache.lookup('k', null, null)).toBeUndefined();
    expect(await text(await cache.get('k', get(), render))).toBe('сторінка 2');
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    vi.advanceTimersByTime(STALE_MAX_MS);
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 2');
    // That render failed (a database down, a render shed by a full line): the copy goes.
    cache.refreshEnded('k');
    expect(cache.lookup('k', null, null)).toBeUndefined();
  });

  it('sends one request at a time on to render an out-of-date copy again, and another once that one has ended without replacing it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    await held(cache, renderer().render);
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    // While it is under way, nobody else is sent: they get the copy.
    expect(sent(cache.lookup('k', null, null))?.renderAgain).toBeUndefined();
    cache.refreshEnded('k');
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    expect(sent(cache.lookup('k', null, null))?.renderAgain).toBeUndefined();
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
  });

  it('counts STALE_MAX_MS of a render that began before a write and came back after it from its making', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    let finish!: () => void;
    const slow = () => new Promise<Response>((resolve) => (finish = () => resolve(new Response('сторінка 1', { headers: { 'cache-control': PUBLIC } }))));
    const rendering = cache.get('k', get(), slow);
    await vi.waitFor(() => expect(finish).toBeTypeOf('function'));
    cache.markStale(() => true);
    // It waited in a busy line for longer than STALE_MAX_MS after the write.
    vi.advanceTimersByTime(STALE_MAX_MS + 2000);
    finish();
    await rendering;
    // Out of date, but newer than any copy before it: handed out, and sent on to be rendered again.
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
  });

  it('hands out an answer past its time as such a copy while one request renders it again, and not past OUT_OF_DATE_GRACE_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(5000);
    const { render, calls } = renderer();
    await held(cache, render);
    vi.advanceTimersByTime(5000);
    // One request renders it again; the readers who come meanwhile keep the copy instead of queueing for that render.
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    // Not to a reader who wants a fresh answer.
    expect(cache.lookup('k', null, null, true)).toBeUndefined();
    expect(await text(await cache.get('k', get(), render))).toBe('сторінка 2');
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 2');
    expect(calls()).toBe(2);
    // A render that never came back: its copy goes OUT_OF_DATE_GRACE_MS past its time.
    vi.advanceTimersByTime(5000);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    vi.advanceTimersByTime(OUT_OF_DATE_GRACE_MS);
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 2');
    vi.advanceTimersByTime(1);
    expect(cache.lookup('k', null, null)).toBeUndefined();
  });

  it('counts the grace of a copy past its time that a write then marked from whichever came first', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(5000);
    await held(cache, renderer().render);
    vi.advanceTimersByTime(6000);
    expect(cache.lookup('k', null, null)).toMatchObject({ renderAgain: true });
    cache.markStale(() => true);
    // Its time ended 1 s ago: the write a moment later gives it no longer.
    vi.advanceTimersByTime(OUT_OF_DATE_GRACE_MS - 1000);
    expect(bodyOf(cache.lookup('k', null, null))).toBe('сторінка 1');
    vi.advanceTimersByTime(1);
    expect(cache.lookup('k', null, null)).toBeUndefined();
  });

  it('keeps handing out the copy a render replaces until the new answer is compressed the way its request takes it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    // Large enough to be compressed off the thread (compression.ts), which takes turns of the loop.
    const page = (n: number) => `турнір ${n} `.repeat(8000);
    let n = 0;
    const render = async () => {
      n++;
      return new Response(page(n), { headers: { 'cache-control': PUBLIC, 'content-type': 'text/html', etag: `"v${n}"` } });
    };
    await cache.get('k', get({ 'accept-encoding': 'br' }), render);
    cache.markStale(() => true);
    vi.advanceTimersByTime(STALE_REFRESH_MS);
    expect(cache.lookup('k', 'br', null)).toMatchObject({ renderAgain: true });
    let done = false;
    const rendering = cache.get('k', get({ 'accept-encoding': 'br' }), render).finally(() => (done = true));
    // Every reader while it renders and compresses gets a copy from memory: the old one, then the new.
    const seen: (string | undefined)[] = [];
    while (!done) {
      const answer = sent(cache.lookup('k', 'br', null));
      seen.push(answer?.headers[answer.headers.findIndex((name) => name.toLowerCase() === 'etag') + 1]);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect((await rendering).status).toBe(200);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.every((tag) => tag === '"v1"' || tag === '"v2"')).toBe(true);
    expect(sent(cache.lookup('k', 'br', null))?.headers).toContain('"v2"');
  });

  it('holds a render as out of date when a write came while it was being compressed', async () => {
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    let release!: () => void;
    compressing.hold = new Promise((resolve) => (release = resolve));
    const before = compressing.calls;
    const answer = cache.get('k', get({ 'accept-encoding': 'br' }), renderer().render);
    await vi.waitFor(() => expect(compressing.calls).toBe(before + 1));
    cache.markStale(() => true);
    compressing.hold = null;
    release();
    expect((await answer).status).toBe(200);
    // Held, but not for a reader who wants a fresh answer: that reader renders it again.
    expect(cache.lookup('k', 'br', null, true)).toBeUndefined();
    expect(cache.lookup('k', 'br', null)).toMatchObject({ status: 200 });
  });

  it('marks only the paths a write changed', async () => {
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    const { render } = renderer();
    await cache.get('/a x', get(), render);
    await cache.get('/b x', get(), render);
    cache.markStale((path) => path === '/b');
    expect(cache.lookup('/a x', null, null, true)).toMatchObject({ status: 200 });
    expect(cache.lookup('/b x', null, null, true)).toBeUndefined();
  });

  it('keeps a render that began before the write as out of date, and does not give it to a reader who wants a fresh answer', async () => {
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    let finish!: () => void;
    const slow = () => new Promise<Response>((resolve) => (finish = () => resolve(new Response('до запису', { headers: { 'cache-control': PUBLIC } }))));
    const before = cache.get('k', get(), slow);
    cache.markStale(() => true);
    const { render, calls } = renderer();
    // A reader who wants a fresh answer does not join the render under way: it renders its own.
    const fresh = cache.get('k', get({ pragma: 'no-cache' }), render);
    expect(await text(await fresh)).toBe('сторінка 1');
    expect(calls()).toBe(1);
    finish();
    expect(await text(await before)).toBe('до запису');
    // The older render ended last but began first: the fresh answer stays held, up to date.
    expect(bodyOf(cache.lookup('k', null, null, true))).toBe('сторінка 1');
  });

  it('knows a reader who wants a fresh answer: a reload, a live page\'s no-store read, the writer of a change', () => {
    const headers = (h: Record<string, string>) => (name: string) => h[name];
    expect(wantsFresh(headers({}))).toBe(false);
    expect(wantsFresh(headers({ cookie: 'lang=en' }))).toBe(false);
    expect(wantsFresh(headers({ 'cache-control': 'no-cache' }))).toBe(true);
    expect(wantsFresh(headers({ 'cache-control': 'max-age=0' }))).toBe(true);
    expect(wantsFresh(headers({ pragma: 'no-cache' }))).toBe(true);
    expect(wantsFresh(headers({ cookie: `lang=en; ${WROTE_COOKIE}=1` }))).toBe(true);
    expect(wantsFresh(headers({ cookie: `x${WROTE_COOKIE}=1` }))).toBe(false);
  });
});

describe('ResponseCache under a flood of distinct guest addresses', () => {
  const keyOf = (path: string) => answerKey({ cookie: null, forwardedProto: null, host: '127.0.0.1:4321', path });
  const asBrowser = new Request('http://arena.test/', { headers: { 'accept-encoding': 'gzip, deflate, br' } });

  it('holds an address with a parameter no page reads not at all, and keys the rest by the parameters they take', () => {
    expect(keyOf('/api/tournaments?offset=100000&r=1')).toBeUndefined();
    expect(keyOf('/news?utm_source=x')).toBeUndefined();
    expect(keyOf('/news?&page=2')).toBeUndefined();
    expect(keyOf('/news?view=archive&page=2')).toMatch(/^\/news\?view=archive&page=2 /);
    expect(keyOf('/leaderboards?game=x&tab=teams&sort=wins')).toBeDefined();
    // An empty query is the page itself.
    expect(keyOf('/news?')).toBe(keyOf('/news'));
  });

  it('never holds more than its entry and byte bounds through 50 000 addresses, and the heap stays flat', async () => {
    // The bounds the server's own cache has.
    const cache = new ResponseCache(PUBLIC_ANSWER_TTL_MS);
    let most = { entries: 0, bytes: 0 };
    let baseline = 0;
    let grown = 0;
    for (let i = 0; i < 50_000; i++) {
      // The offset is a parameter the list takes, so every one of these is held: the bounds do the work.
      const key = keyOf(`/api/tournaments?offset=${100_000 + i}`)!;
      const etag = `W/"${i.toString(16).padStart(40, '0')}"`;
      const answer = await cache.get(key, asBrowser, async () => new Response('[]', { headers: { ...API_HEADERS, etag } }));
      if (answer.status !== 200) throw new Error(`answer ${i}: ${answer.status}`);
      if (i % 100 === 0) {
        const { entries, bytes } = cache.stats();
        most = { entries: Math.max(most.entries, entries), bytes: Math.max(most.bytes, bytes) };
      }
      // Measured while the cache is in use (after its last use, it could be collected whole).
      if (i === 9_999) baseline = collect();
      if (i === 49_999) grown = collect() - baseline;
    }
    // Full since the 2000th address: 40 000 more leave the heap where it was (each entry is about 4 KB).
    expect(grown).toBeLessThan(4 * 1024 * 1024);
    expect(most.entries).toBeLessThanOrEqual(MAX_HELD_ANSWERS);
    expect(most.bytes).toBeLessThanOrEqual(MAX_HELD_BYTES);
    expect(cache.stats()).toMatchObject({ entries: MAX_HELD_ANSWERS, pending: 0, inFlight: 0 });
  }, 60_000);

  it('counts what an entry really costs, so tiny answers fill the byte bound too', async () => {
    // 100 empty answers with the API's headers: each counts at least ENTRY_OVERHEAD_BYTES.
    const cache = new ResponseCache(5000, { maxBytes: 50 * ENTRY_OVERHEAD_BYTES });
    for (let i = 0; i < 100; i++) await cache.get(keyOf(`/api/news?offset=${i}`)!, asBrowser, async () => new Response('[]', { headers: API_HEADERS }));
    expect(cache.stats().entries).toBeLessThan(50);
    expect(cache.stats().bytes).toBeLessThanOrEqual(50 * ENTRY_OVERHEAD_BYTES);
  });

  it('ends the answers rendered together at times spread over the last part of their time (ttlSpread)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cache = new ResponseCache(8000, { ttlSpread: 0.25 });
    const keys = Array.from({ length: 200 }, (_, i) => `k${i}`);
    for (const key of keys) await cache.get(key, get(), renderer().render);
    // A reader who wants a fresh answer gets one only while it is in its time.
    const inTime = () => keys.filter((key) => cache.lookup(key, null, null, true) !== undefined).length;
    vi.advanceTimersByTime(6000 - 1);
    expect(inTime()).toBe(200);
    vi.advanceTimersByTime(1001);
    const left = inTime();
    expect(left).toBeGreaterThan(20);
    expect(left).toBeLessThan(180);
    vi.advanceTimersByTime(1000);
    expect(inTime()).toBe(0);
    // Every other reader still gets the copy while it is rendered again.
    expect(keys.filter((key) => cache.lookup(key, null, null) !== undefined)).toHaveLength(200);
  });

  it('drops expired answers from memory, not only from view', async () => {
    vi.useFakeTimers();
    const cache = new ResponseCache(5000);
    for (let i = 0; i < 10; i++) await cache.get(`k${i}`, get(), renderer().render);
    expect(cache.stats().entries).toBe(10);
    // Past its time an answer is still handed out for OUT_OF_DATE_GRACE_MS while it is rendered again; then it goes.
    vi.advanceTimersByTime(5000 + OUT_OF_DATE_GRACE_MS + 1);
    expect(cache.lookup('k0', null, null)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('keeps its maps of renders under way bounded, and empty once they end, failed ones included', async () => {
    const cache = new ResponseCache(5000);
    const finishers: (() => void)[] = [];
    const hanging = () => new Promise<Response>((resolve) => finishers.push(() => resolve(new Response('x', { headers: { 'cache-control': PUBLIC } }))));
    const answers = Array.from({ length: 400 }, (_, i) => cache.get(`slow${i}`, get(), hanging));
    await vi.waitFor(() => expect(finishers).toHaveLength(400));
    expect(cache.stats().pending).toBeLessThanOrEqual(256);
    expect(cache.stats().inFlight).toBeLessThanOrEqual(256);
    for (const finish of finishers) finish();
    expect((await Promise.all(answers)).every((answer) => answer.status === 200)).toBe(true);
    const failed = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => cache.get(`bad${i}`, get(), () => Promise.reject(new Error('down')))));
    expect(failed.every((result) => result.status === 'rejected')).toBe(true);
    expect(cache.stats()).toMatchObject({ pending: 0, inFlight: 0 });
    // Renders past the shared ones were answered but not held.
    expect(cache.stats().entries).toBeLessThanOrEqual(256);
  });
});

describe('HELD_QUERY_PARAMETERS', () => {
  it('names every query parameter of the public API reads, so their answers are held', async () => {
    const [{ createApp }, { isPublicRead }] = await Promise.all([import('../../src/server/api/app.ts'), import('../../src/server/api/caching.ts')]);
    const document = createApp({} as never).getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'test', version: '1' } }) as unknown as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
    };
    const taken = Object.entries(document.paths).flatMap(([path, methods]) =>
      isPublicRead(path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000'))
        ? (methods.get?.parameters ?? []).filter((p) => p.in === 'query').map((p) => `${path} ${p.name}`)
        : [],
    );
    expect(taken.length).toBeGreaterThan(5);
    expect(taken.filter((entry) => !HELD_QUERY_PARAMETERS.has(entry.split(' ')[1]!))).toEqual([]);
    // It loads the whole API (every route and service) for the first time in this file: on a busy
    // two-core machine that alone took more than the unit tests' 5 s.
  }, 30_000);
});
