import { asc, count, eq, sql } from 'drizzle-orm';
import type { Cabinet } from '../../lib/api/cabinet.ts';
import type { UserRow } from '../api/context.ts';
import type { Tx } from '../db/client.ts';
import { teamMembers, teams } from '../db/schema/index.ts';
import { presentUser } from './accounts.ts';

/** The cabinet view of a user: profile, pending email and their current (first) team. */
export async function presentCabinet(db: Tx, user: UserRow): Promise<Cabinet> {
  const base = await presentUser(db, user);
  const [first] = await db
    .select({
      _id: teams.id,
      name: teams.name,
      logoUrl: teams.logoUrl,
      captain: teams.captainId,
      membersCount: sql<number>`(select ${count()} from ${teamMembers} tm where tm.team_id = ${teams.id})`.mapWith(Number),
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, user.id))
    .orderBy(asc(teamMembers.joinedAt))
    .limit(1);
  return {
    ...base,
    pendingEmail: user.pendingEmail,
    createdAt: user.createdAt.toISOString(),
    myTeam: first ?? null,
    isCaptain: first?.captain === user.id,
  };
}
