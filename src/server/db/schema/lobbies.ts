import { integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { LOBBY_GAME_STATES, type FfaLine } from '../../../lib/domain/stage/free-for-all.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { stages } from './stages.ts';

/**
 * A free-for-all stage's lobbies (issue 59, decision 039): each round's lobbies with their members
 * in seed order. A lobby's id is the match id its games are entered under
 * (`PUT /api/matches/{id}/games/{n}`); the next round's lobbies are written when the last game of
 * a round is confirmed.
 */
export const stageLobbies = pgTable(
  'stage_lobbies',
  {
    id: id(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    /** 1 for the first round; the last round is one lobby, the final. */
    round: integer('round').notNull(),
    /** 1-based within its round. */
    number: integer('number').notNull(),
    members: jsonb('members').$type<string[]>().notNull(),
    /** Bumped by every game entered, proposed or corrected. */
    version: integer('version').notNull().default(0),
    scheduledAt: at('scheduled_at'),
    /** When its last game was confirmed; null while games are left. */
    completedAt: at('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('stage_lobbies_stage_round_number_idx').on(t.stageId, t.round, t.number)],
);

export const lobbyGames = pgTable(
  'lobby_games',
  {
    lobbyId: uuid('lobby_id')
      .notNull()
      .references(() => stageLobbies.id, { onDelete: 'cascade' }),
    /** 1 for the lobby's first game. */
    number: integer('number').notNull(),
    lines: jsonb('lines').$type<FfaLine[]>().notNull(),
    state: text('state', { enum: LOBBY_GAME_STATES }).notNull(),
    enteredBy: uuid('entered_by').references(() => users.id, { onDelete: 'set null' }),
    enteredAt: createdAt('entered_at'),
  },
  (t) => [primaryKey({ columns: [t.lobbyId, t.number] })],
);
