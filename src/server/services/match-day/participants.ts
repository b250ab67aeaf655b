import { and, asc, eq, exists, inArray, isNotNull, isNull, or, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { BracketParticipant } from '../../../lib/api/bracket.ts';
import type { RecordForm } from '../../../lib/api/tournament-stats.ts';
import { PARTICIPANT_STATUS } from '../../../lib/domain/participant.ts';
import type { Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { applications, teamMembers, teams, users, type tournaments } from '../../db/schema/index.ts';
import { avatarUrl } from '../accounts/avatars.ts';

/** The approved applications of one tournament: the one condition every participant query starts from. */
const approvedIn = (tournamentId: string | Placeholder): SQL => and(eq(applications.tournamentId, tournamentId), eq(applications.status, PARTICIPANT_STATUS))!;

/**
 * The tournament's participants (SPEC §4) in the order they applied, with a name and a picture:
 * users of approved solo applications for solo tournaments, teams of approved team applications
 * for team ones. The bracket is drawn from them and checked against them, and the winner is
 * chosen among them; this is the one query for «who takes part». With `checkedInOnly`, only
 * those who checked in (issue 22): a stage of a tournament with check-in seeds them alone.
 */
export async function approvedParticipants(
  db: Tx,
  tournament: Pick<typeof tournaments.$inferSelect, 'id' | 'soloOnly'>,
  options: { checkedInOnly?: boolean; only?: readonly string[] } = {},
): Promise<BracketParticipant[]> {
  const approved = and(approvedIn(tournament.id), options.checkedInOnly ? isNotNull(applications.checkedInAt) : undefined);
  // `only`: these participants of the tournament (a match's two sides), not a list as long as its roster.
  const only = (column: Parameters<typeof inArray>[0]) => (options.only ? inArray(column, [...options.only]) : undefined);
  if (tournament.soloOnly) {
    const rows = await db
      .select({ id: users.id, name: users.username, imageId: users.avatarImageId })
      .from(applications)
      .innerJoin(users, eq(users.id, applications.userId))
      .where(and(approved, isNull(applications.teamId), only(applications.userId)))
      .orderBy(asc(applications.createdAt), asc(applications.id));
    return rows.map((r) => ({ _id: r.id, name: r.name, image: avatarUrl(r.id, r.imageId), type: 'user' as const }));
  }
  const rows = await db
    .select({ id: teams.id, name: teams.name, image: teams.logoUrl })
    .from(applications)
    .innerJoin(teams, eq(teams.id, applications.teamId))
    .where(and(approved, sql`${applications.teamId} is not null`, only(applications.teamId)))
    .orderBy(asc(applications.createdAt), asc(applications.id));
  return rows.map((r) => ({ _id: r.id, name: r.name, image: r.image, type: 'team' as const }));
}

/** Who may be a side of a recorded match (see docs/decisions/004-rating.md). */
export type MatchSides = RecordForm['participants'];

/**
 * One side a tournament's match may be recorded for, by its id, as `matchSides` would list it: an
 * approved solo player or a member of a team with an approved application, or such a team. One
 * statement for the one side, instead of the whole roster read and sorted; prepared (db/prepared.ts),
 * as every recorded match asks it twice.
 */
const matchSideById = (type: 'user' | 'team') =>
  prepared((db) =>
    type === 'user'
      ? db
          .select({ id: users.id, name: users.username })
          .from(users)
          .where(
            and(
              eq(users.id, sql.placeholder('id')),
              or(
                exists(
                  db
                    .select({ one: sql`1` })
                    .from(applications)
                    .where(and(approvedIn(sql.placeholder('tournamentId')), eq(applications.userId, users.id), isNull(applications.teamId))),
                ),
                exists(
                  db
                    .select({ one: sql`1` })
                    .from(teamMembers)
                    .innerJoin(applications, eq(applications.teamId, teamMembers.teamId))
                    .where(and(approvedIn(sql.placeholder('tournamentId')), eq(teamMembers.userId, users.id))),
                ),
              ),
            ),
          )
          .prepare('match_side_user')
      : db
          .select({ id: teams.id, name: teams.name })
          .from(teams)
          .where(
            and(
              eq(teams.id, sql.placeholder('id')),
              exists(
                db
                  .select({ one: sql`1` })
                  .from(applications)
                  .where(and(approvedIn(sql.placeholder('tournamentId')), eq(applications.teamId, teams.id))),
              ),
            ),
          )
          .prepare('match_side_team'),
  );
const userSideById = matchSideById('user');
const teamSideById = matchSideById('team');

/** The side of type `type` with this id (a UUID as the database writes it) if the tournament's matches may be recorded for it, with its name. */
export async function matchSide(db: Tx, tournamentId: string, type: 'user' | 'team', id: string): Promise<{ id: string; name: string } | null> {
  const [row] = await (type === 'user' ? userSideById : teamSideById)(db).execute({ tournamentId, id });
  return row ?? null;
}

/**
 * The players and teams a tournament's matches may be recorded between: the participants, and
 * the members of participating teams (a player of such a team may be a side too). Sorted by name.
 */
export async function matchSides(db: Tx, tournamentId: string): Promise<MatchSides> {
  const approved = approvedIn(tournamentId);
  const teamRows = await db
    .selectDistinct({ id: teams.id, name: teams.name, logoUrl: teams.logoUrl })
    .from(applications)
    .innerJoin(teams, eq(teams.id, applications.teamId))
    .where(approved);
  const teamIds = teamRows.map((team) => team.id);
  const solo = await db
    .select({ id: applications.userId })
    .from(applications)
    .where(and(approved, isNull(applications.teamId)));
  const members = teamIds.length > 0 ? await db.select({ id: teamMembers.userId }).from(teamMembers).where(inArray(teamMembers.teamId, teamIds)) : [];
  const userIds = [...new Set([...solo, ...members].map((r) => r.id))];
  const userRows =
    userIds.length > 0
      ? await db.select({ id: users.id, username: users.username, avatarImageId: users.avatarImageId }).from(users).where(inArray(users.id, userIds))
      : [];
  const byName = (a: string, b: string) => a.localeCompare(b, 'uk', { sensitivity: 'base' });
  return {
    users: userRows
      .map((u) => ({ _id: u.id, username: u.username, avatar: avatarUrl(u.id, u.avatarImageId) }))
      .sort((a, b) => byName(a.username, b.username)),
    teams: teamRows.map((team) => ({ _id: team.id, name: team.name, logoUrl: team.logoUrl })).sort((a, b) => byName(a.name, b.name)),
  };
}
