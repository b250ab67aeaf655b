import { boolean, check, index, integer, jsonb, pgTable, real, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { at, createdAt, id, winRateKey } from './columns.ts';
import { users } from './accounts.ts';
import { achievements, games } from './games.ts';
import { teams } from './teams.ts';
import { stageLobbies } from './lobbies.ts';
import { stageMatches } from './stages.ts';
import { tournaments } from './tournaments.ts';
import { PARTICIPANT_TYPES } from '../../../lib/domain/participant.ts';

export const matches = pgTable(
  'matches',
  {
    id: id(),
    tournamentId: uuid('tournament_id').references(() => tournaments.id, { onDelete: 'set null' }),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['completed', 'in_progress', 'scheduled', 'cancelled'] })
      .notNull()
      .default('completed'),
    isDraw: boolean('is_draw').notNull().default(false),
    /** Minutes. */
    duration: integer('duration'),
    gameSpecificData: jsonb('game_specific_data').$type<Record<string, string | number>>().notNull().default({}),
    completedAt: at('completed_at'),
    createdAt: createdAt(),
    /** The stage match this record counts (issue 21): withdrawn and written again when its result changes. */
    stageMatchId: uuid('stage_match_id').references(() => stageMatches.id, { onDelete: 'set null' }),
    /** The free-for-all lobby this record counts (issue 59, decision 039): its final table, one side a member. */
    lobbyId: uuid('lobby_id').references(() => stageLobbies.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('matches_stage_match_idx').on(t.stageMatchId),
    uniqueIndex('matches_lobby_idx').on(t.lobbyId),
    index('matches_game_created_idx').on(t.gameId, t.createdAt),
    // Deleting a tournament clears its matches' link to it.
    index('matches_tournament_idx').on(t.tournamentId),
  ],
);

export const matchParticipants = pgTable(
  'match_participants',
  {
    id: id(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => matches.id, { onDelete: 'cascade' }),
    participantType: text('participant_type', { enum: PARTICIPANT_TYPES }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    score: integer('score').notNull().default(0),
    isWinner: boolean('is_winner').notNull().default(false),
    /** Its place in a free-for-all lobby's final table (1 the winner); null for a match of two sides. */
    placement: integer('placement'),
    stats: jsonb('stats').$type<Record<string, number>>().notNull().default({}),
    /** The participant's rating in the match's game right after it (issue 23: the profile's chart); null for a match not rated. */
    ratingAfter: real('rating_after'),
  },
  (t) => [
    index('match_participants_match_idx').on(t.matchId),
    index('match_participants_user_idx').on(t.userId),
    index('match_participants_team_idx').on(t.teamId),
  ],
);

const competitorStats = {
  gameId: uuid('game_id')
    .notNull()
    .references(() => games.id, { onDelete: 'cascade' }),
  rating: real('rating').notNull().default(1000),
  matchesPlayed: integer('matches_played').notNull().default(0),
  matchesWon: integer('matches_won').notNull().default(0),
  matchesLost: integer('matches_lost').notNull().default(0),
  /** Positive for a run of wins, negative for a run of losses. */
  currentStreak: integer('current_streak').notNull().default(0),
  /** Running totals of the game's stat fields. */
  totals: jsonb('totals').$type<Record<string, number>>().notNull().default({}),
  updatedAt: createdAt('updated_at'),
};

export const playerGameStats = pgTable(
  'player_game_stats',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...competitorStats,
  },
  (t) => [
    uniqueIndex('player_game_stats_user_game_idx').on(t.userId, t.gameId),
    // One index per sort the leaderboard offers, each within a game (rating serves both directions).
    index('player_game_stats_game_rating_idx').on(t.gameId, t.rating),
    index('player_game_stats_game_wins_idx').on(t.gameId, t.matchesWon),
    index('player_game_stats_game_winrate_idx').on(t.gameId, sql`${winRateKey(t.matchesWon, t.matchesPlayed)} desc nulls last`),
  ],
);

export const teamGameStats = pgTable(
  'team_game_stats',
  {
    id: id(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    ...competitorStats,
  },
  (t) => [
    uniqueIndex('team_game_stats_team_game_idx').on(t.teamId, t.gameId),
    index('team_game_stats_game_rating_idx').on(t.gameId, t.rating),
    index('team_game_stats_game_wins_idx').on(t.gameId, t.matchesWon),
    index('team_game_stats_game_winrate_idx').on(t.gameId, sql`${winRateKey(t.matchesWon, t.matchesPlayed)} desc nulls last`),
  ],
);

export const earnedAchievements = pgTable(
  'earned_achievements',
  {
    id: id(),
    achievementId: uuid('achievement_id')
      .notNull()
      .references(() => achievements.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    earnedAt: createdAt('earned_at'),
  },
  (t) => [
    uniqueIndex('earned_achievements_user_idx').on(t.achievementId, t.userId),
    uniqueIndex('earned_achievements_team_idx').on(t.achievementId, t.teamId),
    // What a player or a team holds: leaderboard badges and the player's achievements.
    index('earned_achievements_owner_user_idx').on(t.userId),
    index('earned_achievements_owner_team_idx').on(t.teamId),
    check('earned_achievements_owner', sql`(${t.userId} is null) <> (${t.teamId} is null)`),
  ],
);
