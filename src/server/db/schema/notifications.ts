import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
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
    payload: jsonb('payload').$type<NotificationPayload>().notNull().default({}),
  },
  (t) => [index('notifications_user_date_idx').on(t.userId, t.date)],
);
