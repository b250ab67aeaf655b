import type { MiddlewareHandler } from 'hono';
import { etag } from 'hono/etag';
import type { AppEnv } from './context.ts';

/**
 * HTTP caching of the API's reads, in one place (docs/features.md "Caching").
 *
 * Every successful GET gets an ETag (a digest of its body, unless the route named one itself), and
 * a request whose If-None-Match names it is answered 304 without a body. Routes that know their
 * own freshness (bracket polling, chat, leaderboards, avatars) set their own Cache-Control and keep
 * it; the rest get one from the rules below. A route says what it is where it is defined
 * (api/openapi.ts: `publicRead`, `streamRoute`); this middleware reads what it said.
 */

/** A guest's public read: the browser revalidates every time (a 304 is cheap), a shared cache may keep it 30 s. */
export const PUBLIC_READ = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';
/** The same read with a bearer token: only that reader's browser may keep it, and it revalidates. */
export const PRIVATE_READ = 'private, no-cache';
/** Anything else: the caller's own data, admin lists, one-time links. Never stored. */
export const NOT_STORED = 'private, no-store';

/** Adds names to the response's Vary header, keeping those already there. */
function vary(headers: Headers, ...names: string[]): void {
  const present = (headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const lower = new Set(present.map((name) => name.toLowerCase()));
  const added = names.filter((name) => !lower.has(name.toLowerCase()));
  if (added.length > 0) headers.set('Vary', [...present, ...added].join(', '));
}

/** The API's caching middleware: ETag and 304 on every GET, Vary and a default Cache-Control. */
export function httpCaching(): MiddlewareHandler<AppEnv> {
  const tagged = etag();
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    await next();
    const kind = c.get('kind');
    // An event stream's body never ends: there is nothing to digest.
    if (kind === 'stream') return;
    // `etag` reads the request's If-None-Match, then the answer: called after the route, with nothing left to run.
    await tagged(c, async () => {});
    const { status, headers } = c.res;
    if (!c.res.ok && status !== 304) return;
    const publicRead = kind === 'public-read';
    if (publicRead) vary(headers, 'Authorization', 'Cookie');
    if (headers.has('cache-control')) return;
    const signedIn = Boolean(c.req.header('authorization'));
    headers.set('Cache-Control', !publicRead ? NOT_STORED : signedIn ? PRIVATE_READ : PUBLIC_READ);
  };
}
