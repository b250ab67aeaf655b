import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { AdminApplication } from '../../lib/api/applications.ts';
import type { Page } from '../../lib/api/paging.ts';
import type { Eligibility, TournamentApplication } from '../../lib/api/tournaments.ts';
import {
  applyRefusal,
  isLiveApplication,
  reviewRefusal,
  type ApplicationStatus,
  type ApplicationVerdict,
  type ApplyRefusal,
} from '../../lib/domain/application-rules.ts';
import { isDrawn } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import type { Tx } from '../db/client.ts';
import { applications, isCompetitionDrawn, isLiveStatus, teamMembers, teams, tournaments } from '../db/schema/index.ts';
import { isUniqueViolation } from './db-errors.ts';
import { notify } from './notifications.ts';
import { findTournament, loadApplications } from './tournaments.ts';

type TeamRow = typeof teams.$inferSelect;

/** What the application rules read of a tournament row. */
const tournamentFacts = (row: typeof tournaments.$inferSelect) => ({ status: row.status, soloOnly: row.soloOnly, bracketDrawn: isDrawn(row.bracket) });

async function memberCount(db: Tx, teamId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return row?.n ?? 0;
}

/**
 * The live (pending or approved) application of a player (solo) or of a team in a tournament, or
 * null: the one question «has this one applied already?», for applying and inviting alike.
 */
export async function liveApplication(db: Tx, tournamentId: string, who: { teamId: string } | { userId: string }) {
  const [row] = await db
    .select({ id: applications.id, status: applications.status })
    .from(applications)
    .where(
      and(
        eq(applications.tournamentId, tournamentId),
        isLiveStatus(applications.status),
        'teamId' in who ? eq(applications.teamId, who.teamId) : and(eq(applications.userId, who.userId), isNull(applications.teamId)),
      ),
    )
    .orderBy(desc(applications.createdAt))
    .limit(1);
  return row && isLiveApplication(row.status) ? { _id: row.id, status: row.status } : null;
}

/** The team a player acts for in team tournaments: the first one they captain, else the first they joined. */
async function actingTeam(db: Tx, userId: string): Promise<TeamRow | undefined> {
  const rows = await db
    .select({ team: teams })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.joinedAt));
  return (rows.find((r) => r.team.captainId === userId) ?? rows[0])?.team;
}

/** What the apply block shows a player: their standing for one tournament, or undefined when it does not exist. */
export async function eligibility(db: Tx, tournamentId: string, userId: string): Promise<Eligibility | undefined> {
  const row = await findTournament(db, tournamentId);
  if (!row) return undefined;
  const tournament = tournamentFacts(row);
  if (tournament.soloOnly) {
    const application = await liveApplication(db, tournamentId, { userId });
    return { refusal: applyRefusal({ tournament, asTeam: false, alreadyApplied: Boolean(application) }), application, team: null };
  }
  const team = await actingTeam(db, userId);
  const members = team ? await memberCount(db, team.id) : 0;
  const application = team ? await liveApplication(db, tournamentId, { teamId: team.id }) : null;
  const refusal = applyRefusal({
    tournament,
    asTeam: true,
    team: team ? { isCaptain: team.captainId === userId, members } : null,
    alreadyApplied: Boolean(application),
  });
  return {
    refusal,
    application,
    team: team ? { _id: team.id, name: team.name, members, isCaptain: team.captainId === userId } : null,
  };
}

export type ApplyResult =
  | { ok: true; application: TournamentApplication; team: boolean }
  | { ok: false; reason: 'tournamentNotFound' | 'teamNotFound' | ApplyRefusal };

/**
 * Files an application (SPEC §4–§6): solo with a tournament only, for a team with its id too. The
 * rules are `applyRefusal`'s; the partial unique indexes settle two requests racing each other.
 */
export async function applyTo(db: Tx, userId: string, input: { tournament: string; team?: string | null | undefined }): Promise<ApplyResult> {
  const row = await findTournament(db, input.tournament);
  if (!row) return { ok: false, reason: 'tournamentNotFound' };
  const tournament = { id: row.id, ...tournamentFacts(row) };
  let teamFacts: { isCaptain: boolean; members: number } | null = null;
  if (input.team) {
    const [team] = await db.select().from(teams).where(eq(teams.id, input.team));
    if (!team) return { ok: false, reason: 'teamNotFound' };
    teamFacts = { isCaptain: team.captainId === userId, members: await memberCount(db, team.id) };
  }
  const asTeam = Boolean(input.team);
  const live = await liveApplication(db, tournament.id, input.team ? { teamId: input.team } : { userId });
  const refusal = applyRefusal({ tournament, asTeam, team: teamFacts, alreadyApplied: Boolean(live) });
  if (refusal) return { ok: false, reason: refusal };
  let id: string;
  try {
    const [row] = await db
      .insert(applications)
      .values({ tournamentId: tournament.id, userId, teamId: input.team ?? null })
      .returning({ id: applications.id });
    id = row!.id;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'alreadyApplied' };
    throw error;
  }
  const [application] = await loadApplications(db, eq(applications.id, id));
  return { ok: true, application: strip(application!), team: asTeam };
}

/** An admin-list row without the tournament's fields: the shape tournaments carry. */
function strip(row: AdminApplication): TournamentApplication {
  const { tournamentTitle: _title, tournamentStatus: _status, soloOnly: _solo, ...application } = row;
  return application;
}

/** A page of the admin list of applications, newest first; of one status or tournament when asked. */
export async function listApplications(
  db: Tx,
  filter: { status?: ApplicationStatus | undefined; tournament?: string | undefined; limit: number; offset: number },
): Promise<Page<AdminApplication>> {
  const where: SQL[] = [];
  if (filter.status) where.push(eq(applications.status, filter.status));
  if (filter.tournament) where.push(eq(applications.tournamentId, filter.tournament));
  // One row past the page tells whether there is a next one.
  const rows = await loadApplications(db, where.length > 0 ? and(...where) : undefined, { limit: filter.limit + 1, offset: filter.offset });
  return { items: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

export type StatusChange = { ok: true; application: TournamentApplication } | { ok: false; reason: 'notFound' | 'alreadyApplied' | 'lineupFixed' };

/**
 * Approves or rejects an application and tells the applicant (SPEC §4 Application). Bringing a
 * rejected one back is refused while the same player or team has another live application there;
 * once the bracket is drawn, nobody joins or leaves the approved participants (`reviewRefusal`).
 */
export async function changeStatus(
  db: Tx,
  id: string,
  change: { status: ApplicationVerdict; comment?: string | undefined },
): Promise<StatusChange> {
  try {
    return await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ application: applications, title: tournaments.title, drawn: isCompetitionDrawn })
        .from(applications)
        .innerJoin(tournaments, eq(tournaments.id, applications.tournamentId))
        .where(eq(applications.id, id))
        // The tournament too: a bracket drawn meanwhile waits for this change, or this one for it.
        .for('update');
      if (!current) return { ok: false, reason: 'notFound' } as const;
      const a = current.application;
      if (reviewRefusal({ bracketDrawn: current.drawn, from: a.status, to: change.status })) {
        return { ok: false, reason: 'lineupFixed' } as const;
      }
      if (a.status === 'rejected' && change.status === 'approved') {
        const other = await liveApplication(tx, a.tournamentId, a.teamId ? { teamId: a.teamId } : { userId: a.userId });
        if (other) return { ok: false, reason: 'alreadyApplied' } as const;
      }
      await tx
        .update(applications)
        .set({ status: change.status, ...(change.comment !== undefined ? { comment: change.comment } : {}), updatedAt: new Date() })
        .where(eq(applications.id, id));
      if (a.status !== change.status) await tellApplicant(tx, a, current.title, change);
      const [application] = await loadApplications(tx, eq(applications.id, id));
      return { ok: true, application: strip(application!) } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'alreadyApplied' };
    throw error;
  }
}

async function tellApplicant(
  tx: Tx,
  application: typeof applications.$inferSelect,
  title: string,
  change: { status: ApplicationVerdict; comment?: string | undefined },
) {
  let text: string;
  if (application.teamId) {
    const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, application.teamId));
    const key = change.status === 'approved' ? 'applications.notifyTeamApproved' : 'applications.notifyTeamRejected';
    text = t(key, { team: team?.name ?? '', title });
  } else {
    text = t(change.status === 'approved' ? 'applications.notifyApproved' : 'applications.notifyRejected', { title });
  }
  if (change.comment) text = t('applications.notifyComment', { text, comment: change.comment });
  await notify(tx, application.userId, text, {
    payload: { applicationId: application.id, tournamentId: application.tournamentId, ...(application.teamId ? { teamId: application.teamId } : {}) },
  });
}

/** Deletes an application; an approved one stays once the bracket is drawn (`reviewRefusal`). */
export async function deleteApplication(db: Tx, id: string): Promise<{ ok: true; tournamentId: string } | { ok: false; reason: 'notFound' | 'lineupFixed' }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: applications.status, drawn: isCompetitionDrawn, tournamentId: applications.tournamentId })
      .from(applications)
      .innerJoin(tournaments, eq(tournaments.id, applications.tournamentId))
      .where(eq(applications.id, id))
      .for('update');
    if (!current) return { ok: false, reason: 'notFound' } as const;
    if (reviewRefusal({ bracketDrawn: current.drawn, from: current.status, to: 'deleted' })) return { ok: false, reason: 'lineupFixed' } as const;
    await tx.delete(applications).where(eq(applications.id, id));
    return { ok: true, tournamentId: current.tournamentId } as const;
  });
}
