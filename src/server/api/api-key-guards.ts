import { z } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { matchedRoutes } from 'hono/route';
import { API_KEY_REQUESTS_PER_MINUTE, scopeAllows, type ApiKeyScope } from '../../lib/domain/api-keys.ts';
import type { AuditActor } from '../services/competition/audit.ts';
import { findApiKey, hostsTournament, LAST_USED_STEP_MS, touchApiKey } from '../services/organisations/api-keys.ts';
import { organiserOnly, type ApiKeyCaller, type AppContext, type AppEnv, type Auth, type TournamentOf } from './context.ts';
import { fail, failTooMany } from './errors.ts';

/*
 * Organisations' API keys as callers (issue 60, decision 045). A key is never a user: the request's
 * `caller` stays null and the key is `apiKey`, so every guard that wants a user refuses it (403,
 * `refuseNoUser`), and a route anyone may call reads as it would for a guest. A key gets further
 * only through the guards made here, which a route names where it is defined
 * (`organiserOrKeyRoute`, api/openapi.ts); a write to any other route is refused before its guards run.
 */

const uuid = z.uuid();

/** The guards that let keys in; the front door asks whether the route it matched holds one. */
const KEY_GUARDS = new WeakSet<object>();

/** Whether the matched route says keys may come: one of its handlers is a key guard. */
const routeTakesKeys = (c: AppContext): boolean => matchedRoutes(c).some((route) => KEY_GUARDS.has(route.handler));

/**
 * Makes the bearer key the request's caller: 401 when it is unknown or revoked, 403 when its
 * organisation is suspended, 429 past its own limit (per key, shared by every instance), and 403
 * for a write to a route that takes no keys. Its use is noted at most once a minute.
 */
export async function admitApiKey(c: AppContext, secret: string): Promise<void> {
  const { database, limits } = c.get('deps');
  const key = await findApiKey(database.db, secret);
  if (!key) fail(401, 'apiKeys.unknown');
  if (key.suspended) fail(403, 'apiKeys.suspended');
  const counted = await limits.hit(`api-key:${key.keyId}`, { max: API_KEY_REQUESTS_PER_MINUTE, windowSeconds: 60 });
  if (!counted.allowed) failTooMany('apiKeys.tooMany', counted.retryAfter);
  if (key.lastUsedAt === null || Date.now() - key.lastUsedAt.getTime() >= LAST_USED_STEP_MS) await touchApiKey(database.db, key.keyId);
  const caller: ApiKeyCaller = {
    keyId: key.keyId,
    organisationId: key.organisationId,
    scope: key.scope,
    name: key.name,
    creatorId: key.creatorId,
    creatorName: key.creatorName,
  };
  c.set('apiKey', caller);
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD' && !routeTakesKeys(c)) fail(403, 'apiKeys.notHere');
}

/** Who the audit names for a key's change: its maker, with the key's name beside theirs. */
export const keyActor = (key: ApiKeyCaller): AuditActor => ({ id: key.creatorId, username: `${key.creatorName} · API «${key.name}»` });

/**
 * What a handler behind `organiserOrKey` reads: `actor`, whoever acts (the user, or the key's
 * maker named with the key), and `auth`, the user, null when a key called.
 */
export type KeyedEnv = { Variables: { auth: Auth | null; actor: AuditActor } };

/**
 * `organiserOnly` that also lets in a key of the organisation hosting the tournament the path
 * names, when its scope covers `scope`: 403 for a key of another organisation, of a tournament of
 * no organisation, of too narrow a scope. A user is judged as by `organiserOnly`.
 */
export function organiserOrKey(param: string, scope: ApiKeyScope, tournamentOf?: TournamentOf): MiddlewareHandler<AppEnv & KeyedEnv> {
  const asUser = organiserOnly(param, tournamentOf) as unknown as MiddlewareHandler<AppEnv & KeyedEnv>;
  const guard = createMiddleware<AppEnv & KeyedEnv>(async (c, next) => {
    const key = c.get('apiKey');
    if (!key) {
      return asUser(c, async () => {
        c.set('actor', c.get('auth')!.user);
        await next();
      });
    }
    if (!scopeAllows(key.scope, scope)) fail(403, 'apiKeys.readOnly');
    const id = c.req.param(param);
    const db = c.get('db');
    const tournament = id !== undefined && uuid.safeParse(id).success ? (tournamentOf ? await tournamentOf(db, id) : id) : null;
    if (!tournament || !(await hostsTournament(db, key.organisationId, tournament))) fail(403, 'apiKeys.otherTournament');
    c.set('auth', null);
    c.set('actor', keyActor(key));
    await next();
  });
  KEY_GUARDS.add(guard);
  return guard;
}

/** Whether an API key of the organisation hosting this tournament calls (a public read that shows its organisers more). */
export async function keyOfHost(c: AppContext, tournamentId: string): Promise<boolean> {
  const key = c.get('apiKey');
  return key !== undefined && uuid.safeParse(tournamentId).success && (await hostsTournament(c.get('db'), key.organisationId, tournamentId));
}
