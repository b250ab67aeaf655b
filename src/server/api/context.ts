import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { Database, DatabaseHandle } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { users } from '../db/schema/index.ts';
import type { RateLimiter } from '../services/rate-limit.ts';
import { fail } from './errors.ts';
import { forwardedBy } from '../serving/transport.ts';

export type UserRow = typeof users.$inferSelect;

/** What the API needs from the outside world; tests build their own. */
export interface Deps {
  database: DatabaseHandle;
  mailer: Mailer;
  /** Attempt counters shared by every instance (database, or Redis with REDIS_URL). */
  limits: RateLimiter;
  /** Public origin for links in letters, from configuration only (`Env.siteUrl`), without a trailing slash. */
  siteUrl: string;
  sessionTtlDays: number;
  /** How many proxies of ours stand in front (TRUST_PROXY): the client address is the one the outermost of them saw. */
  trustProxy: number;
}

export interface Auth {
  user: UserRow;
  sessionId: string;
}

export type AppEnv = {
  Bindings: { clientAddress?: string | undefined };
  Variables: { deps: Deps; db: Database; auth: Auth | null };
};

export type AppContext = Context<AppEnv>;

/** The signed-in user, or null for a guest. */
export const getAuth = (c: AppContext): Auth | null => c.get('auth');

/** The signed-in user; a guest gets 401. */
export function requireUser(c: AppContext): Auth {
  const auth = c.get('auth');
  if (!auth) fail(401, 'auth.unauthorized');
  return auth;
}

/** The signed-in admin; a guest gets 401, anyone else 403. */
export function requireAdmin(c: AppContext): Auth {
  const auth = requireUser(c);
  if (auth.user.role !== 'admin') fail(403, 'auth.forbidden');
  return auth;
}

/**
 * Route middleware (createRoute `middleware`): who may call is checked before the path, query and
 * body are validated, so a guest hears 401 and a non-admin 403, never 400 about a body it may not send.
 */
export const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  requireUser(c);
  await next();
});

/** Route middleware: admins only (401 for a guest, 403 for anyone else), before validation. */
export const adminOnly = createMiddleware<AppEnv>(async (c, next) => {
  requireAdmin(c);
  await next();
});

const uuid = z.uuid();

/**
 * Route middleware for rules about the object named in the path (captain of this team, member of
 * it): checked before the body is validated, so a stranger hears 403 or 404, not 400 about a body
 * they may not send. Goes after `signedIn`. A path id that is not a UUID is left to validation (400).
 */
export function pathGuard(param: string, check: (c: AppContext, id: string) => Promise<unknown>) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const id = c.req.param(param);
    if (id !== undefined && uuid.safeParse(id).success) await check(c, id);
    await next();
  });
}

/** The caller's address, for rate limits: the socket's, or what our own proxies added to X-Forwarded-For. */
export function clientAddress(c: AppContext): string {
  return forwardedBy(c.req.header('x-forwarded-for'), c.get('deps').trustProxy) ?? c.env?.clientAddress ?? 'unknown';
}
