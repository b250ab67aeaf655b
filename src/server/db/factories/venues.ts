import { venueNetworks } from '../schema/index.ts';
import { factory, uniqueName } from './factory.ts';

type VenueNetworkInsert = typeof venueNetworks.$inferInsert;

/** An organiser's venue network (issue 57): `tournamentId` is required; a documentation network, waiting for the admin, by default. */
export const venueNetworkFactory = factory(
  venueNetworks,
  (overrides: Partial<VenueNetworkInsert> & Pick<VenueNetworkInsert, 'tournamentId'>): VenueNetworkInsert => ({
    networks: ['192.0.2.0/24'],
    note: uniqueName('Зала '),
    status: 'pending',
    ...overrides,
  }),
);
