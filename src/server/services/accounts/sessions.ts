import { and, eq, gt, ne, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { sessions, teamMembers, users } from '../../db/schema/index.ts';
import { forgetHeldSessions, heldSession, holdSession, lookupBegins, SESSION_HOLD_MS } from './held-sessions.ts';
import { hashToken, newToken } from './tokens.ts';
import { changed, EVERYTHING, onChanges } from '../live/changes.ts';

// A change to who a caller is (`sessions`), here or on another instance, or anything at all (a
// lost link): no held session may be trusted after it (decision 026).
onChanges((tags) => {
  if (tags.has('sessions') || tags.has(EVERYTHING)) forgetHeldSessions();
});

/** Opens a session and returns its bearer token (shown once, stored only as a hash). */
export async function createSession(db: Tx, userId: string, ttlDays: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(Date.now() + ttlDays * 24 * 60 * 60 * 1000);
  await db.insert(sessions).values({ userId, tokenHash: hashToken(token), expiresAt });
  return { token, expiresAt };
}

/**
 * The session lookup behind every signed-in request: prepared, it costs a third of building it each
 * time. With the teams the user is a member of, held with the session: a team chat's message then
 * needs no read of its own to know its author is a member (routes/team-chat.ts). Every write that
 * changes a membership forgets the held sessions (`sessionsChangedBy`), so they are as current as
 * the user row beside them.
 */
const sessionByToken = prepared((db) =>
  db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      user: users,
      teamIds: sql<string[]>`coalesce((select json_agg(${teamMembers.teamId}) from ${teamMembers} where ${teamMembers.userId} = ${users.id}), '[]'::json)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, sql.placeholder('tokenHash')), gt(sessions.expiresAt, sql.placeholder('now'))))
    .prepare('session_by_token'),
);

type Found = NonNullable<Awaited<ReturnType<ReturnType<typeof sessionByToken>['execute']>>[number]>;

/** The live session behind a bearer token with its user, or null when unknown or expired; held a few seconds once found (decision 026). */
export async function findSession(db: Database, token: string, now = Date.now()): Promise<Found | null> {
  const tokenHash = hashToken(token);
  const held = heldSession(tokenHash, now) as Found | undefined;
  if (held) return held;
  const began = lookupBegins();
  const [row] = await sessionByToken(db).execute({ tokenHash, now: new Date(now) });
  if (!row) return null;
  holdSession(tokenHash, row, Math.min(now + SESSION_HOLD_MS, row.expiresAt.getTime()), began);
  return row;
}

export async function revokeSession(db: Tx, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
  changed('sessions');
}

/** Signs a user out everywhere, except the session given (the one that asked). */
export async function revokeUserSessions(db: Tx, userId: string, keepSessionId?: string): Promise<void> {
  changed('sessions');
  await db
    .delete(sessions)
    .where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

/** An admin signs a user out everywhere; false when there is no such user. */
export async function signOutEverywhere(db: Tx, userId: string): Promise<boolean> {
  const [target] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!target) return false;
  await revokeUserSessions(db, userId);
  return true;
}
