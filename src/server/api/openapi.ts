import { createRoute, OpenAPIHono, type RouteConfig, z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ZodType } from 'zod';
import { adminOnly, type AppEnv, type Auth, type Database, hostOnly, organiserOnly, publishers, type RouteKind, signedIn } from './context.ts';
import { type DataTag, shows, tournamentData } from '../services/live/changes.ts';
import { NOT_STORED } from './caching.ts';
import { tournamentOfApplication, tournamentOfMatch } from '../services/competition/staff.ts';
import { shownToPublic } from '../services/competition/tournaments.ts';
import { fail } from './errors.ts';
import { organiserOrKey } from './api-key-guards.ts';
import type { ApiKeyScope } from '../../lib/domain/api-keys.ts';
import type { MessageKey } from '../../lib/i18n/index.ts';
import { validationHook } from './validation.ts';

const uuid = z.uuid();

/** A sub-app for one resource; validation failures answer 400 `{ message }` in Ukrainian. */
export const router = () => new OpenAPIHono<AppEnv>({ defaultHook: validationHook });

export const messageBody = z.object({ message: z.string() }).openapi('Message');

/** A required JSON request body. */
export const jsonBody = <T extends ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

/** A JSON response. */
export const jsonResponse = <T extends ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The `{ message }` answers a route may give besides success. */
export function errors(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'Некоректний запит',
    401: 'Потрібно увійти',
    403: 'Недостатньо прав',
    404: 'Не знайдено',
    409: 'Конфлікт',
    413: 'Завеликий запит',
    415: 'Непідтримуваний тип',
    422: 'Неможлива дія',
    429: 'Забагато запитів',
    503: 'Сервіс недоступний',
  };
  return Object.fromEntries(statuses.map((s) => [s, jsonResponse(messageBody, descriptions[s] ?? 'Помилка')]));
}

const bearer = [{ bearerAuth: [] }];

/** A route's declaration without the parts its guard decides. */
type OpenRoute<P extends string> = Omit<RouteConfig, 'path' | 'security' | 'middleware'> & { path: P };

/**
 * A route for any signed-in user: documented with bearer security and guarded by `signedIn`, then
 * by `more` (a `pathGuard`, an upload's turn), all before validation. Its handler reads the caller
 * as `c.var.auth`, typed non-null.
 */
export const userRoute = <P extends string, R extends OpenRoute<P>, More extends MiddlewareHandler[] = []>(config: R, ...more: More) =>
  createRoute({ ...config, security: bearer, middleware: [signedIn, ...more] as [typeof signedIn, ...More] });

/** A route for admins only (401 for a guest, 403 for anyone else, before validation); `c.var.auth` is the admin. */
export const adminRoute = <P extends string, R extends OpenRoute<P>>(config: R) =>
  createRoute({ ...config, security: bearer, middleware: [adminOnly] as [typeof adminOnly] });

/**
 * What the path's `{id}` is on an organiser's route: the tournament itself, or an application or a
 * stage match of it (decision 016). Each guard is made once.
 */
const ORGANISER_GUARDS = {
  tournament: organiserOnly('id'),
  application: organiserOnly('id', tournamentOfApplication),
  match: organiserOnly('id', tournamentOfMatch),
};

/**
 * A route that decides one tournament's competition (decision 016): its admins and its staff
 * (co-organisers) may call it, staff only for their own tournament; 401 for a guest, 403 for anyone
 * else, before validation. `of` says what the path's `{id}` names. `c.var.auth` is the caller.
 */
export const organiserRoute = <P extends string, R extends OpenRoute<P>>(config: R, of: keyof typeof ORGANISER_GUARDS) =>
  createRoute({ ...config, security: bearer, middleware: [ORGANISER_GUARDS[of]] as [ReturnType<typeof organiserOnly>] });

const KEY_NOTE = {
  read: '· Також ключ API організації, що проводить турнір (scope read чи run).',
  run: '· Також ключ API організації, що проводить турнір, зі scope run.',
};

const KEY_GUARDS = {
  tournament: { read: organiserOrKey('id', 'read'), run: organiserOrKey('id', 'run') },
  application: { read: organiserOrKey('id', 'read', tournamentOfApplication), run: organiserOrKey('id', 'run', tournamentOfApplication) },
  match: { read: organiserOrKey('id', 'read', tournamentOfMatch), run: organiserOrKey('id', 'run', tournamentOfMatch) },
};

/**
 * `organiserRoute` that an API key of the organisation hosting the tournament may also call, when
 * its scope covers `scope` (decision 045): the only routes a key gets past the public API by. The
 * handler reads `c.var.actor` (whoever acts, for the audit) and `c.var.auth`, null for a key.
 */
export const organiserOrKeyRoute = <P extends string, R extends OpenRoute<P>>(config: R, of: keyof typeof KEY_GUARDS, scope: ApiKeyScope) =>
  createRoute({
    ...config,
    summary: `${config.summary ?? ''} ${scope === 'read' ? KEY_NOTE.read : KEY_NOTE.run}`.trim(),
    security: bearer,
    middleware: [KEY_GUARDS[of][scope]] as [ReturnType<typeof organiserOrKey>],
  });


/** A route that changes a whole tournament (edit, delete, clone): its hosts, an admin or its organisation's people (issue 56). */
export const hostRoute = <P extends string, R extends OpenRoute<P>>(config: R) =>
  createRoute({ ...config, security: bearer, middleware: [hostOnly] as [typeof hostOnly] });

/** A route that publishes a tournament: an admin, or an organisation's owner or admin; the body says for whom. */
export const publisherRoute = <P extends string, R extends OpenRoute<P>>(config: R) =>
  createRoute({ ...config, security: bearer, middleware: [publishers] as [typeof publishers] });

/** The names of the query parameters a route's schema takes. */
function queryNames(config: Pick<RouteConfig, 'request'>): readonly string[] {
  const query = config.request?.query as { shape?: Record<string, unknown> } | undefined;
  return Object.keys(query?.shape ?? {});
}

/**
 * Says what a route is (`RouteKind`) before its guards and handler run: the app's caching reads it
 * (api/caching.ts), and a public read's query parameters reach the answer cache through the page
 * request's locals (only for a request that came from outside: a page's own reads do not speak for it).
 */
const declare = (kind: RouteKind, query: readonly string[] = [], read: PublicReadOptions = {}) =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set('kind', kind);
    if (kind === 'public-read' && c.env?.locals) c.env.locals.acceptsQuery = query;
    if (read.shows) shows(...read.shows(c.req.param()));
    if (read.shows === oneTournament) await refuseHidden(c.get('db'), c.get('caller'), c.req.param('id'));
    await next();
    if (read.mine && c.req.header('authorization')) {
      c.header('Vary', 'Authorization');
      c.header('Cache-Control', NOT_STORED);
    }
  });

/** The data a public read shows, from its path's parameters (services/live/changes.ts); a read that names none shows everything. */
type Showing = (params: Record<string, string>) => DataTag[];

/** What a public read says of itself besides its query. */
interface PublicReadOptions {
  /** The data it shows (a handler that learns more as it reads says so itself with `shows`). */
  shows?: Showing;
  /** Its answer to a signed-in reader holds their own things (their applications, who did what): never stored. */
  mine?: boolean;
}

/**
 * What the reads of one tournament, named by the path's `{id}`, show. Such a read of a tournament
 * the public may not see (its organisation suspended, issue 56) answers 404 before its handler.
 */
export const oneTournament: Showing = ({ id }) => (id ? [tournamentData(id)] : []);

/** 404 for a tournament hidden from the public, to all but the platform's admin; an id that is no UUID is left to validation. */
export async function refuseHidden(db: Database, caller: Auth | null, tournamentId: string | undefined, notFound: MessageKey = 'tournament.notFound'): Promise<void> {
  if (caller?.user.role === 'admin' || tournamentId === undefined || !uuid.safeParse(tournamentId).success) return;
  if (!(await shownToPublic(db, tournamentId))) fail(404, notFound);
}

/** `publicRead`'s declaration, for the few routes not made with `createRoute` (the API's own documents). */
export const publicReadRoute = declare('public-read');

/**
 * A guest's public read: the same answer for every guest of one language (a token may add the
 * reader's own things, which caches then never keep). Held by the answer cache and by nginx,
 * kept fresh by what writes say they changed (services/live/changes.ts), as `options` say.
 */
export const publicRead = <P extends string, R extends OpenRoute<P>>(config: R, options: PublicReadOptions = {}) =>
  createRoute({ ...config, middleware: [declare('public-read', queryNames(config), options)] as [MiddlewareHandler<AppEnv>] });

/** An event stream: open for hours, its events written as they come; never digested, held or compressed. */
export const streamRoute = <P extends string, R extends OpenRoute<P>>(config: R) =>
  createRoute({ ...config, middleware: [declare('stream')] as [MiddlewareHandler<AppEnv>] });

/** A signed-in user's event stream (`streamRoute` guarded by `signedIn`). */
export const userStreamRoute = <P extends string, R extends OpenRoute<P>>(config: R) =>
  createRoute({ ...config, security: bearer, middleware: [declare('stream'), signedIn] as [MiddlewareHandler<AppEnv>, typeof signedIn] });
