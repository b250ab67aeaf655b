import { achievements, earnedAchievements, gameStatsConfigs, matches, matchParticipants, playerGameStats, statFields, teamGameStats } from '../schema/index.ts';
import { factory, uniqueName } from './factory.ts';

type StatsConfigInsert = typeof gameStatsConfigs.$inferInsert;
type StatFieldInsert = typeof statFields.$inferInsert;
type AchievementInsert = typeof achievements.$inferInsert;
type EarnedInsert = typeof earnedAchievements.$inferInsert;
type PlayerStatsInsert = typeof playerGameStats.$inferInsert;
type TeamStatsInsert = typeof teamGameStats.$inferInsert;
type MatchInsert = typeof matches.$inferInsert;
type ParticipantInsert = typeof matchParticipants.$inferInsert;

/** A game's statistics configuration (its game then has statistics): the default template; `gameId` is required. */
export const gameStatsConfigFactory = factory(
  gameStatsConfigs,
  (overrides: Partial<StatsConfigInsert> & Pick<StatsConfigInsert, 'gameId'>): StatsConfigInsert => ({
    template: 'default',
    ...overrides,
  }),
);

/** A game's stat fields: a unique number field, general, not the main stat; `gameId` is required. */
export const statFieldFactory = factory(statFields, (overrides: Partial<StatFieldInsert> & Pick<StatFieldInsert, 'gameId'>): StatFieldInsert => ({
  fieldName: uniqueName('field_'),
  displayName: 'Поле',
  fieldType: 'number',
  category: 'general',
  isMainStat: false,
  description: '',
  icon: '📊',
  ...overrides,
}));

/**
 * A game's achievements: a unique name, common, earned by a first win; `gameId` is required. The
 * condition is stored as given (the admin's routes check it; a test may store one they would refuse).
 */
export const achievementFactory = factory(achievements, (overrides: Partial<AchievementInsert> & Pick<AchievementInsert, 'gameId'>): AchievementInsert => ({
  name: uniqueName('Досягнення '),
  description: 'Опис',
  condition: 'wins >= 1',
  icon: '🏆',
  rarity: 'common',
  ...overrides,
}));

/** An achievement earned, now; `achievementId` and its holder (`userId` or `teamId`, exactly one) are required. */
export const earnedAchievementFactory = factory(
  earnedAchievements,
  (overrides: Pick<EarnedInsert, 'achievementId'> & Partial<EarnedInsert> & ({ userId: string } | { teamId: string })): EarnedInsert => ({
    userId: null,
    teamId: null,
    ...overrides,
  }),
);

/** The standing every leaderboard row starts from: 1000, no matches, no streak, no totals. */
const fresh = { rating: 1000, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0, totals: {} };

/** A player's leaderboard row in a game, fresh; `userId` and `gameId` are required. */
export const playerGameStatsFactory = factory(
  playerGameStats,
  (overrides: Partial<PlayerStatsInsert> & Pick<PlayerStatsInsert, 'userId' | 'gameId'>): PlayerStatsInsert => ({ ...fresh, ...overrides }),
);

/** A team's leaderboard row in a game, fresh; `teamId` and `gameId` are required. */
export const teamGameStatsFactory = factory(
  teamGameStats,
  (overrides: Partial<TeamStatsInsert> & Pick<TeamStatsInsert, 'teamId' | 'gameId'>): TeamStatsInsert => ({ ...fresh, ...overrides }),
);

/**
 * Recorded matches: completed now, not a draw, outside any tournament or stage, without details;
 * `gameId` is required. Its sides are `matchParticipantFactory`'s.
 */
export const matchFactory = factory(matches, (overrides: Partial<MatchInsert> & Pick<MatchInsert, 'gameId'>): MatchInsert => ({
  tournamentId: null,
  status: 'completed',
  isDraw: false,
  duration: null,
  gameSpecificData: {},
  completedAt: new Date(),
  stageMatchId: null,
  ...overrides,
}));

/**
 * A side of a recorded match: no score, not the winner, no stats, not rated; `matchId`,
 * `participantType` and the side's `name` are required (with its `userId` or `teamId`).
 */
export const matchParticipantFactory = factory(
  matchParticipants,
  (overrides: Partial<ParticipantInsert> & Pick<ParticipantInsert, 'matchId' | 'participantType' | 'name'>): ParticipantInsert => ({
    userId: null,
    teamId: null,
    score: 0,
    isWinner: false,
    stats: {},
    ratingAfter: null,
    ...overrides,
  }),
);
