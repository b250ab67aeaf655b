import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Cabinet } from '../../lib/api/cabinet.ts';
import type { UserRow } from './accounts.ts';
import type { Database, Tx } from '../db/client.ts';
import { teamMembers, teams, users } from '../db/schema/index.ts';
import { issueEmailToken, presentUser } from './accounts.ts';
import { isUniqueViolation } from './db-errors.ts';
import { type ProcessedImage, deleteImage, storeImage } from './images.ts';
import { isLookAlikeViolation, skeletonColumns, usernameLooksTaken } from './names.ts';
import { revokeUserSessions } from './sessions.ts';

/** The cabinet view of a user: profile, pending email and their current (first) team. */
export async function presentCabinet(db: Tx, user: UserRow): Promise<Cabinet> {
  const base = await presentUser(db, user);
  const [first] = await db
    .select({
      _id: teams.id,
      name: teams.name,
      logoUrl: teams.logoUrl,
      captain: teams.captainId,
      membersCount: sql<number>`(select ${count()} from ${teamMembers} tm where tm.team_id = ${teams.id})`.mapWith(Number),
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, user.id))
    .orderBy(asc(teamMembers.joinedAt))
    .limit(1);
  return {
    ...base,
    pendingEmail: user.pendingEmail,
    createdAt: user.createdAt.toISOString(),
    myTeam: first ?? null,
    isCaptain: first?.captain === user.id,
  };
}

/** Whether another account already has this username (any case), or one that looks like it. */
export async function usernameConflict(db: Tx, userId: string, username: string): Promise<'taken' | 'lookAlike' | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.id, userId), eq(sql`lower(${users.username})`, username.toLowerCase())))
    .limit(1);
  if (row) return 'taken';
  if (await usernameLooksTaken(db, username, userId)) return 'lookAlike';
  return null;
}

export type ProfileSave = { ok: true; updated: UserRow; emailToken: string | undefined } | { ok: false; reason: 'taken' | 'lookAlike' };

/**
 * Saves a new username, a pending email (with its confirmation token unless `addressOwned`) and a
 * new picture in one transaction. A name taken at the same moment is refused by the unique indexes.
 */
export async function saveProfile(
  db: Database,
  userId: string,
  change: { username?: string | undefined; email?: string | undefined; addressOwned: boolean; picture?: ProcessedImage | undefined },
): Promise<ProfileSave> {
  const { username, email, picture } = change;
  return db
    .transaction(async (tx) => {
      const changes: Partial<typeof users.$inferInsert> = {};
      if (username) Object.assign(changes, { username, ...skeletonColumns(username) });
      if (email) changes.pendingEmail = email;
      // The picture being replaced is read under the row's lock, not taken from the session's
      // copy: parallel uploads each replace the one before them, and none is left unreferenced.
      const [current] = picture
        ? await tx.select({ avatarImageId: users.avatarImageId }).from(users).where(eq(users.id, userId)).for('update')
        : [];
      if (picture) changes.avatarImageId = await storeImage(tx, picture);
      const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
      if (!row) throw new Error('user vanished during update');
      if (current?.avatarImageId) await deleteImage(tx, current.avatarImageId);
      const token = email && !change.addressOwned ? await issueEmailToken(tx, row, 'email_change', email) : undefined;
      return { ok: true as const, updated: row, emailToken: token };
    })
    .catch((error: unknown): ProfileSave => {
      if (isLookAlikeViolation(error)) return { ok: false, reason: 'lookAlike' };
      if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
      throw error;
    });
}

/** Sets a new password and ends every other session of the user, in one transaction. */
export async function changePassword(db: Database, userId: string, passwordHash: string, keepSessionId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    await revokeUserSessions(tx, userId, keepSessionId);
  });
}
