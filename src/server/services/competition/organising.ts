/**
 * The tournaments a person organises (issue 57: the cabinet's «Мої турніри», with a way into each
 * one's control room): those they are staff of, those their organisations host (not while
 * suspended), and for the site's admins the ones the site hosts itself. Running ones first, the
 * soonest first, then those finished, the latest first; a bounded list, not the whole archive.
 */
import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { OrganisedTournament } from '../../../lib/api/tournaments.ts';
import type { Tx } from '../../db/client.ts';
import { games, organisationMembers, organisations, tournamentStaff, tournaments } from '../../db/schema/index.ts';
import type { Organiser } from './staff.ts';

/** How many the cabinet lists: a season's worth of one organiser's events. */
export const ORGANISED_SHOWN = 50;

export async function organisedBy(db: Tx, user: Organiser): Promise<OrganisedTournament[]> {
  const staffOf = db.select({ id: tournamentStaff.tournamentId }).from(tournamentStaff).where(eq(tournamentStaff.userId, user.id));
  const hosting = db
    .select({ id: organisations.id })
    .from(organisationMembers)
    .innerJoin(organisations, and(eq(organisations.id, organisationMembers.organisationId), isNull(organisations.suspendedAt)))
    .where(eq(organisationMembers.userId, user.id));
  const finished = sql<number>`case when ${tournaments.status} = 'finished' then 1 else 0 end`;
  const rows = await db
    .select({
      id: tournaments.id,
      title: tournaments.title,
      date: tournaments.date,
      status: tournaments.status,
      game: games.name,
      organisation: organisations.name,
      staff: sql<boolean>`${tournaments.id} in ${staffOf}`,
    })
    .from(tournaments)
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .leftJoin(organisations, eq(organisations.id, tournaments.organisationId))
    .where(
      or(
        inArray(tournaments.id, staffOf),
        inArray(tournaments.organisationId, hosting),
        user.role === 'admin' ? isNull(tournaments.organisationId) : undefined,
      ),
    )
    .orderBy(
      asc(finished),
      sql`case when ${tournaments.status} = 'finished' then null else ${tournaments.date} end asc`,
      desc(tournaments.date),
      asc(tournaments.id),
    )
    .limit(ORGANISED_SHOWN);
  return rows.map((r) => ({
    _id: r.id,
    title: r.title,
    date: r.date.toISOString(),
    status: r.status,
    gameName: r.game,
    organisation: r.organisation,
    role: r.staff ? 'staff' : 'host',
  }));
}
