/*
 * The factories the demo seed (db/seed.ts) and the tests (tests/support) build their rows with.
 * Each gives a table's row with defaults a caller overrides (`values`) and writes it (`insert`,
 * `insertMany`); a schema change — a new required column, a column derived from another — is
 * taught here once.
 */
export { factory, uniqueName, type Factory } from './factory.ts';
export { insertAccount, NO_PASSWORD, userFactory } from './accounts.ts';
export { chatMessageFactory, insertTeam, teamFactory, teamInviteFactory, teamMemberFactory, type Member } from './teams.ts';
export { applicationFactory, gameFactory, tournamentFactory } from './competition.ts';
export { newsFactory, notificationFactory, savedNewsFactory } from './content.ts';
export {
  achievementFactory,
  earnedAchievementFactory,
  gameStatsConfigFactory,
  matchFactory,
  matchParticipantFactory,
  playerGameStatsFactory,
  statFieldFactory,
  teamGameStatsFactory,
} from './statistics.ts';
export { matchActionFactory, stageFactory, stageMatchFactory, stageRoundFactory } from './stages.ts';
export { organisationFactory, organisationFollowFactory, organisationMemberFactory } from './organisations.ts';
export { seasonFactory } from './seasons.ts';
export { venueNetworkFactory } from './venues.ts';
