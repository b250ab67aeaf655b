import { createRoute, z } from '@hono/zod-openapi';
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import {
  invitedApplicationMessageSchema,
  tournamentInviteInput,
  type InvitedApplication,
} from '../../../lib/api/notifications.ts';
import { applicationsClosed, isTeamSizeAllowed, TEAM_SIZE } from '../../../lib/domain/application-rules.ts';
import { isDrawn } from '../../../lib/domain/bracket.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { applications, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import { adminOnly, type AppContext, requireAdmin, requireUser, signedIn } from '../context.ts';
import { fail } from '../errors.ts';
import { isUniqueViolation } from '../../services/db-errors.ts';
import { holdsInvite, inviteActions, notify, withdrawNotifications } from '../../services/notifications.ts';
import { bearer, errors, jsonBody, jsonResponse, router } from '../openapi.ts';

/*
 * Tournament invites (docs/decisions/001-tournament-invites.md): an admin invites a player into a
 * pending solo tournament, or a team (through its captain) into a pending team tournament. The
 * invite is a pending application plus a notification to the invited player; that notification
 * is the proof of the invite, so a player cannot approve an application of their own making.
 */

const tags = ['Заявки'];
const INVITE_TYPES = ['acceptTournamentInvite', 'declineTournamentInvite'] as const;
const applicationParam = z.object({ applicationId: z.uuid() });
type ApplicationRow = typeof applications.$inferSelect;

const present = (row: ApplicationRow): InvitedApplication => ({
  _id: row.id,
  tournament: row.tournamentId,
  user: row.userId,
  team: row.teamId,
  status: row.status,
  comment: row.comment,
});

async function hasLiveApplication(db: Tx, tournamentId: string, target: { userId: string } | { teamId: string }): Promise<boolean> {
  const live = inArray(applications.status, ['pending', 'approved']);
  const who =
    'teamId' in target
      ? eq(applications.teamId, target.teamId)
      : and(eq(applications.userId, target.userId), isNull(applications.teamId));
  const [row] = await db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.tournamentId, tournamentId), live, who))
    .limit(1);
  return Boolean(row);
}

const withdraw = (db: Tx, userId: string, applicationId: string) =>
  withdrawNotifications(db, userId, { actionTypes: [...INVITE_TYPES], key: 'applicationId', value: applicationId });

/** Accept or reject: only the invited player (solo) or the team's captain, and only while the invite stands. */
async function answer(c: AppContext, applicationId: string, verb: 'accept' | 'reject') {
  const { user } = requireUser(c);
  const db = c.get('db');
  const [application] = await db.select().from(applications).where(eq(applications.id, applicationId));
  if (!application) fail(404, 'tournamentInvite.applicationNotFound');
  let recipient = application.userId;
  if (application.teamId) {
    const [team] = await db.select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, application.teamId));
    recipient = team?.captainId ?? application.userId;
  }
  if (recipient !== user.id) fail(403, 'tournamentInvite.notYours');
  if (!(await holdsInvite(db, user.id, { actionTypes: [...INVITE_TYPES], key: 'applicationId', value: applicationId }))) {
    fail(404, 'tournamentInvite.notFound');
  }
  const [tournament] = await db
    .select({ status: tournaments.status, bracket: tournaments.bracket })
    .from(tournaments)
    .where(eq(tournaments.id, application.tournamentId));
  if (application.status !== 'pending' || !tournament || applicationsClosed({ status: tournament.status, bracketDrawn: isDrawn(tournament.bracket) })) {
    // The invite is moot (decided by an admin, or the tournament began): clear it from the bell.
    await withdraw(db, user.id, applicationId);
    fail(409, 'tournamentInvite.stale');
  }
  if (verb === 'accept' && application.teamId) {
    const [size] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, application.teamId));
    if (!isTeamSizeAllowed(size?.n ?? 0)) fail(422, 'tournamentInvite.teamSize', { min: TEAM_SIZE.min, max: TEAM_SIZE.max });
  }
  const updated = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(applications)
      .set({ status: verb === 'accept' ? 'approved' : 'rejected', updatedAt: new Date() })
      .where(and(eq(applications.id, applicationId), eq(applications.status, 'pending')))
      .returning();
    if (row) await withdraw(tx, user.id, applicationId);
    return row;
  });
  if (!updated) fail(409, 'tournamentInvite.stale');
  return c.json({ message: t(verb === 'accept' ? 'tournamentInvite.accepted' : 'tournamentInvite.rejected'), application: present(updated) }, 200);
}

/** Beside the applications router at /applications: tournament invites and their answers. */
export const applicationInvitesRoutes = router()
  .openapi(
    createRoute({
      method: 'post',
      path: '/invite',
      tags,
      summary:
        'Адмін: запросити гравця (соло-турнір, поле user) або команду (командний турнір, поле team) на турнір, що очікує. ' +
        'Створює заявку зі статусом pending і сповіщення гравцю або капітану з діями прийняти/відхилити',
      security: bearer,
      middleware: [adminOnly] as const,
      request: { body: jsonBody(tournamentInviteInput) },
      responses: { 201: jsonResponse(invitedApplicationMessageSchema, 'Запрошення надіслано'), ...errors(400, 401, 403, 404, 409, 415) },
    }),
    async (c) => {
      requireAdmin(c);
      const body = c.req.valid('json');
      const db = c.get('db');
      if (Boolean(body.user) === Boolean(body.team)) fail(400, 'tournamentInvite.oneTarget');
      const [tournament] = await db.select().from(tournaments).where(eq(tournaments.id, body.tournament));
      if (!tournament) fail(404, 'tournamentInvite.tournamentNotFound');
      if (tournament.soloOnly && body.team) fail(400, 'tournamentInvite.soloNeedsUser');
      if (!tournament.soloOnly && body.user) fail(400, 'tournamentInvite.teamNeedsTeam');
      const closed = applicationsClosed({ status: tournament.status, bracketDrawn: isDrawn(tournament.bracket) });
      if (closed) fail(409, closed === 'bracketDrawn' ? 'apply.refused.bracketDrawn' : 'tournamentInvite.notPending');

      let recipient: string;
      let text: string;
      if (body.team) {
        const [team] = await db.select().from(teams).where(eq(teams.id, body.team));
        if (!team) fail(404, 'team.notFound');
        if (await hasLiveApplication(db, tournament.id, { teamId: team.id })) fail(409, 'tournamentInvite.alreadyApplied');
        recipient = team.captainId;
        text = t('tournamentInvite.teamNotification', { team: team.name, tournament: tournament.title });
      } else {
        const [player] = await db.select({ id: users.id }).from(users).where(eq(users.id, body.user!));
        if (!player) fail(404, 'team.playerNotFound');
        if (await hasLiveApplication(db, tournament.id, { userId: player.id })) fail(409, 'tournamentInvite.alreadyApplied');
        recipient = player.id;
        text = t('tournamentInvite.soloNotification', { tournament: tournament.title });
      }

      const created = await db
        .transaction(async (tx) => {
          const [row] = await tx
            .insert(applications)
            .values({
              tournamentId: tournament.id,
              userId: recipient,
              teamId: body.team ?? null,
              status: 'pending',
              comment: t('tournamentInvite.comment'),
            })
            .returning();
          await notify(tx, recipient, text, {
            actions: inviteActions(),
            actionType: 'acceptTournamentInvite',
            payload: { applicationId: row!.id, tournamentId: tournament.id },
          });
          return row!;
        })
        .catch((error: unknown) => {
          // A live application made at the same moment: the partial unique index decides.
          if (isUniqueViolation(error)) fail(409, 'tournamentInvite.alreadyApplied');
          throw error;
        });
      return c.json({ message: t('tournamentInvite.sent'), application: present(created) }, 201);
    },
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{applicationId}/accept-invite',
      tags,
      summary: 'Запрошений гравець або капітан запрошеної команди: прийняти запрошення на турнір (заявку схвалено)',
      security: bearer,
      middleware: [signedIn] as const,
      request: { params: applicationParam },
      responses: { 200: jsonResponse(invitedApplicationMessageSchema, 'Запрошення прийнято'), ...errors(400, 401, 403, 404, 409, 422) },
    }),
    async (c) => answer(c, c.req.valid('param').applicationId, 'accept'),
  )
  .openapi(
    createRoute({
      method: 'patch',
      path: '/{applicationId}/reject-invite',
      tags,
      summary: 'Запрошений гравець або капітан запрошеної команди: відхилити запрошення на турнір (заявку відхилено)',
      security: bearer,
      middleware: [signedIn] as const,
      request: { params: applicationParam },
      responses: { 200: jsonResponse(invitedApplicationMessageSchema, 'Запрошення відхилено'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => answer(c, c.req.valid('param').applicationId, 'reject'),
  );
