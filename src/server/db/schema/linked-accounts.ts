import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SIGN_IN_PROVIDERS } from '../../../lib/domain/linked-accounts.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';

/**
 * A game account linked to a user (issue 60, decision 044): their Discord or Steam account, which
 * they may also sign in with. One account of a provider per user, and one user per provider
 * account: an account linked to someone else is refused, never moved or merged.
 */
export const linkedAccounts = pgTable(
  'linked_accounts',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: SIGN_IN_PROVIDERS }).notNull(),
    /** Discord's user id, or the SteamID64. */
    providerAccountId: text('provider_account_id').notNull(),
    /** What the profile shows: the Discord name, the Steam persona (or the SteamID64 without a Web API key). */
    displayName: text('display_name').notNull(),
    /** The account's public page (Steam's profile); null for Discord, which has none to link. */
    profileUrl: text('profile_url'),
    linkedAt: createdAt('linked_at'),
  },
  (t) => [
    uniqueIndex('linked_accounts_provider_account_idx').on(t.provider, t.providerAccountId),
    uniqueIndex('linked_accounts_user_provider_idx').on(t.userId, t.provider),
  ],
);

/**
 * A sign-in or a link under way, between the start and the provider's callback: the state (its
 * SHA-256), the PKCE verifier, the browser's nonce (its SHA-256; the nonce is in an httpOnly cookie,
 * so a callback carried to another browser is refused) and, for a link, who asked. Used once, valid
 * ten minutes.
 */
export const signInFlows = pgTable(
  'sign_in_flows',
  {
    id: id(),
    stateHash: text('state_hash').notNull().unique(),
    browserHash: text('browser_hash').notNull(),
    provider: text('provider', { enum: SIGN_IN_PROVIDERS }).notNull(),
    /** The PKCE code verifier (Discord); empty for Steam. */
    verifier: text('verifier').notNull(),
    /** The signed-in user who links; null for a sign-in. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('sign_in_flows_expires_idx').on(t.expiresAt)],
);

/**
 * The one-time code a finished sign-in hands the browser (`/login?oauth=<code>`) for the login page
 * to exchange for a session: the bearer token itself never travels in an address. Its SHA-256, 60
 * seconds, used once.
 */
export const signInHandoffs = pgTable('sign_in_handoffs', {
  codeHash: text('code_hash').primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Whether the sign-in made the account, for the welcome the login page shows. */
  created: text('created', { enum: ['new', 'existing'] }).notNull(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});
