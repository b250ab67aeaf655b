import { users } from '../schema/index.ts';
import { hashPassword } from '../../services/accounts/accounts.ts';
import { skeletonColumns } from '../../services/accounts/names.ts';
import type { Tx } from '../client.ts';
import { factory, uniqueName } from './factory.ts';

type UserInsert = typeof users.$inferInsert;

/**
 * An account that exists only as data and never signs in: the argon2id hash of a random secret
 * thrown away when it was made, so a login with any password is refused as wrong (a hash that is
 * not argon2's would make the sign-in fail instead), and no account costs a hashing.
 */
export const NO_PASSWORD = '$argon2id$v=19$m=19456,t=2,p=1$0isVpUQNpQ9rB2qrP0Kicw$pBxykSKy2cnRqbbVr4g6hSIbqkQ9v7cZDBUaU+TAQgY';

/**
 * Accounts: a unique username, an address at example.test, confirmed now, no password; the name's
 * look-alike skeletons always follow the username given (services/accounts/names.ts).
 */
export const userFactory = factory(users, (overrides: Partial<UserInsert> = {}): UserInsert => {
  const username = overrides.username ?? uniqueName('player');
  return {
    email: `${username}@example.test`,
    passwordHash: NO_PASSWORD,
    emailConfirmedAt: new Date(),
    ...overrides,
    username,
    ...skeletonColumns(username),
  };
});

/** An account that signs in with `password` (hashed as the accounts service does). */
export async function insertAccount(db: Tx, overrides: Partial<UserInsert> & { password: string }) {
  const { password, ...rest } = overrides;
  return userFactory.insert(db, { ...rest, passwordHash: await hashPassword(password) });
}
