import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { games } from './games.ts';
import { teams } from './teams.ts';

/** One slot pair of a bracket as SPEC §3 names it: ids of users or teams, empty until known. */
export interface StoredMatch {
  a: string | null;
  b: string | null;
  winner: string | null;
  loser: string | null;
  comment: string;
}
export interface StoredRound {
  round: number;
  matches: StoredMatch[];
}

export const tournaments = pgTable(
  'tournaments',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    date: at('date').notNull(),
    status: text('status').notNull().default('pending'),
    soloOnly: boolean('solo_only').notNull().default(false),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'restrict' }),
    image: text('image'),
    winnerType: text('winner_type', { enum: ['user', 'team'] }),
    winnerId: uuid('winner_id'),
    bracket: jsonb('bracket').$type<StoredRound[]>().notNull().default([]),
    /** Bumped on every bracket save, so a save based on an older copy can be refused. */
    bracketVersion: integer('bracket_version').notNull().default(0),
    statsEnabled: boolean('stats_enabled').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    // A game's list, newest first; its status, type and sort filters work on that list in the
    // browser. The list of every game is read whole, where a scan and a sort beat any index.
    index('tournaments_game_date_idx').on(t.gameId, t.date),
    index('tournaments_status_idx').on(t.status),
  ],
);

export const applications = pgTable(
  'applications',
  {
    id: id(),
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    /** The applicant: the player for solo, the captain who applied for a team. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['pending', 'approved', 'rejected'] }).notNull().default('pending'),
    comment: text('comment').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    // A tournament's applications by status in the order they came: participants (approved), the
    // bracket, the roster, and the admin list filtered by tournament and status.
    index('applications_tournament_status_idx').on(t.tournamentId, t.status, t.createdAt),
    // The admin list filtered by status alone (pending first of all). A player's or a team's own
    // live application is found through the partial unique indexes below.
    index('applications_status_created_idx').on(t.status, t.createdAt),
    // One live (pending or approved) application per player, and per team, in a tournament.
    uniqueIndex('applications_live_solo_idx')
      .on(t.tournamentId, t.userId)
      .where(sql`${t.teamId} is null and ${t.status} <> 'rejected'`),
    uniqueIndex('applications_live_team_idx')
      .on(t.tournamentId, t.teamId)
      .where(sql`${t.teamId} is not null and ${t.status} <> 'rejected'`),
  ],
);
