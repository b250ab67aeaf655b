import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { NoticeSettings } from '../../../lib/domain/match-day.ts';
import { locales } from '../../../lib/i18n/core.ts';
import { at, createdAt, id } from './columns.ts';
import { images } from './images.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin'] }).notNull().default('user'),
    emailConfirmedAt: at('email_confirmed_at'),
    /** A new address waits here until its confirmation letter is opened. */
    pendingEmail: text('pending_email'),
    avatarImageId: uuid('avatar_image_id').references(() => images.id, { onDelete: 'set null' }),
    /**
     * The username's confusable skeletons (lib/domain/names.ts), in lower and in upper case: a name
     * that looks like another cannot be taken, even by two registrations at once. NULL for an older
     * name that already looked like an earlier one when the columns came (it keeps its name).
     */
    nameSkeleton: text('name_skeleton'),
    nameSkeletonUpper: text('name_skeleton_upper'),
    /** The language letters and notices are written in: the one the user last signed in with (issue 22). */
    locale: text('locale', { enum: locales as ['uk', 'en'] }).notNull().default('uk'),
    /** The secret of the personal calendar feed's URL; null until asked for, replaced on revoke (issue 22). */
    calendarToken: text('calendar_token'),
    /** Notice kinds the user turned off, per channel (issue 22). */
    noticeSettings: jsonb('notice_settings').$type<NoticeSettings>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('users_username_lower_idx').on(sql`lower(${t.username})`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    uniqueIndex('users_name_skeleton_idx').on(t.nameSkeleton),
    uniqueIndex('users_name_skeleton_upper_idx').on(t.nameSkeletonUpper),
    uniqueIndex('users_calendar_token_idx').on(t.calendarToken),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the bearer token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const emailTokens = pgTable(
  'email_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    purpose: text('purpose', { enum: ['confirm', 'email_change'] }).notNull(),
    email: text('email').notNull(),
    createdAt: createdAt(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('email_tokens_user_idx').on(t.userId)],
);

/** Fixed-window counters shared by every app instance (login, registration, mail, uploads). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStart: at('window_start').notNull(),
  count: integer('count').notNull(),
});
