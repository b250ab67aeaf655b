import { hash, verify } from '@node-rs/argon2';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { RegisterInput, User } from '../../../lib/api/auth.ts';
import { currentLocale, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { emailTokens, teamMembers, users } from '../../db/schema/index.ts';
import { confirmPath } from '../../mail/letters.ts';
import { avatarUrl } from './avatars.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { queueAccountLetter } from '../notices/notices.ts';
import { skeletonColumns } from './names.ts';
import { hashToken, newToken } from './tokens.ts';
import { changed } from '../live/changes.ts';

/** A user as stored (password hash included): what the session lookup gives routes and services. */
export type UserRow = typeof users.$inferSelect;

const CONFIRM_TTL_MS = 48 * 60 * 60 * 1000;

/** The password hash of an account made by a sign-in provider (decision 044): no password opens it. */
export const NO_PASSWORD = '';

/** Argon2id with the library's defaults (19 MiB, 2 passes): OWASP's recommended minimum. */
export const hashPassword = (password: string) => hash(password);

// Verifying against a throw-away hash when the login is unknown keeps both answers equally slow.
let decoyHash: Promise<string> | undefined;
export async function checkPassword(user: UserRow | undefined, password: string): Promise<boolean> {
  // An account made by a sign-in provider has no password (NO_PASSWORD) until its owner sets one.
  if (!user || user.passwordHash === NO_PASSWORD) {
    decoyHash ??= hash('decoy-password-never-used');
    await verify(await decoyHash, password);
    return false;
  }
  return verify(user.passwordHash, password);
}

const lower = (column: typeof users.username | typeof users.email) => sql`lower(${column})`;

export async function findByLogin(db: Tx, loginOrEmail: string): Promise<UserRow | undefined> {
  // Names are stored in NFKC (lib/domain/names.ts): a name typed in fullwidth letters finds its owner.
  const value = loginOrEmail.normalize('NFKC').toLowerCase();
  const [row] = await db
    .select()
    .from(users)
    .where(or(eq(lower(users.username), value), eq(lower(users.email), value)))
    .limit(1);
  return row;
}

/**
 * The user named by id or by nickname (never by address: a list of members must not tell whether
 * an address has an account).
 */
export async function findByIdOrName(db: Tx, query: string): Promise<UserRow | undefined> {
  const value = query.normalize('NFKC').trim();
  const isId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
  const [row] = await db
    .select()
    .from(users)
    .where(isId ? eq(users.id, value.toLowerCase()) : eq(lower(users.username), value.toLowerCase()))
    .limit(1);
  return row;
}

export async function findByEmail(db: Tx, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(lower(users.email), email.toLowerCase())).limit(1);
  return row;
}

/** Which unique field a new username or email would collide with, if any. */
export async function findConflict(db: Tx, username: string, email: string): Promise<'username' | 'email' | null> {
  const rows = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(eq(lower(users.username), username.toLowerCase()), eq(lower(users.email), email.toLowerCase())));
  if (rows.some((r) => r.username.toLowerCase() === username.toLowerCase())) return 'username';
  if (rows.length > 0) return 'email';
  return null;
}

type AccountInput = RegisterInput & { role?: 'user' | 'admin'; confirmed?: boolean; locale?: Locale };

/** A new account's row; the password is hashed here, before any transaction is open (argon2 takes a while). */
async function accountValues(input: AccountInput): Promise<typeof users.$inferInsert> {
  return {
    username: input.username,
    ...skeletonColumns(input.username),
    email: input.email,
    passwordHash: await hashPassword(input.password),
    role: input.role ?? 'user',
    emailConfirmedAt: input.confirmed ? new Date() : null,
    // Letters to them are written in the language they signed up in.
    locale: input.locale ?? currentLocale(),
  };
}

async function insertAccount(db: Tx, values: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error('insert returned no user');
  return row;
}

/** An account made without a letter (the seed, the first admin, tests). */
export async function createUser(db: Tx, input: AccountInput): Promise<UserRow> {
  return insertAccount(db, await accountValues(input));
}

/**
 * A sign-up: the account, its confirmation token and the letter's outbox row in one transaction,
 * so a failure of any leaves none of them (and the name free to try again). Returns the letter's
 * outbox id, to send once committed (notices.ts `sendLettersNow`).
 */
export async function registerAccount(db: Tx, input: RegisterInput): Promise<{ user: UserRow; letter: string }> {
  const values = await accountValues(input);
  return db.transaction(async (tx) => {
    const user = await insertAccount(tx, values);
    return { user, letter: await queueEmailLetter(tx, user, 'confirm', user.email) };
  });
}

/** Another confirmation letter for an account not yet confirmed: its token and letter together. */
export async function queueConfirmation(db: Tx, user: UserRow): Promise<string> {
  return db.transaction((tx) => queueEmailLetter(tx, user, 'confirm', user.email));
}

/** A one-time token for a confirmation letter; only its hash is kept. */
async function issueEmailToken(db: Tx, user: UserRow, purpose: 'confirm' | 'email_change', email: string) {
  const token = newToken();
  await db.insert(emailTokens).values({
    userId: user.id,
    tokenHash: hashToken(token),
    purpose,
    email,
    expiresAt: new Date(Date.now() + CONFIRM_TTL_MS),
  });
  return token;
}

/**
 * A confirmation token and its letter (to `email`, in the request's language), in the caller's
 * transaction. Returns the letter's outbox id.
 */
export async function queueEmailLetter(tx: Tx, user: UserRow, purpose: 'confirm' | 'email_change', email: string): Promise<string> {
  const token = await issueEmailToken(tx, user, purpose, email);
  return queueAccountLetter(tx, {
    userId: user.id,
    kind: purpose === 'confirm' ? 'confirm' : 'emailChange',
    to: email,
    path: confirmPath(token),
    params: { username: user.username },
    locale: currentLocale(),
  });
}

export type ConfirmResult = 'confirmed' | 'invalid' | 'emailTaken';

/**
 * Spends a confirmation token: marks the address confirmed, or switches to the new address,
 * unless someone else registered it in the meantime.
 */
export async function confirmEmailToken(db: Tx, token: string): Promise<ConfirmResult> {
  const attempt = db.transaction(async (tx): Promise<ConfirmResult> => {
    const [row] = await tx
      .update(emailTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(emailTokens.tokenHash, hashToken(token)), isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date())))
      .returning();
    if (!row) return 'invalid';
    // A confirmed address lets its owner do more, and a new address is who they are: both in the session.
    changed('sessions');
    if (row.purpose === 'confirm') {
      await tx.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, row.userId));
    } else {
      await tx
        .update(users)
        .set({ email: row.email, pendingEmail: null, emailConfirmedAt: new Date() })
        .where(and(eq(users.id, row.userId), eq(users.pendingEmail, row.email)));
    }
    return 'confirmed';
  });
  return attempt.catch((error: unknown) => {
    if (isUniqueViolation(error)) return 'emailTaken';
    throw error;
  });
}

/** The user as the API shows it, with the ids of their teams (first is the current team). */
export async function presentUser(db: Tx, user: UserRow): Promise<User> {
  const memberships = await db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.userId, user.id))
    .orderBy(teamMembers.joinedAt);
  const teams = memberships.map((m) => m.teamId);
  return {
    _id: user.id,
    username: user.username,
    email: user.email,
    avatar: avatarUrl(user.id, user.avatarImageId),
    role: user.role,
    teams,
    team: teams[0] ?? null,
  };
}
