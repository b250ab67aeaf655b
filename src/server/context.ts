import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database, DatabaseHandle } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { users } from './db/schema/index.ts';
import { fail } from './errors.ts';

export type UserRow = typeof users.$inferSelect;

/** What the API needs from the outside world; tests build their own. */
export interface Deps {
  database: DatabaseHandle;
  mailer: Mailer;
  /** Public origin for links in letters; the request's origin when unset. */
  siteUrl?: string | undefined;
  sessionTtlDays: number;
  /** Trust X-Forwarded-For for the client address (only behind a proxy you run). */
  trustProxy: boolean;
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

/** The caller's address, for rate limits: the socket's, or the proxy's header when trusted. */
export function clientAddress(c: AppContext): string {
  if (c.get('deps').trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  return c.env?.clientAddress ?? 'unknown';
}
