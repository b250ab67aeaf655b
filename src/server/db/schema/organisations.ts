import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ORGANISATION_ROLES, type OrganisationLinks } from '../../../lib/domain/organisation.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';

/** A club, school, streamer or federation branch hosting its own events (issue 56). */
export const organisations = pgTable(
  'organisations',
  {
    id: id(),
    /** Its address, `/org/{slug}`: lower-case Latin, digits and hyphens (lib/domain/organisation.ts). */
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    /** The name's confusable skeletons, as for users and teams (services/accounts/names.ts). */
    nameSkeleton: text('name_skeleton'),
    nameSkeletonUpper: text('name_skeleton_upper'),
    description: text('description').notNull().default(''),
    logoUrl: text('logo_url'),
    links: jsonb('links').$type<OrganisationLinks>().notNull().default({}),
    /** Set by the platform's admin: shown as a badge, and lifts the daily limit on new tournaments. */
    verified: boolean('verified').notNull().default(false),
    /** Set by the platform's admin: gone from every public list and page until lifted; nothing is deleted. */
    suspendedAt: at('suspended_at'),
    suspendedReason: text('suspended_reason'),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    uniqueIndex('organisations_slug_idx').on(t.slug),
    uniqueIndex('organisations_name_lower_idx').on(sql`lower(${t.name})`),
    uniqueIndex('organisations_name_skeleton_idx').on(t.nameSkeleton),
    uniqueIndex('organisations_name_skeleton_upper_idx').on(t.nameSkeletonUpper),
  ],
);

/** Who runs an organisation, and as what; exactly one owner each (the partial unique index). */
export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ORGANISATION_ROLES }).notNull(),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userId] }),
    index('organisation_members_user_idx').on(t.userId, t.role),
    uniqueIndex('organisation_members_one_owner_idx').on(t.organisationId).where(sql`${t.role} = 'owner'`),
  ],
);

/** Players who follow an organisation: told when it publishes a tournament. */
export const organisationFollows = pgTable(
  'organisation_follows',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] }), index('organisation_follows_user_idx').on(t.userId)],
);
