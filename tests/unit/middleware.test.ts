import type { APIContext, MiddlewareNext } from 'astro';
import { describe, expect, it, vi } from 'vitest';

vi.mock('astro:middleware', () => ({ defineMiddleware: <T>(handler: T) => handler }));
vi.mock('../../src/server/runtime.ts', () => ({
  getApp: async () => ({ fetch: async () => new Response('{}') }),
  getRuntime: async () => ({ env: {}, deps: { trustProxy: false } }),
}));

const { onRequest } = await import('../../src/middleware.ts');
const { answerKey, publicAnswers, WROTE_COOKIE } = await import('../../src/server/serving/response-cache.ts');

/** What Astro hands the middleware, for a request of `method` to `path`; `next` renders `status`. */
function call(method: string, path: string, status = 200) {
  const url = new URL(path, 'http://arena.test');
  const next = vi.fn(async () => new Response('<p>сторінка</p>', { status, headers: { 'content-type': 'text/html', 'cache-control': 'public, max-age=0, s-maxage=30' } }));
  const context = { isPrerendered: false, request: new Request(url, { method, ...(method === 'GET' || method === 'HEAD' ? {} : { body: 'x=1' }) }), url, locals: {} };
  const response = (onRequest as unknown as (context: APIContext, next: MiddlewareNext) => Promise<Response>)(context as unknown as APIContext, next);
  return { response, next };
}

// A Request made here carries no Host header.
const keyOf = (path: string) => answerKey({ cookie: null, forwardedProto: null, host: null, path })!;

describe('the middleware', () => {
  it('answers a write to a page 405 without rendering it, and keeps the held answers', async () => {
    await call('GET', '/tournaments').response;
    expect(publicAnswers.lookup(keyOf('/tournaments'), null, null)).toMatchObject({ status: 200 });
    const { response, next } = call('POST', '/tournaments');
    expect((await response).status).toBe(405);
    expect((await response).headers.get('allow')).toBe('GET, HEAD');
    expect(next).not.toHaveBeenCalled();
    expect(publicAnswers.lookup(keyOf('/tournaments'), null, null)).toMatchObject({ status: 200 });
  });

  it('marks held answers out of date after a successful write through the API, and not after a refused one; its writer reads fresh', async () => {
    await call('GET', '/news').response;
    await call('POST', '/api/auth/login').response;
    expect(publicAnswers.lookup(keyOf('/news'), null, null, true)).toMatchObject({ status: 200 });
    const refused = await call('POST', '/api/news', 400).response;
    expect(publicAnswers.lookup(keyOf('/news'), null, null, true)).toMatchObject({ status: 200 });
    expect(refused.headers.get('set-cookie')).toBeNull();
    const written = await call('POST', '/api/news', 201).response;
    // A reader who wants a fresh answer (the writer, with the cookie its write set) renders it again.
    expect(publicAnswers.lookup(keyOf('/news'), null, null, true)).toBeUndefined();
    expect(written.headers.get('set-cookie')).toMatch(new RegExp(`^${WROTE_COOKIE}=1; Max-Age=\\d+; Path=/; SameSite=Lax; HttpOnly$`));
  });

  it('renders, but does not hold, a read whose query has a parameter no page takes', async () => {
    const { response, next } = call('GET', '/news?r=1');
    expect((await response).status).toBe(200);
    expect(next).toHaveBeenCalledOnce();
    expect(answerKey({ cookie: null, forwardedProto: null, host: null, path: '/news?r=1' })).toBeUndefined();
    const again = call('GET', '/news?r=1');
    await again.response;
    expect(again.next).toHaveBeenCalledOnce();
  });
});
