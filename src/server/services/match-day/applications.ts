import { and, asc, count, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { AdminApplication } from '../../../lib/api/applications.ts';
import type { Page } from '../../../lib/api/paging.ts';
import type { Eligibility, TournamentApplication } from '../../../lib/api/tournaments.ts';
import {
  applyRefusal,
  isLiveApplication,
  reviewRefusal,
  type ApplicationStatus,
  type ApplicationVerdict,
  type ApplyRefusal,
} from '../../../lib/domain/application-rules.ts';
import { isDrawn } from '../../../lib/domain/bracket.ts';
import type { Tx } from '../../db/client.ts';
import { applications, isLiveStatus, teamMembers, teams, type tournaments } from '../../db/schema/index.ts';
import { placesLeft, registrationRefusal, statusOnApply, takesPlace } from '../../../lib/domain/registration.ts';
import { isUniqueViolation } from '../db-errors.ts';
import type { AuditActor } from '../competition/audit.ts';
import { announceApplications, auditDecisions, fillFreePlaces, lockForRegistration, placesTaken, published, toldUsers, waitlistPosition } from './registration.ts';
import { findTournament, loadApplications, shownToPublic } from '../competition/tournaments.ts';
import { publishing } from '../live/live.ts';
import { withoutSteam } from '../accounts/linked-accounts.ts';

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
    .select({ id: applications.id, status: applications.status, checkedInAt: applications.checkedInAt, createdAt: applications.createdAt })
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
  return row && isLiveApplication(row.status) ? { _id: row.id, status: row.status, checkedInAt: row.checkedInAt, createdAt: row.createdAt } : null;
}

/** What the apply block shows of a live application: its status, check-in and place in the waitlist. */
async function standing(db: Tx, tournamentId: string, live: Awaited<ReturnType<typeof liveApplication>>, mine: boolean): Promise<Eligibility['application']> {
  if (!live) return null;
  const position = live.status === 'waitlisted' ? await waitlistPosition(db, { tournamentId, id: live._id, createdAt: live.createdAt }) : null;
  return { _id: live._id, status: live.status, checkedInAt: live.checkedInAt?.toISOString() ?? null, position, mine };
}

/** The team a player acts for in team tournaments: the first one they captain, else the first they joined. */
async function actingTeam(db: Tx, userId: string): Promise<TeamRow | undefined> {
  const rows = await db
    .select({ team: teams })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.joinedAt), asc(teams.id));
  return (rows.find((r) => r.team.captainId === userId) ?? rows[0])?.team;
}

/**
 * How many of the people a tournament that requires Steam checks have none linked (issue 60,
 * decision 044): the solo applicant, or every player of the team, its captain among them, as the
 * roster plays. 0 when the tournament does not require it.
 */
async function steamMissing(db: Tx, row: Pick<typeof tournaments.$inferSelect, 'requireSteam'>, who: { userId: string } | { teamId: string }): Promise<number> {
  if (!row.requireSteam) return 0;
  const people =
    'userId' in who ? [who.userId] : (await db.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, who.teamId))).map((m) => m.id);
  return (await withoutSteam(db, people)).length;
}

/** What the apply block shows a player: their standing for one tournament, or undefined when it does not exist. */
export async function eligibility(db: Tx, tournamentId: string, userId: string): Promise<Eligibility | undefined> {
  const row = await findTournament(db, tournamentId);
  if (!row) return undefined;
  const tournament = tournamentFacts(row);
  const registration = registrationRefusal(row, new Date());
  if (tournament.soloOnly) {
    const application = await standing(db, tournamentId, await liveApplication(db, tournamentId, { userId }), true);
    const steam = await steamMissing(db, row, { userId });
    return { refusal: applyRefusal({ tournament, asTeam: false, alreadyApplied: Boolean(application), registration, withoutSteam: steam }), application, team: null };
  }
  const team = await actingTeam(db, userId);
  const members = team ? await memberCount(db, team.id) : 0;
  const live = team ? await liveApplication(db, tournamentId, { teamId: team.id }) : null;
  const application = await standing(db, tournamentId, live, team?.captainId === userId);
  const refusal = applyRefusal({
    tournament,
    asTeam: true,
    team: team ? { isCaptain: team.captainId === userId, members } : null,
    alreadyApplied: Boolean(application),
    registration,
    withoutSteam: team ? await steamMissing(db, row, { teamId: team.id }) : 0,
  });
  return {
    refusal,
    application,
    team: team ? { _id: team.id, name: team.name, members, isCaptain: team.captainId === userId } : null,
  };
}

export type ApplyResult =
  | { ok: true; application: TournamentApplication; team: boolean; waitlisted: boolean }
  | { ok: false; reason: 'tournamentNotFound' | 'teamNotFound' | ApplyRefusal };

/**
 * Files an application (SPEC §4–§6): solo with a tournament only, for a team with its id too. The
 * rules are `applyRefusal`'s, the registration window's among them. With the tournament locked,
 * it takes a place while one is free under the cap, else it joins the waitlist (issue 22); the
 * partial unique indexes settle one player's two requests racing each other.
 */
async function applyToTournament(db: Tx, userId: string, input: { tournament: string; team?: string | null | undefined }, now = new Date()): Promise<ApplyResult> {
  let result: ApplyResult & { told?: string[] };
  try {
    result = await db.transaction(async (tx): Promise<ApplyResult & { told?: string[] }> => {
      const row = await lockForRegistration(tx, input.tournament);
      // A suspended organisation's tournament is not there for the public (issue 56).
      if (!row || (row.organisationId && !(await shownToPublic(tx, row.id)))) return { ok: false, reason: 'tournamentNotFound' };
      const tournament = { id: row.id, ...tournamentFacts(row) };
      let teamFacts: { isCaptain: boolean; members: number } | null = null;
      if (input.team) {
        const [team] = await tx.select().from(teams).where(eq(teams.id, input.team));
        if (!team) return { ok: false, reason: 'teamNotFound' };
        teamFacts = { isCaptain: team.captainId === userId, members: await memberCount(tx, team.id) };
      }
      const asTeam = Boolean(input.team);
      const live = await liveApplication(tx, tournament.id, input.team ? { teamId: input.team } : { userId });
      const registration = registrationRefusal(row, now);
      const steam = await steamMissing(tx, row, input.team ? { teamId: input.team } : { userId });
      const refusal = applyRefusal({ tournament, asTeam, team: teamFacts, alreadyApplied: Boolean(live), registration, withoutSteam: steam });
      if (refusal) return { ok: false, reason: refusal };
      const status = statusOnApply(row.maxParticipants, await placesTaken(tx, tournament.id));
      const [inserted] = await tx
        .insert(applications)
        .values({ tournamentId: tournament.id, userId, teamId: input.team ?? null, status })
        .returning();
      const told = status === 'waitlisted' ? await announceApplications(tx, 'applicationWaitlisted', [inserted!], row) : [];
      const [application] = await loadApplications(tx, eq(applications.id, inserted!.id));
      return { ok: true, application: strip(application!), team: asTeam, waitlisted: status === 'waitlisted', told };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'alreadyApplied' };
    throw error;
  }
  if (!result.ok) return result;
  const { told, ...applied } = result;
  toldUsers(told ?? []);
  return applied;
}

/** An admin-list row without the tournament's fields: the shape tournaments carry. */
function strip(row: AdminApplication): TournamentApplication {
  const { tournamentTitle: _title, tournamentStatus: _status, soloOnly: _solo, tournamentDrawn: _drawn, ...application } = row;
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

export type StatusChange =
  | { ok: true; application: TournamentApplication }
  | { ok: false; reason: 'notFound' | 'alreadyApplied' | 'lineupFixed' }
  | { ok: false; reason: 'full'; max: number };

/**
 * Approves or rejects an application and tells the applicant (SPEC §4 Application). Bringing a
 * rejected one back is refused while the same player or team has another live application there;
 * once the bracket is drawn, nobody joins or leaves the approved participants (`reviewRefusal`).
 * Approving a waitlisted (or rejected) application takes a place, refused when none is free
 * under the cap; rejecting one that held a place gives it to the waitlist (issue 22). A change of
 * status is `actor`'s decision in the audit log (issue 23).
 */
async function decideApplication(
  db: Tx,
  id: string,
  change: { status: ApplicationVerdict; comment?: string | undefined },
  actor: AuditActor,
): Promise<StatusChange> {
  let result: StatusChange & { told?: string[] };
  try {
    result = await db.transaction(async (tx): Promise<StatusChange & { told?: string[] }> => {
      // The tournament first, then the application: every registration write locks in this order,
      // and a bracket drawn meanwhile waits for this change, or this one for it.
      const locked = await lockedApplication(tx, id);
      if (!locked) return { ok: false, reason: 'notFound' };
      const { tournament, application: a } = locked;
      if (reviewRefusal({ bracketDrawn: tournament.drawn, from: a.status, to: change.status })) return { ok: false, reason: 'lineupFixed' };
      if (a.status === 'rejected' && change.status === 'approved') {
        const other = await liveApplication(tx, a.tournamentId, a.teamId ? { teamId: a.teamId } : { userId: a.userId });
        if (other) return { ok: false, reason: 'alreadyApplied' };
      }
      if (change.status === 'approved' && !takesPlace(a.status) && placesLeft(tournament.maxParticipants, await placesTaken(tx, a.tournamentId)) === 0) {
        return { ok: false, reason: 'full', max: tournament.maxParticipants ?? 0 };
      }
      await tx
        .update(applications)
        .set({ status: change.status, ...(change.comment !== undefined ? { comment: change.comment } : {}), updatedAt: new Date() })
        .where(eq(applications.id, id));
      const told: string[] = [];
      if (a.status !== change.status) {
        await auditDecisions(tx, [{ application: a, from: a.status, to: change.status }], actor);
        const kind = change.status === 'approved' ? 'applicationApproved' : 'applicationRejected';
        told.push(...(await announceApplications(tx, kind, [a], tournament, change.comment)));
        if (change.status === 'rejected' && takesPlace(a.status)) told.push(...(await fillFreePlaces(tx, tournament)));
      }
      const [application] = await loadApplications(tx, eq(applications.id, id));
      return { ok: true, application: strip(application!), told };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'alreadyApplied' };
    throw error;
  }
  if (!result.ok) return result;
  toldUsers(result.told ?? []);
  return { ok: true, application: result.application };
}

/** An application and its tournament, both locked: the tournament first, as every registration write does. */
async function lockedApplication(tx: Tx, id: string) {
  const [found] = await tx.select({ tournamentId: applications.tournamentId }).from(applications).where(eq(applications.id, id));
  if (!found) return undefined;
  const tournament = await lockForRegistration(tx, found.tournamentId);
  const [application] = await tx.select().from(applications).where(eq(applications.id, id)).for('update');
  return tournament && application ? { tournament, application } : undefined;
}

/**
 * An admin deletes an application; an approved one stays once the bracket is drawn
 * (`reviewRefusal`). A place it held goes to the earliest of the waitlist. The deletion is `actor`'s
 * decision in the audit log.
 */
export async function deleteApplication(
  db: Tx,
  id: string,
  actor: AuditActor,
): Promise<{ ok: true; tournamentId: string } | { ok: false; reason: 'notFound' | 'lineupFixed' }> {
  const result = await db.transaction(async (tx) => {
    const locked = await lockedApplication(tx, id);
    if (!locked) return { ok: false, reason: 'notFound' } as const;
    const { tournament, application } = locked;
    if (reviewRefusal({ bracketDrawn: tournament.drawn, from: application.status, to: 'deleted' })) return { ok: false, reason: 'lineupFixed' } as const;
    await auditDecisions(tx, [{ application, from: application.status, to: 'deleted' }], actor);
    await tx.delete(applications).where(eq(applications.id, id));
    const told = takesPlace(application.status) ? await fillFreePlaces(tx, tournament) : [];
    return { ok: true, tournamentId: tournament.id, told } as const;
  });
  if (!result.ok) return result;
  published(result.tournamentId, 'application', result.told);
  return { ok: true, tournamentId: result.tournamentId };
}

/** An application made: its tournament's viewers hear of it. */
export const applyTo = publishing(applyToTournament, (result) => ({ tournamentId: result.application.tournament, kind: 'application' }));

/** An application decided: its tournament's viewers hear of it. */
export const changeStatus = publishing(decideApplication, (result) => ({ tournamentId: result.application.tournament, kind: 'application' }));
