import { afterEach, describe, expect, it, vi } from 'vitest';
import { ResponseCache } from '../../src/server/response-cache.ts';

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
});
