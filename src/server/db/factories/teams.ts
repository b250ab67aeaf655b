import { chatMessages, teamInvites, teamMembers, teams } from '../schema/index.ts';
import { skeletonColumns } from '../../services/accounts/names.ts';
import type { Tx } from '../client.ts';
import { factory, uniqueName } from './factory.ts';

type TeamInsert = typeof teams.$inferInsert;

/** Teams: a unique name with its look-alike skeletons, no logo; `captainId` is required. */
export const teamFactory = factory(teams, (overrides: Partial<TeamInsert> & Pick<TeamInsert, 'captainId'>): TeamInsert => {
  const name = overrides.name ?? uniqueName('Team ');
  return { logoUrl: null, ...overrides, name, ...skeletonColumns(name) };
});

/** A member of a team: who, and when they joined (now, by default). */
export type Member = string | { userId: string; joinedAt?: Date };

/** Team members; `teamId` and `userId` are required. */
export const teamMemberFactory = factory(teamMembers, (overrides: typeof teamMembers.$inferInsert) => overrides);

/** Open invites to a team; `teamId` and `userId` (the invitee) are required. */
export const teamInviteFactory = factory(
  teamInvites,
  (overrides: Partial<typeof teamInvites.$inferInsert> & Pick<typeof teamInvites.$inferInsert, 'teamId' | 'userId'>) => ({
    invitedById: null,
    byEmail: false,
    ...overrides,
  }),
);

/** Messages in a team's chat, written now: a line of text; `teamId` and `userId` (the author) are required. */
export const chatMessageFactory = factory(
  chatMessages,
  (overrides: Partial<typeof chatMessages.$inferInsert> & Pick<typeof chatMessages.$inferInsert, 'teamId' | 'userId'>) => ({
    message: 'Привіт.',
    ...overrides,
  }),
);

/**
 * A team with its members: the captain is a member (the first one, unless `members` names them
 * elsewhere), as a team always is. Returns the team row and its members' ids, the captain first.
 */
export async function insertTeam(
  db: Tx,
  overrides: Parameters<typeof teamFactory.values>[0] & { members?: readonly Member[] },
): Promise<typeof teams.$inferSelect & { members: string[] }> {
  const { members = [], ...values } = overrides;
  const team = await teamFactory.insert(db, values);
  const given = members.map((m) => (typeof m === 'string' ? { userId: m } : m));
  const rows = given.some((m) => m.userId === team.captainId) ? given : [{ userId: team.captainId }, ...given];
  await teamMemberFactory.insertMany(
    db,
    rows.map((m) => ({ teamId: team.id, ...m })),
  );
  const ids = rows.map((m) => m.userId);
  return { ...team, members: [team.captainId, ...ids.filter((id) => id !== team.captainId)] };
}
