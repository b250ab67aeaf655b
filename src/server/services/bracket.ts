import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import type { Tx } from '../db/client.ts';
import { applications, teams, tournaments, users } from '../db/schema/index.ts';
import { avatarUrl } from './avatars.ts';

type TournamentRow = typeof tournaments.$inferSelect;

/**
 * Approved participants in the order they applied (SPEC §4: they fill the first round in order):
 * users of solo applications for solo tournaments, teams for team ones.
 */
export async function bracketParticipants(db: Tx, tournament: Pick<TournamentRow, 'id' | 'soloOnly'>): Promise<BracketParticipant[]> {
  const approved = and(eq(applications.tournamentId, tournament.id), eq(applications.status, 'approved'));
  if (tournament.soloOnly) {
    const rows = await db
      .select({ id: users.id, name: users.username, imageId: users.avatarImageId })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(and(approved, isNull(applications.teamId)))
      .orderBy(asc(applications.createdAt), asc(applications.id));
    return rows.map((r) => ({ _id: r.id, name: r.name, image: avatarUrl(r.id, r.imageId) }));
  }
  const rows = await db
    .select({ id: teams.id, name: teams.name, image: teams.logoUrl })
    .from(applications)
    .innerJoin(teams, eq(teams.id, applications.teamId))
    .where(and(approved, sql`${applications.teamId} is not null`))
    .orderBy(asc(applications.createdAt), asc(applications.id));
  return rows.map((r) => ({ _id: r.id, name: r.name, image: r.image }));
}

/** The tournament row, locked for the rest of the transaction so bracket saves queue up. */
export async function lockTournament(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
  return row;
}

export async function findTournamentRow(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id));
  return row;
}
