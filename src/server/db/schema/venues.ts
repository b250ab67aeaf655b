import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { VENUE_NETWORK_STATUSES } from '../../../lib/domain/venue-networks.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { tournaments } from './tournaments.ts';

/**
 * A tournament's venue network (issue 57, decision 035): asked for by its organisers, approved or
 * refused by the site's admin. At most one waiting or approved per tournament (the partial unique
 * index); refused and withdrawn ones stay as they were. It works in the window around the
 * tournament's date (lib/domain/venue-networks.ts), so no column holds one.
 */
export const venueNetworks = pgTable(
  'venue_networks',
  {
    id: id(),
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    /** IPs and CIDR networks, checked as TRUSTED_VENUE_NETWORKS' entries are (server/env.ts `venueProblem`). */
    networks: jsonb('networks').$type<string[]>().notNull(),
    /** The venue's name, for the admin who decides. */
    note: text('note').notNull(),
    status: text('status', { enum: VENUE_NETWORK_STATUSES }).notNull().default('pending'),
    requestedBy: uuid('requested_by').references(() => users.id, { onDelete: 'set null' }),
    /** The admin who approved or refused it, and when. */
    decidedBy: uuid('decided_by').references(() => users.id, { onDelete: 'set null' }),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('venue_networks_live_idx').on(t.tournamentId).where(sql`${t.status} in ('pending', 'approved')`),
    index('venue_networks_status_idx').on(t.status, t.createdAt),
  ],
);
