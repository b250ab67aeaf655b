import type { APIContext, MiddlewareNext } from 'astro';
import { describe, expect, it, vi } from 'vitest';

vi.mock('astro:middleware', () => ({ defineMiddleware: <T>(handler: T) => handler }));
vi.mock('../../src/server/runtime.ts', () => ({
  getApp: async () => ({ fetch: async () => new Response('{}') }),
  getRuntime: async () => ({ env: {}, deps: { trustProxy: () => true } }),
}));

const { onRequest } = await import('../../src/middleware.ts');
const { publicAnswers, STALE_MAX_MS, WROTE_COOKIE } = await import('../../src/server/serving/answer-cache.ts');
const { changed, collectChanges, onChanges, shows } = await import('../../src/server/services/live/changes.ts');

// The runtime hears every change and tells the cache (src/server/runtime.ts); the mock above does not.
onChanges((tags) => publicAnswers.changed(tags));

const PUBLIC = { 'content-type': 'text/html', 'cache-control': 'public, max-age=0, s-maxage=30' };

interface Call {
  status?: number;
  headers?: Record<string, string>;
  requestHeaders?: Record<string, string>;
  /** What the render does besides answering: say what it shows, change data. */
  during?: () => void;
  acceptsQuery?: string[];
}

/** What Astro hands the middleware, for a request of `method` to `path`; `next` renders. */
function call(method: string, path: string, options: Call = {}) {
  const url = new URL(path, 'http://arena.test');
  const locals: Record<string, unknown> = {};
  const next = vi.fn(async () => {
    if (options.acceptsQuery) locals.acceptsQuery = options.acceptsQuery;
    options.during?.();
    return new Response(`<p>${path}</p>`, { status: options.status ?? 200, headers: options.headers ?? PUBLIC });
  });
  const init = { method, headers: options.requestHeaders ?? {}, ...(method === 'GET' || method === 'HEAD' ? {} : { body: 'x=1' }) };
  const context = { isPrerendered: false, request: new Request(url, init), url, locals, clientAddress: '127.0.0.1' };
  const response = (onRequest as unknown as (context: APIContext, next: MiddlewareNext) => Promise<Response>)(context as unknown as APIContext, next);
  return { response, next };
}

/** Whether a guest's GET of `path` is answered from memory (no render). */
async function held(path: string, requestHeaders: Record<string, string> = {}): Promise<boolean> {
  const { response, next } = call('GET', path, { requestHeaders });
  await response;
  return next.mock.calls.length === 0;
}

describe('the middleware', () => {
  it('answers a write to a page 405 without rendering it, and keeps the held answers', async () => {
    await call('GET', '/tournaments', { during: () => shows('tournaments') }).response;
    expect(await held('/tournaments')).toBe(true);
    const { response, next } = call('POST', '/tournaments');
    expect((await response).status).toBe(405);
    expect((await response).headers.get('allow')).toBe('GET, HEAD');
    expect(next).not.toHaveBeenCalled();
    expect(await held('/tournaments')).toBe(true);
  });

  it('holds a guest’s page until a write says it changed what the page shows, and no longer', async () => {
    await call('GET', '/news', { during: () => shows('news') }).response;
    await call('GET', '/leaderboards', { during: () => shows('ratings') }).response;
    expect(await held('/news')).toBe(true);
    // A write that changed other data leaves it held; one that changed the news does not.
    await collectChanges(async () => changed('ratings'));
    expect(await held('/news')).toBe(true);
    expect(await held('/leaderboards')).toBe(false);
    // Read again seconds later, as a quiet page is (a busy one keeps its copy a little longer, decision 050).
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      await collectChanges(async () => changed('news'));
      expect(await held('/news')).toBe(false);
      expect(await held('/news')).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers a page past its time from its copy and lets the render it started go on behind it (decision 050)', async () => {
    await call('GET', '/past', { during: () => shows('news') }).response;
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31_000);
      const again = { during: () => shows('news'), headers: { ...PUBLIC, 'x-made': 'again' } };
      const { response, next } = call('GET', '/past', again);
      // The copy went out (without the new render's header), and the render was asked for all the same.
      expect((await response).headers.get('x-made')).toBeNull();
      expect(next).toHaveBeenCalledOnce();
      await vi.waitFor(() => expect(publicAnswers.stats().background).toBe(0));
      // What it made is held now.
      const after = call('GET', '/past', again);
      expect((await after.response).headers.get('x-made')).toBe('again');
      expect(after.next).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a page that said nothing of what it shows to show everything', async () => {
    await call('GET', '/about').response;
    expect(await held('/about')).toBe(true);
    await collectChanges(async () => changed('news'));
    expect(await held('/about')).toBe(false);
  });

  it('sets its writer’s cookie on a successful write through the API and not on a refused one; the writer then reads past an out-of-date copy', async () => {
    const refused = await call('POST', '/api/news', { status: 400 }).response;
    expect(refused.headers.get('set-cookie')).toBeNull();
    const written = await call('POST', '/api/news', { status: 201 }).response;
    expect(written.headers.get('set-cookie')).toMatch(new RegExp(`^${WROTE_COOKIE}=1; Max-Age=\\d+; Path=/; SameSite=Lax; HttpOnly$`));
    // A page written to disk of the other kind (a page) is no API write: no cookie.
    expect((await call('POST', '/news').response).headers.get('set-cookie')).toBeNull();
  });

  it('renders, but does not hold, a read whose query names a parameter the page does not take', async () => {
    expect((await call('GET', '/news?r=1', { during: () => shows('news') }).response).status).toBe(200);
    expect(await held('/news?r=1')).toBe(false);
    await call('GET', '/news?page=2', { during: () => shows('news'), acceptsQuery: ['page', 'view'] }).response;
    expect(await held('/news?page=2')).toBe(true);
  });

  it('never holds a signed-in reader’s answer, an answer that sets a cookie, or one not public', async () => {
    const token = { authorization: 'Bearer abc' };
    await call('GET', '/signed', { requestHeaders: token }).response;
    expect(await held('/signed', token)).toBe(false);
    await call('GET', '/cookie', { headers: { ...PUBLIC, 'set-cookie': 'a=1' } }).response;
    expect(await held('/cookie')).toBe(false);
    await call('GET', '/private', { headers: { 'content-type': 'text/html', 'cache-control': 'no-store' } }).response;
    expect(await held('/private')).toBe(false);
  });

  it('keys a held page by the reader’s language and nothing else the client sends', async () => {
    await call('GET', '/games', { requestHeaders: { cookie: 'lang=en' } }).response;
    expect(await held('/games', { cookie: 'lang=en; other=1', 'x-forwarded-proto': 'https', 'user-agent': 'x' })).toBe(true);
    expect(await held('/games', { cookie: 'lang=uk' })).toBe(false);
  });

  it('adds HSTS to the answer that leaves over HTTPS, never to the held copy another reader gets', async () => {
    const overHttps = { 'x-forwarded-proto': 'https' };
    const first = await call('GET', '/hsts', { requestHeaders: overHttps }).response;
    expect(first.headers.get('strict-transport-security')).toMatch(/max-age=/);
    const plain = await call('GET', '/hsts').response;
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});
