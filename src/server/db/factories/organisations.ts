import { organisationFollows, organisationMembers, organisations } from '../schema/index.ts';
import { skeletonColumns } from '../../services/accounts/names.ts';
import { slugFromName } from '../../../lib/domain/organisation.ts';
import { factory, uniqueName } from './factory.ts';

type OrganisationInsert = typeof organisations.$inferInsert;

/** Organisations (issue 56): a unique name with its look-alike skeletons, a slug made from it, unverified. */
export const organisationFactory = factory(organisations, (overrides: Partial<OrganisationInsert>): OrganisationInsert => {
  const name = overrides.name ?? uniqueName('Організація ');
  return { slug: slugFromName(name), description: '', links: {}, verified: false, ...overrides, name, ...skeletonColumns(name) };
});

/** An organisation's people; `organisationId`, `userId` and `role` are required. */
export const organisationMemberFactory = factory(organisationMembers, (overrides: typeof organisationMembers.$inferInsert) => overrides);

/** Followers of an organisation; `organisationId` and `userId` are required. */
export const organisationFollowFactory = factory(organisationFollows, (overrides: typeof organisationFollows.$inferInsert) => overrides);
