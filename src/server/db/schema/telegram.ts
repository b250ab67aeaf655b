import { bigint, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { notifications } from './notifications.ts';

/**
 * A user's Telegram (issue 60, decision 043): the private chat with the bot where their notices go
 * and their commands come from. One chat per account and one account per Telegram user: a chat
 * already linked to another account is refused, never moved.
 */
export const telegramLinks = pgTable(
  'telegram_links',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The private chat's id, which in Telegram is the user's own id. */
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** What the cabinet shows: the Telegram @username, or the first name when there is none. */
    username: text('username').notNull(),
    linkedAt: createdAt('linked_at'),
  },
  (t) => [uniqueIndex('telegram_links_chat_idx').on(t.chatId)],
);

/**
 * The one-time token of a deep link `t.me/<bot>?start=<token>`: stored as its SHA-256, valid 15
 * minutes, used once; a user holds one at a time (a new one replaces the old).
 */
export const telegramLinkTokens = pgTable('telegram_link_tokens', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: at('expires_at').notNull(),
  createdAt: createdAt(),
});

/**
 * The outbox of notices to Telegram: a row per notice for a linked reader, written in the statement
 * that stores the notice, claimed by a sender (`for update skip locked`) and deleted once Telegram
 * took it, the reader unlinked or blocked the bot, or it was given up (services/telegram/outbox.ts).
 */
export const telegramDeliveries = pgTable(
  'telegram_deliveries',
  {
    id: id(),
    notificationId: uuid('notification_id')
      .notNull()
      .unique()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => telegramLinks.userId, { onDelete: 'cascade' }),
    /** Tries so far; also the fence of a claim (only the latest claim may settle the row). */
    attempts: integer('attempts').notNull().default(0),
    /** Not tried before this moment: a sender's lease, or the wait after a failed try. Null: due now. */
    after: at('after'),
    createdAt: createdAt(),
  },
  (t) => [index('telegram_deliveries_created_idx').on(t.createdAt), index('telegram_deliveries_user_idx').on(t.userId)],
);
