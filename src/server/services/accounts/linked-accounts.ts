import { and, asc, count, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { USERNAME_MAX } from '../../../lib/api/limits.ts';
import { hasInvisibleCharacters, normalizeName } from '../../../lib/domain/names.ts';
import type { SignInProvider } from '../../../lib/domain/linked-accounts.ts';
import { currentLocale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { linkedAccounts, signInFlows, signInHandoffs, users } from '../../db/schema/index.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { changed, EVERYTHING } from '../live/changes.ts';
import { NO_PASSWORD } from './accounts.ts';
import { skeletonColumns, usernameLooksTaken } from './names.ts';
import { hashToken, newToken } from './tokens.ts';

/** How long a started sign-in waits for the provider's callback. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** How long the login page has to exchange a finished sign-in's code for a session. */
export const HANDOFF_TTL_MS = 60 * 1000;

/** What a provider said about the account that signed in (sign-in/providers.ts `ProviderIdentity`). */
export interface LinkedIdentity {
  provider: SignInProvider;
  accountId: string;
  displayName: string;
  profileUrl: string | null;
}

/** A linked account as its owner and the public see it. */
export interface LinkedAccountView {
  provider: SignInProvider;
  name: string;
  url: string | null;
  linkedAt: string;
}

/**
 * Starts a sign-in (no user) or a link (the signed-in user's id): a fresh state, PKCE verifier and
 * browser nonce, of which only the verifier is stored as is (the provider needs it back).
 */
export async function startFlow(db: Tx, provider: SignInProvider, userId: string | null): Promise<{ state: string; verifier: string; browser: string }> {
  const state = newToken();
  const verifier = provider === 'discord' ? newToken() : '';
  const browser = newToken();
  const now = Date.now();
  // Flows never finished are of no use once expired; each start clears some.
  await db.delete(signInFlows).where(lt(signInFlows.expiresAt, new Date(now - FLOW_TTL_MS)));
  await db.insert(signInFlows).values({
    stateHash: hashToken(state),
    browserHash: hashToken(browser),
    provider,
    verifier,
    userId,
    expiresAt: new Date(now + FLOW_TTL_MS),
  });
  return { state, verifier, browser };
}

export type TakenFlow = { verifier: string; userId: string | null };

/**
 * The flow a callback's state names, used up now whatever comes next, so a callback replayed or
 * raced is refused. Null when it is unknown, used, expired, of another provider, or was started
 * in another browser (its nonce cookie differs).
 */
export async function takeFlow(db: Tx, provider: SignInProvider, state: string, browser: string | undefined): Promise<TakenFlow | null> {
  const [row] = await db
    .update(signInFlows)
    .set({ usedAt: new Date() })
    .where(and(eq(signInFlows.stateHash, hashToken(state)), eq(signInFlows.provider, provider), isNull(signInFlows.usedAt), gt(signInFlows.expiresAt, new Date())))
    .returning({ verifier: signInFlows.verifier, userId: signInFlows.userId, browserHash: signInFlows.browserHash });
  if (!row || !browser || row.browserHash !== hashToken(browser)) return null;
  return { verifier: row.verifier, userId: row.userId };
}

export type Finished =
  | { ok: true; kind: 'signedIn'; userId: string; created: boolean }
  | { ok: true; kind: 'linked'; userId: string }
  | { ok: false; reason: 'linkedElsewhere' | 'alreadyLinked' | 'userGone' };

/**
 * What a verified identity does (decision 044): linked already, it signs its owner in; a signed-in
 * user's link joins it to them unless another account holds it or they hold another of that
 * provider; otherwise a sign-in makes a new account. Nothing is ever matched by email or name: an
 * account found only that way stays untouched, since its owner never signed in to both.
 */
export async function finishFlow(db: Tx, identity: LinkedIdentity, linkingUserId: string | null): Promise<Finished> {
  const link = { provider: identity.provider, providerAccountId: identity.accountId };
  const [held] = await db
    .select({ id: linkedAccounts.id, userId: linkedAccounts.userId })
    .from(linkedAccounts)
    .where(and(eq(linkedAccounts.provider, link.provider), eq(linkedAccounts.providerAccountId, link.providerAccountId)));
  const fresh = { displayName: identity.displayName, profileUrl: identity.profileUrl };
  if (linkingUserId) {
    if (held && held.userId !== linkingUserId) return { ok: false, reason: 'linkedElsewhere' };
    if (held) {
      await db.update(linkedAccounts).set(fresh).where(eq(linkedAccounts.id, held.id));
      return { ok: true, kind: 'linked', userId: linkingUserId };
    }
    try {
      const inserted = await db.transaction(async (tx) => {
        const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, linkingUserId)).for('update');
        if (!user) return false;
        await tx.insert(linkedAccounts).values({ userId: linkingUserId, ...link, ...fresh });
        return true;
      });
      if (!inserted) return { ok: false, reason: 'userGone' };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Either index: this account was linked elsewhere meanwhile, or the user holds one of the provider.
      const [now] = await db
        .select({ userId: linkedAccounts.userId })
        .from(linkedAccounts)
        .where(and(eq(linkedAccounts.provider, link.provider), eq(linkedAccounts.providerAccountId, link.providerAccountId)));
      if (now?.userId === linkingUserId) return { ok: true, kind: 'linked', userId: linkingUserId };
      return { ok: false, reason: now ? 'linkedElsewhere' : 'alreadyLinked' };
    }
    changed(EVERYTHING);
    return { ok: true, kind: 'linked', userId: linkingUserId };
  }
  if (held) {
    await db.update(linkedAccounts).set(fresh).where(eq(linkedAccounts.id, held.id));
    return { ok: true, kind: 'signedIn', userId: held.userId, created: false };
  }
  return createLinkedAccount(db, identity);
}

/** Candidates for a new account's name, derived from the provider's name: itself, numbered, then with a random tail. */
export function usernameCandidates(providerName: string, fallback: string): string[] {
  let base = normalizeName(providerName)
    .replace(/[^\p{L}\p{N}_.-]+/gu, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '');
  if (hasInvisibleCharacters(base) || [...base].length < 3) base = fallback;
  base = [...base].slice(0, USERNAME_MAX - 5).join('');
  const numbered = Array.from({ length: 8 }, (_, i) => `${base}_${i + 2}`);
  const random = Array.from({ length: 4 }, () => `${base}_${newToken().replace(/[^a-z0-9]/gi, '').slice(0, 4).toLowerCase()}`);
  return [base, ...numbered, ...random];
}

/**
 * A new account for an identity no account has: a name of its own (look-alikes of taken names
 * refused, as at sign-up), no password (its owner may set one in the cabinet) and an address under
 * `.invalid` that receives nothing until its owner gives a real one. The account and its link are
 * written together.
 */
async function createLinkedAccount(db: Tx, identity: LinkedIdentity): Promise<Finished> {
  const fallback = identity.provider === 'steam' ? `steam_${identity.accountId.slice(-6)}` : `discord_${identity.accountId.slice(-6)}`;
  for (const username of usernameCandidates(identity.displayName, fallback)) {
    const [taken] = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.username})`, username.toLowerCase())).limit(1);
    if (taken || (await usernameLooksTaken(db, username))) continue;
    try {
      const userId = await db.transaction(async (tx) => {
        const [user] = await tx
          .insert(users)
          .values({
            username,
            ...skeletonColumns(username),
            email: `${identity.provider}.${identity.accountId}@linked.invalid`,
            passwordHash: NO_PASSWORD,
            locale: currentLocale(),
          })
          .returning({ id: users.id });
        await tx.insert(linkedAccounts).values({
          userId: user!.id,
          provider: identity.provider,
          providerAccountId: identity.accountId,
          displayName: identity.displayName,
          profileUrl: identity.profileUrl,
        });
        return user!.id;
      });
      return { ok: true, kind: 'signedIn', userId, created: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Two callbacks of one new account at once: the other made it, and this one signs in to it.
      const [held] = await db
        .select({ userId: linkedAccounts.userId })
        .from(linkedAccounts)
        .where(and(eq(linkedAccounts.provider, identity.provider), eq(linkedAccounts.providerAccountId, identity.accountId)));
      if (held) return { ok: true, kind: 'signedIn', userId: held.userId, created: false };
      // Otherwise the name (or a look-alike) was taken meanwhile: the next candidate.
    }
  }
  throw new Error('no free username for a new linked account');
}

/** A one-time code the login page exchanges for a session (60 s); only its hash is kept. */
export async function createHandoff(db: Tx, userId: string, created: boolean): Promise<string> {
  const code = newToken();
  const now = Date.now();
  await db.delete(signInHandoffs).where(lt(signInHandoffs.expiresAt, new Date(now - HANDOFF_TTL_MS)));
  await db.insert(signInHandoffs).values({ codeHash: hashToken(code), userId, created: created ? 'new' : 'existing', expiresAt: new Date(now + HANDOFF_TTL_MS) });
  return code;
}

/** The user a handoff code names, used up now; null when it is unknown, used or older than 60 s. */
export async function takeHandoff(db: Tx, code: string): Promise<{ userId: string; created: boolean } | null> {
  const [row] = await db
    .update(signInHandoffs)
    .set({ usedAt: new Date() })
    .where(and(eq(signInHandoffs.codeHash, hashToken(code)), isNull(signInHandoffs.usedAt), gt(signInHandoffs.expiresAt, new Date())))
    .returning({ userId: signInHandoffs.userId, created: signInHandoffs.created });
  return row ? { userId: row.userId, created: row.created === 'new' } : null;
}

const view = (row: typeof linkedAccounts.$inferSelect): LinkedAccountView => ({
  provider: row.provider,
  name: row.displayName,
  url: row.profileUrl,
  linkedAt: row.linkedAt.toISOString(),
});

/** A user's linked accounts, Discord first. */
export async function linkedAccountsOf(db: Tx, userId: string): Promise<LinkedAccountView[]> {
  const rows = await db.select().from(linkedAccounts).where(eq(linkedAccounts.userId, userId)).orderBy(asc(linkedAccounts.provider));
  return rows.map(view);
}

/** Whether a user can sign in by password: they have one, and a confirmed address (the login asks for both). */
const signsInByPassword = (row: { hash: string; confirmed: Date | null }) => row.hash !== NO_PASSWORD && row.confirmed !== null;

/** Whether the user can sign in without a provider: a password of their own and a confirmed address. */
export async function hasPassword(db: Tx, userId: string): Promise<boolean> {
  const [row] = await db.select({ hash: users.passwordHash, confirmed: users.emailConfirmedAt }).from(users).where(eq(users.id, userId));
  return Boolean(row && signsInByPassword(row));
}

export type Unlinked = { ok: true } | { ok: false; reason: 'notLinked' | 'lastWay' };

/**
 * Removes a linked account, unless it is the owner's last way in: an account that cannot sign in by
 * password (none, or no confirmed address yet) with this one link would be locked for good. The check and the delete hold the user's row, so two
 * unlinks at once cannot remove both of two links from such an account.
 */
export async function unlinkAccount(db: Tx, userId: string, provider: SignInProvider): Promise<Unlinked> {
  const result = await db.transaction(async (tx): Promise<Unlinked> => {
    const [user] = await tx.select({ hash: users.passwordHash, confirmed: users.emailConfirmedAt }).from(users).where(eq(users.id, userId)).for('update');
    const [links] = await tx.select({ n: count() }).from(linkedAccounts).where(eq(linkedAccounts.userId, userId));
    const [mine] = await tx
      .select({ id: linkedAccounts.id })
      .from(linkedAccounts)
      .where(and(eq(linkedAccounts.userId, userId), eq(linkedAccounts.provider, provider)));
    if (!mine || !user) return { ok: false, reason: 'notLinked' };
    if (!signsInByPassword(user) && (links?.n ?? 0) <= 1) return { ok: false, reason: 'lastWay' };
    await tx.delete(linkedAccounts).where(eq(linkedAccounts.id, mine.id));
    return { ok: true };
  });
  if (result.ok) changed(EVERYTHING);
  return result;
}

/** Of these users, the ones without a linked Steam account: whom a tournament that requires Steam refuses. */
export async function withoutSteam(db: Tx, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ userId: linkedAccounts.userId })
    .from(linkedAccounts)
    .where(and(eq(linkedAccounts.provider, 'steam'), inArray(linkedAccounts.userId, [...userIds])));
  const linked = new Set(rows.map((r) => r.userId));
  return userIds.filter((id) => !linked.has(id));
}
