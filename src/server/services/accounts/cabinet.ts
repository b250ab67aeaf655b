import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Cabinet } from '../../../lib/api/cabinet.ts';
import type { UserRow } from './accounts.ts';
import type { Database, Tx } from '../../db/client.ts';
import { teamMembers, teams, users } from '../../db/schema/index.ts';
import { currentLocale } from '../../../lib/i18n/index.ts';
import { checkPassword, findByEmail, hashPassword, NO_PASSWORD, presentUser, queueEmailLetter } from './accounts.ts';
import { LOGIN_PATH } from '../../mail/letters.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { queueAccountLetter, sendLettersNow } from '../notices/notices.ts';
import { countLetter } from './letter-limits.ts';
import { type Limit, type RateLimiter, reserve } from '../rate-limit.ts';
import { LOGIN_LIMITS } from './login-attempts.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { type ProcessedImage, type UploadRefusal, deleteImage, processUpload, storeImage } from '../content/images.ts';
import { isLookAlikeViolation, skeletonColumns, usernameLooksTaken } from './names.ts';
import { revokeUserSessions } from './sessions.ts';
import { changed, EVERYTHING } from '../live/changes.ts';

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
    .orderBy(asc(teamMembers.joinedAt), asc(teams.id))
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
async function usernameConflict(db: Tx, userId: string, username: string): Promise<'taken' | 'lookAlike' | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(ne(users.id, userId), eq(sql`lower(${users.username})`, username.toLowerCase())))
    .limit(1);
  if (row) return 'taken';
  if (await usernameLooksTaken(db, username, userId)) return 'lookAlike';
  return null;
}

type ProfileSave = { ok: true; updated: UserRow; letters: string[] } | { ok: false; reason: 'taken' | 'lookAlike' };

/**
 * Saves a new username, a pending email and a new picture in one transaction, with the new
 * address's letter in the outbox: its confirmation token, or (`addressOwned`) word that the address
 * already has an account. A name taken at the same moment is refused by the unique indexes.
 */
async function saveProfile(
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
      // A name and a picture show on every page that shows the player.
      changed('sessions', EVERYTHING);
      if (current?.avatarImageId) await deleteImage(tx, current.avatarImageId);
      const letters: string[] = [];
      if (email && !change.addressOwned) letters.push(await queueEmailLetter(tx, row, 'email_change', email));
      else if (email) {
        letters.push(await queueAccountLetter(tx, { userId, kind: 'emailInUse', to: email, path: LOGIN_PATH, params: {}, locale: currentLocale() }));
      }
      return { ok: true as const, updated: row, letters };
    })
    .catch((error: unknown): ProfileSave => {
      if (isLookAlikeViolation(error)) return { ok: false, reason: 'lookAlike' };
      if (isUniqueViolation(error)) return { ok: false, reason: 'taken' };
      throw error;
    });
}

export type PasswordChange = { ok: true } | { ok: false; reason: 'wrongOldPassword' } | { ok: false; reason: 'tooMany'; retryAfter: number };

/**
 * Changes the caller's password after checking the old one; the caller's other sessions end, this
 * one stays. Guessing the old password through a stolen session is limited like one account from
 * one address is (`LOGIN_LIMITS.pair`): counted before the check, and given back when it was right.
 */
export async function changePassword(
  env: { db: Database; limits: RateLimiter },
  auth: { user: UserRow; sessionId: string },
  passwords: { oldPassword: string; newPassword: string },
): Promise<PasswordChange> {
  const { user, sessionId } = auth;
  const attempt = await reserve(env.limits, `password:user:${user.id}`, LOGIN_LIMITS.pair);
  if (!attempt.allowed) {
    await attempt.release();
    return { ok: false, reason: 'tooMany', retryAfter: attempt.retryAfter };
  }
  // An account a sign-in provider made has no old password to give: its first one is set from the session (decision 044).
  if (user.passwordHash !== NO_PASSWORD && !(await checkPassword(user, passwords.oldPassword))) return { ok: false, reason: 'wrongOldPassword' };
  await attempt.release();
  const passwordHash = await hashPassword(passwords.newPassword);
  await env.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await revokeUserSessions(tx, user.id, sessionId);
  });
  return { ok: true };
}

/** Pictures one user may upload in an hour. */
const UPLOAD_LIMIT: Limit = { max: 30, windowSeconds: 60 * 60 };

/** What the cabinet's profile form may change; an unchanged name or address counts as not given. */
export interface ProfileChange {
  username?: string | undefined;
  email?: string | undefined;
  avatar?: Blob | undefined;
}

export type ProfileUpdate =
  | { ok: true; updated: UserRow; changed: { username: boolean; email: boolean; picture: boolean } }
  | { ok: false; reason: 'nothingToChange' | 'taken' | 'lookAlike' }
  | { ok: false; reason: 'tooManyLetters' | 'tooManyUploads'; retryAfter: number }
  | { ok: false; reason: 'upload'; upload: UploadRefusal };

/**
 * The cabinet's profile save (SPEC §2 User cabinet): a new username, a new address (pending until
 * confirmed) and a new picture. Every refusal comes before anything changes.
 */
export async function updateProfile(
  env: { db: Database; limits: RateLimiter; mailer: Mailer; siteUrl: string },
  user: UserRow,
  change: ProfileChange,
): Promise<ProfileUpdate> {
  const { db, limits, mailer, siteUrl } = env;
  const username = change.username && change.username !== user.username ? change.username : undefined;
  const email = change.email && change.email.toLowerCase() !== user.email.toLowerCase() ? change.email : undefined;
  if (!change.avatar && !username && !email) return { ok: false, reason: 'nothingToChange' };

  const conflict = username ? await usernameConflict(db, user.id, username) : null;
  if (conflict) return { ok: false, reason: conflict };
  // A new address is answered alike whether or not another account has it (no probing whose
  // address is whose); its letter, counted like any letter anyone can make the site send, says
  // which it was. Counted before anything changes, so a refusal changes nothing.
  const addressOwner = email ? await findByEmail(db, email) : undefined;
  if (email) {
    const wait = await countLetter(limits, { account: user.id }, email);
    if (wait !== null) return { ok: false, reason: 'tooManyLetters', retryAfter: wait };
  }

  let picture: ProcessedImage | undefined;
  if (change.avatar) {
    const limit = await limits.hit(`upload:user:${user.id}`, UPLOAD_LIMIT);
    if (!limit.allowed) return { ok: false, reason: 'tooManyUploads', retryAfter: limit.retryAfter };
    const processed = await processUpload(change.avatar);
    if (typeof processed === 'string') return { ok: false, reason: 'upload', upload: processed };
    picture = processed;
  }

  const saved = await saveProfile(db, user.id, { username, email, addressOwned: Boolean(addressOwner), picture });
  if (!saved.ok) return saved;
  const { updated, letters } = saved;
  await sendLettersNow(db, { mailer, siteUrl }, letters);
  return { ok: true, updated, changed: { username: Boolean(username), email: Boolean(email), picture: Boolean(picture) } };
}
