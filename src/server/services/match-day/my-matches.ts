import { and, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { MyMatch, MyMatches, MyCheckInTournament } from '../../../lib/api/schedule.ts';
import type { MyApplications } from '../../../lib/api/my-applications.ts';
import { nextFirst } from '../../../lib/domain/my-matches.ts';
import { CHECK_IN_STATUSES, checkInPhase, checkInWindow } from '../../../lib/domain/registration.ts';
import { LIVE_APPLICATION_STATUSES, type LiveApplicationStatus } from '../../../lib/domain/application-rules.ts';
import { PARTICIPANT_STATUS } from '../../../lib/domain/participant.ts';
import type { Tx } from '../../db/client.ts';
import { applications, isCompetitionDrawn, stageMatches, stages, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import { avatarUrl } from '../accounts/avatars.ts';

type TournamentRow = typeof tournaments.$inferSelect;

/** One tournament I take part in: as myself (solo) or through one of my teams. */
export interface Participation {
  tournament: TournamentRow;
  /** My participant id there: my user id, or my team's id. */
  participant: string;
  team: { id: string; name: string; logoUrl: string | null } | null;
  /** I act for the participant: the player, or the team's captain. */
  acts: boolean;
  /** A participant (approved); otherwise waitlisted, which may still check in. */
  approved: boolean;
  /** The application's own status, among those asked for. */
  status: LiveApplicationStatus;
  checkedInAt: Date | null;
  /** Its competition is drawn: the lineup is fixed, and check-in is refused whatever the window says. */
  drawn: boolean;
}

/** How many tournaments a player's lists and feed look at: the latest by date. */
const MAX_PARTICIPATIONS = 200;
/** How many next matches «Мої матчі» lists. */
const MAX_MATCHES = 20;

/**
 * The tournaments a user takes part in (approved applications): their own solo ones and their
 * teams' team ones, latest first. `where` narrows the tournaments (not finished, for example).
 */
export async function participations(
  db: Tx,
  userId: string,
  where?: SQL,
  statuses: readonly LiveApplicationStatus[] = [PARTICIPANT_STATUS],
): Promise<Participation[]> {
  const myTeams = await db
    .select({ id: teams.id, name: teams.name, logoUrl: teams.logoUrl, captainId: teams.captainId })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId));
  const teamIds = myTeams.map((t) => t.id);
  const mine = and(isNull(applications.teamId), eq(applications.userId, userId), eq(tournaments.soloOnly, true));
  const ours = teamIds.length > 0 ? and(inArray(applications.teamId, teamIds), eq(tournaments.soloOnly, false)) : undefined;
  const rows = await db
    .select({ tournament: tournaments, teamId: applications.teamId, status: applications.status, checkedInAt: applications.checkedInAt, drawn: isCompetitionDrawn })
    .from(applications)
    .innerJoin(tournaments, eq(tournaments.id, applications.tournamentId))
    .where(and(inArray(applications.status, [...statuses]), ours ? or(mine, ours) : mine, where))
    .orderBy(sql`${tournaments.date} desc`)
    .limit(MAX_PARTICIPATIONS);
  return rows.map((r) => {
    const team = myTeams.find((t) => t.id === r.teamId) ?? null;
    return {
      tournament: r.tournament,
      participant: team?.id ?? userId,
      team: team && { id: team.id, name: team.name, logoUrl: team.logoUrl },
      acts: !team || team.captainId === userId,
      approved: r.status === PARTICIPANT_STATUS,
      // Asked for among live statuses only.
      status: r.status as LiveApplicationStatus,
      checkedInAt: r.checkedInAt,
      drawn: r.drawn,
    };
  });
}

/** The matches of these participations where the participant plays (either side), narrowed by `where`. */
export async function participationMatches(db: Tx, list: readonly Participation[], where?: SQL) {
  if (list.length === 0) return [];
  const sides = or(
    ...list.map((p) =>
      and(eq(stages.tournamentId, p.tournament.id), or(eq(stageMatches.participantA, p.participant), eq(stageMatches.participantB, p.participant))),
    ),
  );
  return db
    .select({ match: stageMatches, tournamentId: stages.tournamentId })
    .from(stageMatches)
    .innerJoin(stages, eq(stages.id, stageMatches.stageId))
    .where(
      and(
        inArray(
          stages.tournamentId,
          list.map((p) => p.tournament.id),
        ),
        sides,
        where,
      ),
    );
}

/** Names and pictures of participants: players for solo tournaments, teams for team ones. */
export async function participantNames(db: Tx, ids: { users: string[]; teams: string[] }) {
  const names = new Map<string, { name: string; image: string | null }>();
  if (ids.users.length > 0) {
    const rows = await db.select({ id: users.id, name: users.username, imageId: users.avatarImageId }).from(users).where(inArray(users.id, ids.users));
    for (const r of rows) names.set(r.id, { name: r.name, image: avatarUrl(r.id, r.imageId) });
  }
  if (ids.teams.length > 0) {
    const rows = await db.select({ id: teams.id, name: teams.name, image: teams.logoUrl }).from(teams).where(inArray(teams.id, ids.teams));
    for (const r of rows) names.set(r.id, { name: r.name, image: r.image });
  }
  return names;
}

function checkInOf(p: Participation, now: Date) {
  const t = p.tournament;
  if (!t.checkInEnabled) return null;
  const { opensAt, closesAt } = checkInWindow(t);
  return {
    opensAt: opensAt.toISOString(),
    closesAt: closesAt.toISOString(),
    // As the check-in route decides (services/match-day/registration.ts): a drawn competition takes no check-in.
    open: checkInPhase(t, now) === 'open' && !p.drawn,
    checkedIn: p.checkedInAt !== null,
    canCheckIn: p.acts,
  };
}

/**
 * «Мої матчі» (issue 22, `GET /api/users/me/matches`): my and my teams' matches not yet played in
 * tournaments not finished, next first, and the tournaments whose check-in is open for me now.
 */
export async function myMatches(db: Tx, userId: string, now = new Date()): Promise<MyMatches> {
  // The waitlisted check in too (they fill the places freed when check-in closes); only participants play.
  const all = await participations(db, userId, ne(tournaments.status, 'finished'), CHECK_IN_STATUSES);
  const list = all.filter((p) => p.approved);
  const rows = await participationMatches(db, list, ne(stageMatches.status, 'completed'));
  const byTournament = new Map(list.map((p) => [p.tournament.id, p]));
  const soloIds = new Set<string>();
  const teamIds = new Set<string>();
  for (const { match, tournamentId } of rows) {
    const ids = byTournament.get(tournamentId)!.tournament.soloOnly ? soloIds : teamIds;
    for (const id of [match.participantA, match.participantB]) if (id) ids.add(id);
  }
  const names = await participantNames(db, { users: [...soloIds], teams: [...teamIds] });
  const side = (id: string) => ({ _id: id, name: names.get(id)?.name ?? '', image: names.get(id)?.image ?? null });
  const matches = rows
    .map(({ match, tournamentId }): MyMatch => {
      const p = byTournament.get(tournamentId)!;
      const slot = match.participantA === p.participant ? 'a' : 'b';
      const opponent = slot === 'a' ? match.participantB : match.participantA;
      return {
        _id: match.id,
        tournament: { _id: p.tournament.id, title: p.tournament.title, soloOnly: p.tournament.soloOnly },
        stage: match.stageId,
        group: match.groupNumber,
        side: match.side,
        round: match.round,
        me: { ...side(p.participant), slot },
        opponent: opponent ? side(opponent) : null,
        scheduledAt: match.scheduledAt?.toISOString() ?? null,
        status: match.status,
        reportState: match.reportState,
        reportedBy: match.reportedBy,
        canReport: p.acts,
        checkIn: checkInOf(p, now),
      };
    })
    .sort(nextFirst)
    .slice(0, MAX_MATCHES);
  const checkIns = all.flatMap((p): MyCheckInTournament[] => {
    const checkIn = checkInOf(p, now);
    if (!checkIn?.open) return [];
    return [
      {
        ...checkIn,
        tournament: { _id: p.tournament.id, title: p.tournament.title, date: p.tournament.date.toISOString() },
        team: p.team && { _id: p.team.id, name: p.team.name },
      },
    ];
  });
  return { matches, checkIns };
}

/**
 * The tournaments not finished where I, or one of my teams, have a live application (`GET
 * /api/users/me/applications`): what a list of cards needs to say «Заявку подано» instead of
 * offering to apply again.
 */
export async function myApplications(db: Tx, userId: string): Promise<MyApplications> {
  const list = await participations(db, userId, ne(tournaments.status, 'finished'), LIVE_APPLICATION_STATUSES);
  return { applications: list.map((p) => ({ tournament: p.tournament.id, status: p.status })) };
}
