import { index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { AUDIT_KINDS } from '../../../lib/domain/organisers.ts';
import { createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { tournaments } from './tournaments.ts';

/** A tournament's co-organisers (issue 23): for that tournament only, they do what the admin does for it. */
export const tournamentStaff = pgTable(
  'tournament_staff',
  {
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tournamentId, t.userId] }), index('tournament_staff_user_idx').on(t.userId)],
);

/**
 * Who changed what in a competition, and when (issue 23): written in the same transaction as the
 * change. No foreign keys: a row outlives its tournament, match and actor (names are kept as
 * they were), and a trigger (migration 0009) refuses every UPDATE and DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    tournamentId: uuid('tournament_id'),
    /** The stage match the change was about, if any. */
    matchId: uuid('match_id'),
    /** Who made the change; null for the server itself (an automatic confirmation, a check-in close). */
    actorId: uuid('actor_id'),
    /** The actor's name at the time. */
    actorName: text('actor_name').notNull().default(''),
    kind: text('kind', { enum: AUDIT_KINDS }).notNull(),
    /** What the change was about (an application, a participant, a stage, a user): its id. */
    subjectId: uuid('subject_id'),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_tournament_idx').on(t.tournamentId, t.createdAt),
    index('audit_log_created_idx').on(t.createdAt),
    index('audit_log_actor_idx').on(t.actorId, t.createdAt),
  ],
);
