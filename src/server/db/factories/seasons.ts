import { SUGGESTED_POINTS } from '../../../lib/domain/season.ts';
import { seasons } from '../schema/index.ts';
import { factory, uniqueName } from './factory.ts';

type SeasonInsert = typeof seasons.$inferInsert;

/** A season (issue 59): `gameId` is required; the site's own, of no kind yet, with the suggested points, by default. */
export const seasonFactory = factory(
  seasons,
  (overrides: Partial<SeasonInsert> & Pick<SeasonInsert, 'gameId'>): SeasonInsert => ({
    name: uniqueName('Сезон '),
    pointsByPlace: [...SUGGESTED_POINTS],
    ...overrides,
  }),
);
