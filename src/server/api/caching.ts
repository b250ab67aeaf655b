import type { Context, MiddlewareHandler } from 'hono';
import { etag } from 'hono/etag';
import { isEventStreamPath } from '../serving/event-streams.ts';

/**
 * HTTP caching of the API's reads, in one place (README "Caching").
 *
 * Every successful GET gets an ETag (a digest of its body, unless the route named one itself), and
 * a request whose If-None-Match names it is answered 304 without a body. Routes that know their
 * own freshness (bracket polling, chat, leaderboards, avatars, tournaments and games) set their own
 * Cache-Control and keep it; the rest get one from the rules below.
 */

/** A guest's public read: the browser revalidates every time (a 304 is cheap), a shared cache may keep it 30 s. */
export const PUBLIC_READ = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60';
/** The same read with a bearer token: only that reader's browser may keep it, and it revalidates. */
export const PRIVATE_READ = 'private, no-cache';
/** Anything else: the caller's own data, admin lists, one-time links. Never stored. */
export const NOT_STORED = 'private, no-store';

/**
 * GETs whose answer is the same for every guest. A token may add the reader's own things (their
 * applications on a tournament), and the `lang` cookie may change the words in it, so these vary
 * by both. Avatars are left out: their route sets everything itself, and a picture varies by neither.
 */
const PUBLIC_READS: readonly RegExp[] = [
  /^\/api\/games$/,
  /^\/api\/game-management\/(list|config\/[^/]+|[^/]+\/stats-config)$/,
  /^\/api\/tournaments(\/[^/]+(\/(bracket|stages|standings|calendar\.ics|history))?)?$/,
  /^\/api\/matches\/[^/]+$/,
  /^\/api\/news(\/(?!saved$)[^/]+)?$/,
  /^\/api\/stats\/(games|leaderboard\/game\/[^/]+|leaderboard\/teams\/game\/[^/]+|achievements\/player\/[^/]+|matches\/(player|team)\/[^/]+)$/,
  /^\/api\/(openapi\.json|docs)$/,
  // Profiles (issue 23): the same for every reader. An id, so /api/teams/mine (the caller's own) is not one.
  /^\/api\/(players|teams)\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
];

/**
 * Cache headers a route sets for its public read (tournaments, games, game statistics settings).
 * A guest's answer is the same for everyone, so a CDN may keep it briefly while browsers always
 * revalidate; an answer to a signed-in caller may hold their own applications and is never stored.
 */
export function publicCache(c: Context): void {
  c.header('Vary', 'Authorization');
  c.header('Cache-Control', c.req.header('authorization') ? NOT_STORED : PUBLIC_READ);
}

export const isPublicRead = (path: string): boolean => {
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return PUBLIC_READS.some((pattern) => pattern.test(bare));
};

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
export function httpCaching(): MiddlewareHandler {
  const tagged = etag();
  return (c, next) => {
    // An event stream's body never ends: there is nothing to digest.
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || isEventStreamPath(c.req.path)) return next();
    // Runs inside `etag`, so the 304 it may send keeps the Vary and Cache-Control set here.
    return tagged(c, async () => {
      await next();
      const { status, headers } = c.res;
      if (!c.res.ok && status !== 304) return;
      const publicRead = isPublicRead(c.req.path);
      if (publicRead) vary(headers, 'Authorization', 'Cookie');
      if (status === 304 || headers.has('cache-control')) return;
      const signedIn = Boolean(c.req.header('authorization'));
      headers.set('Cache-Control', !publicRead ? NOT_STORED : signedIn ? PRIVATE_READ : PUBLIC_READ);
    });
  };
}
