import { createHash, randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { ApiKeyInput, ApiKeyView } from '../../../lib/api/api-keys.ts';
import { API_KEY_PREFIX, API_KEY_SHOWN, API_KEYS_PER_ORGANISATION, type ApiKeyScope } from '../../../lib/domain/api-keys.ts';
import type { Tx } from '../../db/client.ts';
import { organisationApiKeys, organisationMembers, organisations, tournaments, users } from '../../db/schema/index.ts';
import { constraintOf, isUniqueViolation } from '../db-errors.ts';
import { lockOrganisation } from './organisations.ts';

/*
 * An organisation's API keys (issue 60, decision 045): made, listed and revoked by its owner and
 * admins, and found by their secret on each request that carries one.
 */

/** A key's secret's digest, as stored and looked up. */
export const hashApiKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A new secret: `ka_` and 32 random bytes in base64url. */
export const newApiKeySecret = (): string => `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;

type KeyRow = typeof organisationApiKeys.$inferSelect;

const view = (row: KeyRow, creator: string): ApiKeyView => ({
  _id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.createdAt.toISOString(),
  createdBy: creator,
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  revokedAt: row.revokedAt?.toISOString() ?? null,
});

/** The organisation's keys, live ones first, newest first within each. */
export async function apiKeysOf(db: Tx, organisationId: string): Promise<ApiKeyView[]> {
  const rows = await db
    .select({ key: organisationApiKeys, creator: users.username })
    .from(organisationApiKeys)
    .innerJoin(users, eq(users.id, organisationApiKeys.createdBy))
    .where(eq(organisationApiKeys.organisationId, organisationId))
    .orderBy(sql`${organisationApiKeys.revokedAt} is not null`, desc(organisationApiKeys.createdAt), asc(organisationApiKeys.id));
  return rows.map((r) => view(r.key, r.creator));
}

export type ApiKeyMade = { ok: true; key: ApiKeyView; secret: string } | { ok: false; reason: 'nameTaken' | 'tooMany' | 'notFound' };

/**
 * Makes a key and returns its secret, the only time anyone sees it; only its digest is kept. Counted
 * under the organisation's row lock, so a burst of requests never passes the cap; a live key's name
 * is unique in the organisation in any case.
 */
export async function createApiKey(db: Tx, organisationId: string, input: ApiKeyInput, userId: string): Promise<ApiKeyMade> {
  const secret = newApiKeySecret();
  try {
    return await db.transaction(async (tx): Promise<ApiKeyMade> => {
      if (!(await lockOrganisation(tx, organisationId))) return { ok: false, reason: 'notFound' };
      const [live] = await tx
        .select({ n: count() })
        .from(organisationApiKeys)
        .where(and(eq(organisationApiKeys.organisationId, organisationId), isNull(organisationApiKeys.revokedAt)));
      if ((live?.n ?? 0) >= API_KEYS_PER_ORGANISATION) return { ok: false, reason: 'tooMany' };
      const [row] = await tx
        .insert(organisationApiKeys)
        .values({ organisationId, name: input.name, scope: input.scope, hash: hashApiKey(secret), prefix: secret.slice(0, API_KEY_SHOWN), createdBy: userId })
        .returning();
      const [creator] = await tx.select({ username: users.username }).from(users).where(eq(users.id, userId));
      return { ok: true, key: view(row!, creator?.username ?? ''), secret };
    });
  } catch (error) {
    if (isUniqueViolation(error) && constraintOf(error) === 'organisation_api_keys_live_name_idx') return { ok: false, reason: 'nameTaken' };
    throw error;
  }
}

/** Revokes one of the organisation's keys at once (a key of another organisation is none of its); revoking a revoked key changes nothing. */
export async function revokeApiKey(db: Tx, organisationId: string, keyId: string): Promise<ApiKeyView | null> {
  const where = and(eq(organisationApiKeys.id, keyId), eq(organisationApiKeys.organisationId, organisationId));
  await db.update(organisationApiKeys).set({ revokedAt: sql`now()` }).where(and(where, isNull(organisationApiKeys.revokedAt)));
  const [row] = await db
    .select({ key: organisationApiKeys, creator: users.username })
    .from(organisationApiKeys)
    .innerJoin(users, eq(users.id, organisationApiKeys.createdBy))
    .where(where);
  return row ? view(row.key, row.creator) : null;
}

/**
 * Revokes the live keys `userId` made for the organisation, in the transaction that takes away
 * their right to manage it (removed, left, or made staff): a key works only while its maker
 * manages, and the list then says so, and frees the key's place under the cap and its name.
 */
export async function revokeKeysOfMaker(tx: Tx, organisationId: string, userId: string): Promise<void> {
  await tx
    .update(organisationApiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(organisationApiKeys.organisationId, organisationId), eq(organisationApiKeys.createdBy, userId), isNull(organisationApiKeys.revokedAt)));
}

/** A key found by its secret, as a request's caller: what it may do, for whom, and who answers for it. */
export interface FoundApiKey {
  keyId: string;
  organisationId: string;
  scope: ApiKeyScope;
  name: string;
  creatorId: string;
  creatorName: string;
  /** The organisation is suspended: its keys are refused (403) until it is lifted. */
  suspended: boolean;
  lastUsedAt: Date | null;
}

/**
 * The live key whose secret this is, or null: unknown, revoked, or its maker no longer the owner
 * or an admin of its organisation (a key does what its maker may, never more, and the audit names
 * them). One statement, by the digest's unique index.
 */
export async function findApiKey(db: Tx, secret: string): Promise<FoundApiKey | null> {
  const [row] = await db
    .select({
      keyId: organisationApiKeys.id,
      organisationId: organisationApiKeys.organisationId,
      scope: organisationApiKeys.scope,
      name: organisationApiKeys.name,
      creatorId: organisationApiKeys.createdBy,
      creatorName: users.username,
      suspendedAt: organisations.suspendedAt,
      lastUsedAt: organisationApiKeys.lastUsedAt,
    })
    .from(organisationApiKeys)
    .innerJoin(organisations, eq(organisations.id, organisationApiKeys.organisationId))
    .innerJoin(users, eq(users.id, organisationApiKeys.createdBy))
    .innerJoin(
      organisationMembers,
      and(
        eq(organisationMembers.organisationId, organisationApiKeys.organisationId),
        eq(organisationMembers.userId, organisationApiKeys.createdBy),
        or(eq(organisationMembers.role, 'owner'), eq(organisationMembers.role, 'admin')),
      ),
    )
    .where(and(eq(organisationApiKeys.hash, hashApiKey(secret)), isNull(organisationApiKeys.revokedAt)));
  if (!row) return null;
  const { suspendedAt, ...key } = row;
  return { ...key, suspended: suspendedAt !== null };
}

/** How often a key's last use is written: at most once a minute, so a busy key does not write on every request. */
export const LAST_USED_STEP_MS = 60_000;

/** Notes the key's use, when the last one noted is a minute old (the condition is the statement's, so instances agree). */
export async function touchApiKey(db: Tx, keyId: string): Promise<void> {
  await db
    .update(organisationApiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(organisationApiKeys.id, keyId),
        or(isNull(organisationApiKeys.lastUsedAt), lt(organisationApiKeys.lastUsedAt, sql`now() - make_interval(secs => ${LAST_USED_STEP_MS / 1000})`)),
      ),
    );
}

/** Whether the tournament is the organisation's: the only ones its keys reach past the public API. */
export async function hostsTournament(db: Tx, organisationId: string, tournamentId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: tournaments.id })
    .from(tournaments)
    .where(and(eq(tournaments.id, tournamentId), eq(tournaments.organisationId, organisationId)));
  return row !== undefined;
}
