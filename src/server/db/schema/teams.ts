import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { images } from './images.ts';

export const teams = pgTable(
  'teams',
  {
    id: id(),
    name: text('name').notNull(),
    logoUrl: text('logo_url'),
    logoImageId: uuid('logo_image_id').references(() => images.id, { onDelete: 'set null' }),
    captainId: uuid('captain_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The name's confusable skeletons, as for users (NULL for an older name that already looked like an earlier one). */
    nameSkeleton: text('name_skeleton'),
    nameSkeletonUpper: text('name_skeleton_upper'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('teams_name_lower_idx').on(sql`lower(${t.name})`),
    uniqueIndex('teams_name_skeleton_idx').on(t.nameSkeleton),
    uniqueIndex('teams_name_skeleton_upper_idx').on(t.nameSkeletonUpper),
  ],
);

export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: createdAt('joined_at'),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.userId] }), index('team_members_user_idx').on(t.userId)],
);

export const teamInvites = pgTable(
  'team_invites',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    invitedById: uuid('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * Made by email address: only the invitee sees it, so a captain cannot learn from the team's
     * list of invites whether, or whose, an account is behind an address.
     */
    byEmail: boolean('by_email').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('team_invites_team_user_idx').on(t.teamId, t.userId), index('team_invites_user_idx').on(t.userId)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chat_messages_team_created_idx').on(t.teamId, t.createdAt)],
);
