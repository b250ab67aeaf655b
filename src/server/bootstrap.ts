import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from './db/client.ts';
import { users } from './db/schema/index.ts';
import { createUser, findByEmail, findConflict, hashPassword } from './services/accounts/accounts.ts';
import { usernameLooksTaken } from './services/accounts/names.ts';

export type AdminBootstrap =
  | { kind: 'created'; email: string; username: string; password: string; generated: boolean }
  | { kind: 'updated'; email: string }
  | { kind: 'exists'; email: string };

/**
 * Makes sure an admin can sign in. Given ADMIN_EMAIL and ADMIN_PASSWORD, that account is made
 * admin with that password on every start; otherwise the first start creates `admin` with a
 * generated password, which is shown once.
 */
export async function ensureAdmin(db: Database, email: string, password: string | undefined): Promise<AdminBootstrap> {
  if (password) {
    const existing = await findByEmail(db, email);
    if (existing) {
      await db
        .update(users)
        .set({ role: 'admin', passwordHash: await hashPassword(password), emailConfirmedAt: existing.emailConfirmedAt ?? new Date() })
        .where(eq(users.id, existing.id));
      return { kind: 'updated', email };
    }
  } else {
    const [admin] = await db.select().from(users).where(eq(users.role, 'admin')).limit(1);
    if (admin) return { kind: 'exists', email: admin.email };
  }
  const generated = !password;
  const secret = password ?? randomBytes(12).toString('base64url');
  // `admin` taken, or a look-alike of it (`аdmin` with a Cyrillic а) registered before the check came.
  const taken = (await findConflict(db, 'admin', email)) === 'username' || (await usernameLooksTaken(db, 'admin'));
  const username = taken ? `admin-${randomBytes(3).toString('hex')}` : 'admin';
  await createUser(db, { username, email, password: secret, role: 'admin', confirmed: true });
  return { kind: 'created', email, username, password: secret, generated };
}
