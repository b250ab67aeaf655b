import { applications, games, tournaments } from '../schema/index.ts';
import { factory, uniqueName } from './factory.ts';

type GameInsert = typeof games.$inferInsert;
type TournamentInsert = typeof tournaments.$inferInsert;
type ApplicationInsert = typeof applications.$inferInsert;

const WEEK = 7 * 24 * 60 * 60 * 1000;

/** Games: a unique name, no image. */
export const gameFactory = factory(games, (overrides: Partial<GameInsert> = {}): GameInsert => ({
  name: uniqueName('Game '),
  image: null,
  ...overrides,
}));

/**
 * Tournaments: a team tournament with a unique title, a week from now, pending, with an empty
 * bracket and no cap; `gameId` is required.
 */
export const tournamentFactory = factory(tournaments, (overrides: Partial<TournamentInsert> & Pick<TournamentInsert, 'gameId'>): TournamentInsert => ({
  title: uniqueName('Cup '),
  description: '',
  date: new Date(Date.now() + WEEK),
  status: 'pending',
  soloOnly: false,
  image: null,
  bracket: [],
  maxParticipants: null,
  ...overrides,
}));

/**
 * Applications: pending, without a comment; `tournamentId` and `userId` (the player, or the captain
 * who applied for `teamId`) are required.
 */
export const applicationFactory = factory(
  applications,
  (overrides: Partial<ApplicationInsert> & Pick<ApplicationInsert, 'tournamentId' | 'userId'>): ApplicationInsert => ({
    teamId: null,
    status: 'pending',
    comment: '',
    checkedInAt: null,
    ...overrides,
  }),
);
