import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { NOTICE_KINDS } from '../../../lib/domain/match-day.ts';
import type { Locale } from '../../../lib/i18n/core.ts';
import type { AccountLetterKind } from '../../mail/letters.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';

export interface NotificationAction {
  label: string;
  type: 'accept' | 'reject';
}
export interface NotificationPayload {
  applicationId?: string;
  teamId?: string;
  tournamentId?: string;
}

/** What the notices' outbox (services/notices/notices.ts) keeps beside the payload; never shown. */
export interface NoticeMailPayload {
  /** A notice whose reader turned the bell off for its kind: kept only to carry its letter (services/notices/notices.ts). */
  mailOnly?: true;
  /**
   * A letter about an account (confirmation, address change) rather than a notice: queued in the
   * transaction that made its token, so the account, the token and the letter commit together.
   * Its `link` holds the page with the token until the letter is settled, then is cleared.
   */
  letter?: { kind: AccountLetterKind; to: string; params: Record<string, string>; locale: Locale };
}

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    date: createdAt('date'),
    read: boolean('read').notNull().default(false),
    actions: jsonb('actions').$type<NotificationAction[]>().notNull().default([]),
    actionType: text('action_type', {
      enum: ['acceptTeamInvite', 'declineTeamInvite', 'acceptTournamentInvite', 'declineTournamentInvite'],
    }),
    payload: jsonb('payload').$type<NotificationPayload & NoticeMailPayload>().notNull().default({}),
    /**
     * Match-day notices (issue 22) are stored as a kind and its parameters and worded in the
     * reader's language when read; `text` keeps the Ukrainian wording for older readers.
     */
    kind: text('kind', { enum: NOTICE_KINDS }),
    params: jsonb('params').$type<Record<string, string | number>>().notNull().default({}),
    /** The page the notice is about (a match, a tournament), as a site path. */
    link: text('link'),
    /**
     * The notice's letter (an outbox): `pending` until a sender on some instance took and sent it,
     * `failed` once it gave up; null when no letter is due (turned off, or not a notice).
     */
    mailState: text('mail_state', { enum: ['pending', 'sent', 'failed'] }),
    mailAttempts: integer('mail_attempts').notNull().default(0),
    /**
     * The outbox's clock: a pending letter is not tried before this moment — its sender's lease
     * while being sent, or the backoff after a failed try. Null when nothing holds it back.
     */
    mailAfter: at('mail_after'),
  },
  (t) => [
    index('notifications_user_date_idx').on(t.userId, t.date),
    // The outbox: letters still to send, oldest first (few rows, so the clock is read from them).
    index('notifications_mail_pending_idx').on(t.date).where(sql`${t.mailState} = 'pending'`),
  ],
);
