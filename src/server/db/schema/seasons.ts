import { boolean, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { games } from './games.ts';
import { organisations } from './organisations.ts';

/**
 * A season (issue 59): a series of tournaments whose final places add up to one table by its points
 * table. Its tournaments point at it (`tournaments.season_id`); its table is computed when read, from
 * their places as they are then, so a corrected result counts at once.
 */
export const seasons = pgTable(
  'seasons',
  {
    id: id(),
    /** The organisation running it; null for the site's own, run by the site's admin. */
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'cascade' }),
    /** A game is deleted only while no tournament plays it: its seasons are empty then, and go with it. */
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Points for 1st, 2nd, … (lib/domain/season.ts `pointsRefusal`); places past the end score 0. */
    pointsByPlace: jsonb('points_by_place').$type<number[]>().notNull(),
    /** Players (true) or teams (false); null until the first tournament joins and decides. */
    soloOnly: boolean('solo_only'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [index('seasons_organisation_created_idx').on(t.organisationId, t.createdAt)],
);
