import type { ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { z } from 'zod';
import type { Database, DatabaseHandle } from '../db/client.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { PushService } from '../push/push-service.ts';
import type { Telegram } from '../telegram/telegram-bot.ts';
import type { SignInProviders } from '../sign-in/providers.ts';
import type { ApiKeyScope } from '../../lib/domain/api-keys.ts';
import type { UserRow } from '../services/accounts/accounts.ts';
import type { RateLimiter } from '../services/rate-limit.ts';
import type { StreamLimits } from '../services/live/live-streams.ts';
import { isHost, isOrganiser } from '../services/competition/staff.ts';
import { managesAnOrganisation } from '../services/organisations/organisations.ts';
import { approvedVenueNetworks } from '../services/venues/approved-networks.ts';
import { fail } from './errors.ts';
import { addressKey, arrivalOf, clientAddressOf, type ProxyTrust, type VenueNetworks } from '../transport.ts';

/** The database handle a route passes on to its service (routes never query it themselves). */
export type { Database };

/** What the API needs from the outside world; tests build their own. */
export interface Deps {
  database: DatabaseHandle;
  mailer: Mailer;
  /** Attempt counters shared by every instance (database, or Redis with REDIS_URL). */
  limits: RateLimiter;
  /** Public origin for links in letters, from configuration only (`Env.siteUrl`), without a trailing slash. */
  siteUrl: string;
  sessionTtlDays: number;
  /** Our proxies (TRUST_PROXY): the forwarded headers are believed only from them (transport.ts). */
  trustProxy: ProxyTrust;
  /**
   * Venue networks (TRUSTED_VENUE_NETWORKS): clients inside are left alone by the per-address limits,
   * not by the per-device and per-account ones (decision 035). Unset, none.
   */
  venueNetworks?: VenueNetworks;
  /** Event streams open at once, per process, per client address, per device and per account (services/live/live-streams.ts has the defaults). */
  eventStreams?: StreamLimits;
  /**
   * Sends the letters a request announced right after it (services/notices/notices.ts `kickLetters`)
   * rather than at the next `letters` sweep. The runtime turns it on; a test app only when asked,
   * so no send outlives a test nor runs into the next one's queries.
   */
  letterKick?: boolean;
  /**
   * Web push (PUSH_SUBJECT, issue 60): the push service with the site's VAPID keys. Absent, push is
   * off: the key says so, no device is registered, and the cabinet shows no push controls.
   */
  push?: PushService | undefined;
  /** Sends the pushes a request queued right after it (services/notices/push-outbox.ts `kickPushes`), as `letterKick` does the letters. */
  pushKick?: boolean;
  /**
   * The Telegram bot (TELEGRAM_BOT_TOKEN, issue 60, decision 043). Absent, Telegram is off: its
   * routes answer 404 and the cabinet and manage page show no Telegram controls.
   */
  telegram?: Telegram | undefined;
  /** Sends the Telegram messages a request queued right after it (services/telegram/notice-outbox.ts `kickTelegram`). */
  telegramKick?: boolean;
  /**
   * Sign-in with Discord and Steam (issue 60, decision 044): the providers turned on. An absent one
   * is off: its routes answer 404 and no page shows its buttons.
   */
  signInProviders?: SignInProviders | undefined;
}

/** An organisation's API key as a request's caller (issue 60, decision 045). */
export interface ApiKeyCaller {
  keyId: string;
  organisationId: string;
  scope: ApiKeyScope;
  name: string;
  /** Its maker, who answers for what it does: the audit's actor, named with the key. */
  creatorId: string;
  creatorName: string;
}

export interface Auth {
  user: UserRow;
  sessionId: string;
  /** The teams the user is a member of, as the session lookup found them (services/accounts/sessions.ts). */
  teamIds: readonly string[];
}

/**
 * What a route is, said once where it is defined (api/openapi.ts): a guest's public read (held by
 * caches, src/server/serving/answer-cache.ts) or an event stream (never buffered nor digested). Any
 * other GET is a private read, any other method a write; an upload is a write whose body is
 * `multipart/form-data` (api/body-limits.ts).
 */
export type RouteKind = 'public-read' | 'stream';

export type AppEnv = {
  /**
   * `clientAddress`: the address of the socket the request came on (the proxy's, behind one).
   * `locals`: the page request's locals, for a request that came to the API from outside (what a
   * public read declares reaches the answer cache through them); absent for a page's own reads.
   * `outgoing`: Node's response, when the app is served on Node's own request (api/on-node.ts).
   */
  Bindings: { clientAddress?: string | undefined; locals?: App.Locals | undefined; outgoing?: ServerResponse | undefined };
  /**
   * `caller`: who the bearer token names, null for a guest. A guard turns it into `auth` (GuardedEnv).
   * `apiKey`: the organisation's API key the bearer is (api-key-guards.ts), never a user: `caller`
   * stays null, and a guard lets it in only where a route says keys may come (`organiserOrKeyRoute`).
   * `kind`: the route's (`RouteKind`).
   */
  Variables: { deps: Deps; db: Database; caller: Auth | null; apiKey?: ApiKeyCaller | undefined; kind?: RouteKind };
};

export type AppContext = Context<AppEnv>;

/**
 * What a guard adds to a handler's `c.var`: behind `signedIn` or `adminOnly`, `c.var.auth` is the
 * caller, never null. The route's `middleware` carries this type to its handler, so a handler
 * behind no guard has no `auth` to read.
 */
export type GuardedEnv = { Variables: { auth: Auth } };

/** A guarded handler's `c.var` (the app's variables with the caller known): what a path guard's check reads. */
export type GuardedVars = Readonly<AppEnv['Variables'] & GuardedEnv['Variables']>;

/**
 * A guard's refusal of a request that names no user: 401 for a guest, 403 for an API key, which
 * may call only the routes that say keys may come (decision 045).
 */
export function refuseNoUser(c: Context): never {
  if ((c as AppContext).get('apiKey')) fail(403, 'apiKeys.notHere');
  fail(401, 'auth.unauthorized');
}

/** The signed-in user, or null for a guest (for routes anyone may call). */
export const getAuth = (c: AppContext): Auth | null => c.get('caller');

/**
 * Route middleware (through `userRoute` in openapi.ts): a guest gets 401. Who may call is checked
 * before the path, query and body are validated, so a guest hears 401 and a non-admin 403, never
 * 400 about a body it may not send.
 */
export const signedIn = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const auth = c.get('caller');
  if (!auth) refuseNoUser(c);
  c.set('auth', auth);
  await next();
});

/** Route middleware (through `adminRoute`): admins only, 401 for a guest and 403 for anyone else, before validation. */
export const adminOnly = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const auth = c.get('caller');
  if (!auth) refuseNoUser(c);
  if (auth.user.role !== 'admin') fail(403, 'auth.forbidden');
  c.set('auth', auth);
  await next();
});

const uuid = z.uuid();

/** Finds the tournament an object of the path belongs to (an application's, a stage match's); null when there is none. */
export type TournamentOf = (db: Database, id: string) => Promise<string | null>;

/**
 * Route middleware (through `organiserRoute`): the organisers of the tournament the path names
 * (`param` is its id, or `tournamentOf` finds it from an application's or a match's id), decision
 * 016. An admin passes; a staff member passes for their own tournament only; a guest gets 401 and
 * anyone else 403, all before validation, as `adminOnly`. A path id that is not a UUID, or names
 * nothing, is 403 for a non-admin (they organise nothing there) and left to the handler for the admin.
 */
export function organiserOnly(param: string, tournamentOf?: TournamentOf) {
  return createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
    const auth = c.get('caller');
    if (!auth) refuseNoUser(c);
    if (auth.user.role !== 'admin') {
      const id = c.req.param(param);
      const db = c.get('db');
      const tournamentId = id !== undefined && uuid.safeParse(id).success ? (tournamentOf ? await tournamentOf(db, id) : id) : null;
      if (!tournamentId || !(await isOrganiser(db, auth.user, tournamentId))) fail(403, 'staff.forbidden');
    }
    c.set('auth', auth);
    await next();
  });
}

/**
 * Route middleware (through `hostRoute`): who hosts the tournament the path names and so may edit,
 * delete or clone it (issue 56): an admin, or the people of its organisation. Checked before
 * validation, with the same answers as `organiserOnly`.
 */
export const hostOnly = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const auth = c.get('caller');
  if (!auth) refuseNoUser(c);
  if (auth.user.role !== 'admin') {
    const id = c.req.param('id');
    if (id === undefined || !uuid.safeParse(id).success || !(await isHost(c.get('db'), auth.user, id))) fail(403, 'tournament.hostsOnly');
  }
  c.set('auth', auth);
  await next();
});

/**
 * Route middleware (through `publisherRoute`): who may publish tournaments at all, before the body
 * says for whom: an admin (the site's own), or the owner or an admin of an organisation (issue 56).
 */
export const publishers = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const auth = c.get('caller');
  if (!auth) refuseNoUser(c);
  if (auth.user.role !== 'admin' && !(await managesAnOrganisation(c.get('db'), auth.user.id))) fail(403, 'tournament.publishersOnly');
  c.set('auth', auth);
  await next();
});

/**
 * Route middleware for rules about the object named in the path (captain of this team, member of
 * it): checked before the body is validated, so a stranger hears 403 or 404, not 400 about a body
 * they may not send. Goes after `signedIn` (`userRoute(config, guard)` puts it there). Given a
 * `name`, what `check` found is kept as `c.var[name]` for the handler. A path id that is not a UUID
 * is left to validation (400), and the handler never runs.
 */
export function pathGuard<const Name extends string, Found>(
  param: string,
  name: Name,
  check: (vars: GuardedVars, id: string) => Promise<Found>,
): MiddlewareHandler<AppEnv & GuardedEnv & { Variables: Record<Name, Found> }>;
export function pathGuard(param: string, check: (vars: GuardedVars, id: string) => Promise<unknown>): MiddlewareHandler<AppEnv & GuardedEnv>;
export function pathGuard(
  param: string,
  nameOrCheck: string | ((vars: GuardedVars, id: string) => Promise<unknown>),
  check?: (vars: GuardedVars, id: string) => Promise<unknown>,
) {
  return createMiddleware<AppEnv & GuardedEnv & { Variables: Record<string, unknown> }>(async (c, next) => {
    const id = c.req.param(param);
    if (id !== undefined && uuid.safeParse(id).success) {
      if (typeof nameOrCheck === 'string') c.set(nameOrCheck, await check!(c.var, id));
      else await nameOrCheck(c.var, id);
    }
    await next();
  });
}

/**
 * The caller as the limits see it: `address`, its address as per-address limits count it (the
 * socket's, or the one our proxies saw when the socket is one of theirs; an IPv6 address by its /64,
 * `addressKey` in transport.ts), and whether it is inside a venue network, which per-address limits
 * leave alone (decision 035): one the server's operator named (TRUSTED_VENUE_NETWORKS), or one a
 * tournament's organisers asked for and the site's admin approved, inside its window (held in the
 * process: services/venues/approved-networks.ts).
 */
export function clientOf(c: AppContext): { address: string; atVenue: boolean } {
  const { trustProxy, venueNetworks, database } = c.get('deps');
  const address = clientAddressOf(arrivalOf(c.req.raw, c.env?.clientAddress), trustProxy);
  const atVenue = address !== undefined && ((venueNetworks?.(address) ?? false) || approvedVenueNetworks(database.db).has(address));
  return { address: addressKey(address ?? 'unknown'), atVenue };
}

/** The caller's address as per-address limits count it (`clientOf`). */
export const clientAddress = (c: AppContext): string => clientOf(c).address;

/**
 * The caller's address as per-address limits count it, or null inside a venue network: a hall's
 * players share it, and the limits per device and per account count them instead (`clientOf`).
 */
export function limitedAddress(c: AppContext): string | null {
  const { address, atVenue } = clientOf(c);
  return atVenue ? null : address;
}
