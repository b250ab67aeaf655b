import { and, count, eq } from 'drizzle-orm';
import type { InvitedApplication, TournamentInviteInput } from '../../../lib/api/notifications.ts';
import { applicationsClosed, isTeamSizeAllowed } from '../../../lib/domain/application-rules.ts';
import { t, translate } from '../../../lib/i18n/index.ts';
import type { Database, Tx } from '../../db/client.ts';
import { applications, isCompetitionDrawn, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import { liveApplication } from './applications.ts';
import { publishTournament } from '../live/live.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { holdsInvite, inviteActions, notify, withdrawNotifications, type NoticeText } from '../notices/notifications.ts';
import { auditDecisions } from './registration.ts';

/*
 * Tournament invites (docs/decisions/001-tournament-invites.md): an admin invites a player into a
 * pending solo tournament, or a team (through its captain) into a pending team tournament. The
 * invite is a pending application plus a notification to the invited player; that notification
 * is the proof of the invite, so a player cannot approve an application of their own making.
 */

const INVITE_TYPES = ['acceptTournamentInvite', 'declineTournamentInvite'] as const;
type ApplicationRow = typeof applications.$inferSelect;

const present = (row: ApplicationRow): InvitedApplication => ({
  _id: row.id,
  tournament: row.tournamentId,
  user: row.userId,
  team: row.teamId,
  status: row.status,
  comment: row.comment,
});


const withdraw = (db: Tx, userId: string, applicationId: string) =>
  withdrawNotifications(db, userId, { actionTypes: [...INVITE_TYPES], key: 'applicationId', value: applicationId });

export type InviteResult =
  | { ok: true; application: InvitedApplication }
  | {
      ok: false;
      reason: 'tournamentNotFound' | 'soloNeedsUser' | 'teamNeedsTeam' | 'bracketDrawn' | 'notPending' | 'teamNotFound' | 'playerNotFound' | 'alreadyApplied';
    };

/**
 * Invites a player (solo tournament) or a team's captain (team tournament): a pending application
 * and a notification with accept/decline, in one transaction. The caller checked that exactly one
 * of `user` and `team` is given.
 */
export async function inviteToTournament(db: Database, input: TournamentInviteInput): Promise<InviteResult> {
  const [found] = await db.select({ row: tournaments, drawn: isCompetitionDrawn }).from(tournaments).where(eq(tournaments.id, input.tournament));
  if (!found) return { ok: false, reason: 'tournamentNotFound' };
  const tournament = found.row;
  if (tournament.soloOnly && input.team) return { ok: false, reason: 'soloNeedsUser' };
  if (!tournament.soloOnly && input.user) return { ok: false, reason: 'teamNeedsTeam' };
  const closed = applicationsClosed({ status: tournament.status, bracketDrawn: found.drawn });
  if (closed) return { ok: false, reason: closed === 'bracketDrawn' ? 'bracketDrawn' : 'notPending' };

  let recipient: string;
  let text: NoticeText;
  if (input.team) {
    const [team] = await db.select().from(teams).where(eq(teams.id, input.team));
    if (!team) return { ok: false, reason: 'teamNotFound' };
    if (await liveApplication(db, tournament.id, { teamId: team.id })) return { ok: false, reason: 'alreadyApplied' };
    recipient = team.captainId;
    text = (locale) => translate(locale, 'tournamentInvite.teamNotification', { team: team.name, tournament: tournament.title });
  } else {
    const [player] = await db.select({ id: users.id }).from(users).where(eq(users.id, input.user!));
    if (!player) return { ok: false, reason: 'playerNotFound' };
    if (await liveApplication(db, tournament.id, { userId: player.id })) return { ok: false, reason: 'alreadyApplied' };
    recipient = player.id;
    text = (locale) => translate(locale, 'tournamentInvite.soloNotification', { tournament: tournament.title });
  }

  return db
    .transaction(async (tx) => {
      const [row] = await tx
        .insert(applications)
        .values({
          tournamentId: tournament.id,
          userId: recipient,
          teamId: input.team ?? null,
          status: 'pending',
          comment: t('tournamentInvite.comment'),
        })
        .returning();
      await notify(tx, recipient, text, {
        actions: inviteActions(),
        actionType: 'acceptTournamentInvite',
        payload: { applicationId: row!.id, tournamentId: tournament.id },
      });
      publishTournament({ tournamentId: tournament.id, kind: 'application' });
      return { ok: true as const, application: present(row!) };
    })
    .catch((error: unknown): InviteResult => {
      // A live application made at the same moment: the partial unique index decides.
      if (isUniqueViolation(error)) return { ok: false, reason: 'alreadyApplied' };
      throw error;
    });
}

export type InviteAnswer = { ok: true; application: InvitedApplication } | { ok: false; reason: 'applicationNotFound' | 'notYours' | 'noInvite' | 'stale' | 'teamSize' };

/** Accept or reject: only the invited player (solo) or the team's captain, and only while the invite stands. */
export async function answerTournamentInvite(db: Database, userId: string, applicationId: string, verb: 'accept' | 'reject'): Promise<InviteAnswer> {
  const [application] = await db.select().from(applications).where(eq(applications.id, applicationId));
  if (!application) return { ok: false, reason: 'applicationNotFound' };
  let recipient = application.userId;
  if (application.teamId) {
    const [team] = await db.select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, application.teamId));
    recipient = team?.captainId ?? application.userId;
  }
  if (recipient !== userId) return { ok: false, reason: 'notYours' };
  if (!(await holdsInvite(db, userId, { actionTypes: [...INVITE_TYPES], key: 'applicationId', value: applicationId }))) {
    return { ok: false, reason: 'noInvite' };
  }
  const [tournament] = await db
    .select({ status: tournaments.status, drawn: isCompetitionDrawn })
    .from(tournaments)
    .where(eq(tournaments.id, application.tournamentId));
  if (application.status !== 'pending' || !tournament || applicationsClosed({ status: tournament.status, bracketDrawn: tournament.drawn })) {
    // The invite is moot (decided by an admin, or the tournament began): clear it from the bell.
    await withdraw(db, userId, applicationId);
    return { ok: false, reason: 'stale' };
  }
  if (verb === 'accept' && application.teamId) {
    const [size] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, application.teamId));
    if (!isTeamSizeAllowed(size?.n ?? 0)) return { ok: false, reason: 'teamSize' };
  }
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(applications)
      .set({ status: verb === 'accept' ? 'approved' : 'rejected', updatedAt: new Date() })
      .where(and(eq(applications.id, applicationId), eq(applications.status, 'pending')))
      .returning();
    if (row) {
      await withdraw(tx, userId, applicationId);
      // The invited player's answer decides the application as a review would: kept in the audit log as theirs.
      await auditDecisions(tx, [{ application: row, from: 'pending', to: row.status }], { id: userId });
    }
    return row;
  });
  if (!updated) return { ok: false, reason: 'stale' };
  publishTournament({ tournamentId: updated.tournamentId, kind: 'application' });
  return { ok: true, application: present(updated) };
}
