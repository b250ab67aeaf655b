/**
 * Registration and check-in (issue 22, decision 014): places under a cap, the waitlist and its
 * promotions, withdrawals, check-in and its close. Every change of who holds a place runs with the
 * tournament row locked (`for update`) before any application row, so concurrent applies,
 * withdrawals, reviews and the close queue up and never overfill the cap, nor deadlock.
 */
import { and, asc, count, eq, inArray, isNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { type ApplicationStatus } from '../../../lib/domain/application-rules.ts';
import { CHECK_IN_CLOSES_BEFORE_MINUTES, CHECK_IN_OPENS_BEFORE_MINUTES, type NoticeKind } from '../../../lib/domain/match-day.ts';
import { tellOrganisation } from '../integrations/events.ts';
import { checkInClose, checkInPhase, checkInWindow, mayCheckIn, PLACE_STATUSES, placesLeft, promotions, type Entry } from '../../../lib/domain/registration.ts';
import { normalizeStatus } from '../../../lib/domain/tournament-status.ts';
import { translate } from '../../../lib/i18n/index.ts';
import { formatDateTime } from '../../../lib/i18n/format.ts';
import type { Database, Tx } from '../../db/client.ts';
import { applications, isCompetitionDrawn, isLiveStatus, notifications, teams, tournaments, users } from '../../db/schema/index.ts';
import type { ApplicationSnapshot, CheckInSnapshot } from '../../../lib/domain/audit.ts';
import { recordAudit, type AuditActor } from '../competition/audit.ts';
import { publishTournament, publishUser } from '../live/live.ts';
import { announce, type Notice } from '../notices/notices.ts';
import { SWEEPS } from '../sweeps.ts';

type TournamentRow = typeof tournaments.$inferSelect;
type ApplicationRow = typeof applications.$inferSelect;

/** The tournament row, locked for the rest of the transaction, and whether its competition is drawn. */
export async function lockForRegistration(tx: Tx, id: string): Promise<(TournamentRow & { drawn: boolean }) | undefined> {
  const [found] = await tx.select({ row: tournaments, drawn: isCompetitionDrawn }).from(tournaments).where(eq(tournaments.id, id)).for('update');
  return found ? { ...found.row, drawn: found.drawn } : undefined;
}

/** Pending and approved applications: the places taken. */
export async function placesTaken(tx: Tx, tournamentId: string): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(applications)
    .where(and(eq(applications.tournamentId, tournamentId), inArray(applications.status, [...PLACE_STATUSES])));
  return row?.n ?? 0;
}

/** A tournament's places taken, how many of those are approved, and the length of its waitlist. */
export async function registrationCounts(tx: Tx, tournamentId: string): Promise<{ placesTaken: number; approved: number; waitlisted: number }> {
  const rows = await tx
    .select({ status: applications.status, n: count() })
    .from(applications)
    .where(eq(applications.tournamentId, tournamentId))
    .groupBy(applications.status);
  const of = (status: ApplicationStatus) => rows.find((r) => r.status === status)?.n ?? 0;
  return { placesTaken: of('pending') + of('approved'), approved: of('approved'), waitlisted: of('waitlisted') };
}

/** The live applications of a tournament, in the order they came. */
async function liveEntries(tx: Tx, tournamentId: string): Promise<ApplicationRow[]> {
  return tx
    .select()
    .from(applications)
    .where(and(eq(applications.tournamentId, tournamentId), isLiveStatus(applications.status)))
    .orderBy(asc(applications.createdAt), asc(applications.id));
}

/** A waitlisted application's place in line, from 1. */
export async function waitlistPosition(tx: Tx, application: Pick<ApplicationRow, 'tournamentId' | 'createdAt' | 'id'>): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(applications)
    .where(
      and(
        eq(applications.tournamentId, application.tournamentId),
        eq(applications.status, 'waitlisted'),
        or(lt(applications.createdAt, application.createdAt), and(eq(applications.createdAt, application.createdAt), lt(applications.id, application.id))),
      ),
    );
  return (row?.n ?? 0) + 1;
}

/** The player an application's notices go to: the solo applicant, or the team's captain. */
async function recipients(tx: Tx, list: readonly Pick<ApplicationRow, 'id' | 'userId' | 'teamId'>[]) {
  const teamIds = [...new Set(list.flatMap((a) => (a.teamId ? [a.teamId] : [])))];
  const teamRows =
    teamIds.length > 0 ? await tx.select({ id: teams.id, name: teams.name, captainId: teams.captainId }).from(teams).where(inArray(teams.id, teamIds)) : [];
  return list.map((a) => {
    const team = a.teamId ? teamRows.find((t) => t.id === a.teamId) : undefined;
    return { application: a, userId: team?.captainId ?? a.userId, team: team?.name ?? null };
  });
}

/** Each application's applicant as people know them: the team's name, or the player's. */
export async function applicantNames(tx: Tx, list: readonly Pick<ApplicationRow, 'id' | 'userId' | 'teamId'>[]): Promise<Map<string, string>> {
  const teamIds = [...new Set(list.flatMap((a) => (a.teamId ? [a.teamId] : [])))];
  const userIds = [...new Set(list.flatMap((a) => (a.teamId ? [] : [a.userId])))];
  const [teamRows, userRows] = await Promise.all([
    teamIds.length > 0 ? tx.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, teamIds)) : [],
    userIds.length > 0 ? tx.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, userIds)) : [],
  ]);
  const names = new Map([...teamRows, ...userRows].map((r) => [r.id, r.name]));
  return new Map(list.map((a) => [a.id, names.get(a.teamId ?? a.userId) ?? '']));
}

/** An application moved from one status to another (or deleted), for the audit log. */
export interface Decision {
  application: Pick<ApplicationRow, 'id' | 'tournamentId' | 'userId' | 'teamId'>;
  from: ApplicationStatus;
  to: ApplicationStatus | 'deleted';
}

/**
 * Writes `applicationDecided` rows (in the caller's transaction): an organiser's decision, or with
 * no actor the server's own move — a place freed for the waitlist, the check-in close. Both decide
 * who plays, so both are kept.
 */
export async function auditDecisions(tx: Tx, decisions: readonly Decision[], actor: AuditActor | null): Promise<void> {
  if (decisions.length === 0) return;
  const names = await applicantNames(
    tx,
    decisions.map((d) => d.application),
  );
  await recordAudit(
    tx,
    decisions.map(({ application, from, to }) => {
      const applicant = names.get(application.id) ?? '';
      const before: ApplicationSnapshot = { status: from, applicant };
      const after: ApplicationSnapshot = { status: to, applicant, ...(actor ? {} : { automatic: true }) };
      return { tournamentId: application.tournamentId, actor, kind: 'applicationDecided' as const, subjectId: application.id, before, after };
    }),
  );
}

/** What a notice about an application says in the bell: the stored Ukrainian line, by kind, solo or team. */
const NOTICE_TEXT = {
  applicationApproved: ['applications.notifyApproved', 'applications.notifyTeamApproved'],
  applicationRejected: ['applications.notifyRejected', 'applications.notifyTeamRejected'],
  applicationWaitlisted: ['applications.notifyWaitlisted', 'applications.notifyTeamWaitlisted'],
  applicationPromoted: ['applications.notifyPromoted', 'applications.notifyTeamPromoted'],
  dropped: ['applications.notifyDropped', 'applications.notifyTeamDropped'],
  restored: ['applications.notifyRestored', 'applications.notifyTeamRestored'],
} as const;

/** The notice kind each announcement is stored as (the reader's settings are by kind). */
const NOTICE_KIND: Record<keyof typeof NOTICE_TEXT, NoticeKind> = {
  applicationApproved: 'applicationApproved',
  applicationRejected: 'applicationRejected',
  applicationWaitlisted: 'applicationWaitlisted',
  applicationPromoted: 'applicationPromoted',
  dropped: 'checkInMissed',
  restored: 'applicationApproved',
};

export type ApplicationNotice = keyof typeof NOTICE_TEXT;

/**
 * Tells each application's player or captain (in the caller's transaction) that it was approved,
 * rejected, waitlisted, promoted, dropped at check-in's close or restored by an organiser. Returns who was told.
 */
export async function announceApplications(
  tx: Tx,
  what: ApplicationNotice,
  list: readonly Pick<ApplicationRow, 'id' | 'userId' | 'teamId' | 'tournamentId'>[],
  tournament: { id: string; title: string },
  comment?: string,
): Promise<string[]> {
  if (list.length === 0) return [];
  const kind = NOTICE_KIND[what];
  const notices: Notice[] = (await recipients(tx, list)).map(({ application, userId, team }) => {
    const [solo, forTeam] = NOTICE_TEXT[what];
    let text = translate('uk', team === null ? solo : forTeam, { title: tournament.title, team: team ?? '' });
    if (comment) text = translate('uk', 'applications.notifyComment', { text, comment });
    return {
      userId,
      kind,
      text,
      params: {
        tournament: tournament.title,
        tournamentId: tournament.id,
        ...(team !== null ? { team } : {}),
        ...(comment ? { comment } : {}),
        ...(what === 'dropped' ? { reason: 'checkIn' } : {}),
      },
      link: `/tournaments/${tournament.id}`,
      tournamentId: tournament.id,
      payload: { applicationId: application.id, ...(application.teamId ? { teamId: application.teamId } : {}) },
    };
  });
  await announce(tx, notices);
  return notices.map((n) => n.userId);
}

/**
 * Fills the places free under the cap from the waitlist, earliest first, as pending applications
 * (the admin still reviews them), and tells them. The tournament must be locked by the caller; a
 * drawn competition takes nobody new. Returns who was told.
 */
export async function fillFreePlaces(tx: Tx, tournament: Pick<TournamentRow, 'id' | 'title' | 'maxParticipants'> & { drawn: boolean }): Promise<string[]> {
  if (tournament.drawn) return [];
  const entries = await liveEntries(tx, tournament.id);
  const promoted = promotions(entries, tournament.maxParticipants);
  if (promoted.length === 0) return [];
  const ids = promoted.map((e) => e.id);
  await tx.update(applications).set({ status: 'pending', updatedAt: new Date() }).where(inArray(applications.id, ids));
  await auditDecisions(
    tx,
    entries.filter((e) => ids.includes(e.id)).map((e) => ({ application: e, from: e.status, to: 'pending' as const })),
    null,
  );
  return announceApplications(
    tx,
    'applicationPromoted',
    entries.filter((e) => ids.includes(e.id)),
    tournament,
  );
}

/** Tells the bells of those just notified, once the transaction committed. */
export function toldUsers(told: readonly string[]): void {
  for (const userId of new Set(told)) publishUser({ userId, kind: 'notification' });
}

/** Tells the tournament's pages and the bells that changed, once the transaction committed. */
export function published(tournamentId: string, kind: 'application' | 'checkIn', told: readonly string[] = []): void {
  publishTournament({ tournamentId, kind });
  toldUsers(told);
}

/** Whether `userId` owns the application: its solo applicant, or its team's captain. */
async function owns(tx: Tx, application: Pick<ApplicationRow, 'userId' | 'teamId'>, userId: string): Promise<boolean> {
  if (!application.teamId) return application.userId === userId;
  const [team] = await tx.select({ captainId: teams.captainId }).from(teams).where(eq(teams.id, application.teamId));
  return team?.captainId === userId;
}

export type Withdrawal = { ok: true } | { ok: false; reason: 'notFound' | 'notOwner' | 'started' };

/**
 * A player (or a team's captain) withdraws their own application before the tournament starts:
 * it is deleted, and a place it held goes to the earliest of the waitlist.
 */
export async function withdrawApplication(db: Tx, id: string, userId: string): Promise<Withdrawal> {
  const result = await db.transaction(async (tx) => {
    const [found] = await tx.select({ tournamentId: applications.tournamentId }).from(applications).where(eq(applications.id, id));
    if (!found) return { ok: false, reason: 'notFound' } as const;
    const tournament = await lockForRegistration(tx, found.tournamentId);
    const [application] = await tx.select().from(applications).where(eq(applications.id, id)).for('update');
    if (!tournament || !application) return { ok: false, reason: 'notFound' } as const;
    if (!(await owns(tx, application, userId))) return { ok: false, reason: 'notOwner' } as const;
    if (normalizeStatus(tournament.status) !== 'pending' || tournament.drawn) return { ok: false, reason: 'started' } as const;
    await tx.delete(applications).where(eq(applications.id, id));
    const told = PLACE_STATUSES.some((s) => s === application.status) ? await fillFreePlaces(tx, tournament) : [];
    return { ok: true, tournamentId: tournament.id, told } as const;
  });
  if (!result.ok) return result;
  published(result.tournamentId, 'application', result.told);
  return { ok: true };
}

export type CheckInRefusal = 'notFound' | 'applicationNotFound' | 'disabled' | 'notParticipant' | 'notEligible' | 'drawn' | 'notOpen' | 'closed' | 'appliedAgain' | 'full';

type CheckedIn = { _id: string; status: ApplicationStatus; checkedInAt: string | null };
export type CheckInResult = { ok: true; application: CheckedIn } | { ok: false; reason: CheckInRefusal };

/** The caller's own live application in a tournament: solo, or of a team they captain. */
async function ownApplication(tx: Tx, tournamentId: string, userId: string): Promise<ApplicationRow | undefined> {
  const captained = tx.select({ id: teams.id }).from(teams).where(eq(teams.captainId, userId));
  const [row] = await tx
    .select()
    .from(applications)
    .where(
      and(
        eq(applications.tournamentId, tournamentId),
        isLiveStatus(applications.status),
        or(and(isNull(applications.teamId), eq(applications.userId, userId)), inArray(applications.teamId, captained)),
      ),
    )
    .orderBy(asc(applications.createdAt))
    .limit(1)
    .for('update');
  return row;
}

/**
 * Checks a participant in (or, with `checkedIn: false`, out): the approved or waitlisted player,
 * or the captain for the team, while the window is open. An admin naming `applicationId` may do it
 * for anyone at any time until the competition is drawn.
 */
export async function setCheckIn(
  db: Tx,
  tournamentId: string,
  caller: { userId: string; isAdmin: boolean },
  input: { applicationId?: string | undefined; checkedIn: boolean },
  now = new Date(),
): Promise<CheckInResult> {
  const result = await db.transaction(async (tx): Promise<{ ok: true; application: CheckedIn; told: string[] } | { ok: false; reason: CheckInRefusal }> => {
    const tournament = await lockForRegistration(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (!tournament.checkInEnabled) return { ok: false, reason: 'disabled' };
    let application: ApplicationRow | undefined;
    const override = caller.isAdmin && input.applicationId !== undefined;
    // Outside the window a player is told so first (a player dropped at the close is no participant any more).
    const phase = checkInPhase(tournament, now);
    if (!override && (phase === 'notOpen' || phase === 'closed')) return { ok: false, reason: phase };
    if (input.applicationId !== undefined) {
      [application] = await tx.select().from(applications).where(eq(applications.id, input.applicationId)).for('update');
      if (!application || application.tournamentId !== tournamentId) return { ok: false, reason: 'applicationNotFound' };
      if (!override && !(await owns(tx, application, caller.userId))) return { ok: false, reason: 'notParticipant' };
    } else {
      application = await ownApplication(tx, tournamentId, caller.userId);
      if (!application) return { ok: false, reason: 'notParticipant' };
    }
    if (tournament.drawn) return { ok: false, reason: 'drawn' };
    // An organiser checking in someone dropped at the close brings them back: the place is theirs again.
    const restores = override && input.checkedIn && application.status === 'noShow';
    if (!mayCheckIn(application.status) && !restores) return { ok: false, reason: override ? 'notEligible' : 'notParticipant' };
    // Someone dropped may have applied again since: that application is theirs now, not this one.
    if (restores && (await liveApplicationOf(tx, application))) return { ok: false, reason: 'appliedAgain' };
    // Their place may have gone to someone from the waitlist: the cap holds for a restore as for an approval.
    if (restores && placesLeft(tournament.maxParticipants, await placesTaken(tx, tournamentId)) === 0) return { ok: false, reason: 'full' };
    const checkedInAt = input.checkedIn ? (application.checkedInAt ?? now) : null;
    const status = restores ? 'approved' : application.status;
    await tx.update(applications).set({ checkedInAt, status, updatedAt: now }).where(eq(applications.id, application.id));
    // An organiser's check-in for someone else is kept in the audit log; a participant's own is not a decision.
    let told: string[] = [];
    if (override && (Boolean(application.checkedInAt) !== input.checkedIn || restores)) {
      const participant = (await applicantNames(tx, [application])).get(application.id) ?? '';
      const before: CheckInSnapshot = { checkedIn: !input.checkedIn, participant, ...(restores ? { status: application.status } : {}) };
      const after: CheckInSnapshot = { checkedIn: input.checkedIn, participant, ...(restores ? { status } : {}) };
      await recordAudit(tx, { tournamentId, actor: { id: caller.userId }, kind: 'checkInOverride', subjectId: application.id, before, after });
      if (restores) told = await announceApplications(tx, 'restored', [application], tournament);
    }
    return { ok: true, application: { _id: application.id, status, checkedInAt: checkedInAt?.toISOString() ?? null }, told };
  });
  if (!result.ok) return result;
  published(tournamentId, restoredKind(result), result.told);
  return { ok: true, application: result.application };
}

/** Another live application of the same player (solo) or team in the tournament, if any. */
async function liveApplicationOf(tx: Tx, application: ApplicationRow): Promise<boolean> {
  const [row] = await tx
    .select({ id: applications.id })
    .from(applications)
    .where(
      and(
        eq(applications.tournamentId, application.tournamentId),
        isLiveStatus(applications.status),
        application.teamId ? eq(applications.teamId, application.teamId) : and(isNull(applications.teamId), eq(applications.userId, application.userId)),
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** A restore changes the lineup (an application's status); a check-in alone changes check-in. */
const restoredKind = (done: { told: readonly string[] }): 'application' | 'checkIn' => (done.told.length > 0 ? 'application' : 'checkIn');

export type CheckInExtension =
  { ok: true; closesAt: string } | { ok: false; reason: 'notFound' | 'disabled' | 'drawn' | 'alreadyClosed' | 'notLater' | 'afterStart' };

/**
 * An organiser moves check-in's close later (issue 57), while it has not been carried out: the
 * players still missing get more time. The start stays where it is, so the close may not pass it
 * (`scheduleProblem`); an organiser who needs more moves the start first. Kept in the audit log.
 */
export async function extendCheckIn(db: Tx, tournamentId: string, closesAt: Date, actor: { id: string }, now = new Date()): Promise<CheckInExtension> {
  const result = await db.transaction(async (tx): Promise<CheckInExtension> => {
    const tournament = await lockForRegistration(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'notFound' };
    if (!tournament.checkInEnabled) return { ok: false, reason: 'disabled' };
    if (tournament.drawn) return { ok: false, reason: 'drawn' };
    if (tournament.checkInClosedAt) return { ok: false, reason: 'alreadyClosed' };
    const before = checkInWindow(tournament).closesAt;
    if (closesAt <= before || closesAt <= now) return { ok: false, reason: 'notLater' };
    if (closesAt > tournament.date) return { ok: false, reason: 'afterStart' };
    await tx.update(tournaments).set({ checkInClosesAt: closesAt, updatedAt: now }).where(eq(tournaments.id, tournamentId));
    await recordAudit(tx, {
      tournamentId,
      actor,
      kind: 'checkInExtended',
      subjectId: tournamentId,
      before: { closesAt: before.toISOString() },
      after: { closesAt: closesAt.toISOString() },
    });
    return { ok: true, closesAt: closesAt.toISOString() };
  });
  if (result.ok) published(tournamentId, 'checkIn');
  return result;
}

export type CheckInClose = { closed: false } | { closed: true; dropped: string[]; promoted: string[] };

/**
 * The end of check-in, carried out once per tournament (guarded by `checkInClosedAt`, set in the
 * same transaction): approved participants who did not check in are dropped (`noShow`), waitlisted
 * ones who did fill the freed places in the order they applied, the rest of the waitlist stays.
 * Nothing happens before the window's end, nor to a competition already drawn (its lineup is fixed).
 */
export async function closeCheckIn(db: Tx, tournamentId: string, now = new Date()): Promise<CheckInClose> {
  const result = await db.transaction((tx) => closeCheckInWithin(tx, tournamentId, now));
  if (!result.closed) return result;
  published(tournamentId, 'checkIn', result.told);
  return { closed: true, dropped: result.dropped, promoted: result.promoted };
}

/** A close carried out in a transaction, and whom its notices were stored for (`told`). */
export type CheckInClosing = { closed: false } | { closed: true; dropped: string[]; promoted: string[]; told: string[] };

/**
 * `closeCheckIn`'s work in the caller's transaction, telling no one: the caller publishes
 * (`published(id, 'checkIn', told)`) once its own transaction committed. A draw closes check-in
 * this way, so a refused draw rolls the close back with it.
 */
export async function closeCheckInWithin(tx: Tx, tournamentId: string, now = new Date()): Promise<CheckInClosing> {
  const tournament = await lockForRegistration(tx, tournamentId);
  if (!tournament || !tournament.checkInEnabled || tournament.checkInClosedAt) return { closed: false };
  if (now < checkInWindow(tournament).closesAt) return { closed: false };
  await tx.update(tournaments).set({ checkInClosedAt: now }).where(eq(tournaments.id, tournamentId));
  if (tournament.drawn) return { closed: true, dropped: [], promoted: [], told: [] };
  const entries = await liveEntries(tx, tournamentId);
  const outcome = checkInClose(entries as Entry[], tournament.maxParticipants);
  const dropped = outcome.dropped.map((e) => e.id);
  const promoted = outcome.promoted.map((e) => e.id);
  if (dropped.length > 0) await tx.update(applications).set({ status: 'noShow', updatedAt: now }).where(inArray(applications.id, dropped));
  if (promoted.length > 0) await tx.update(applications).set({ status: 'approved', updatedAt: now }).where(inArray(applications.id, promoted));
  await auditDecisions(
    tx,
    [
      ...entries.filter((e) => dropped.includes(e.id)).map((e) => ({ application: e, from: e.status, to: 'noShow' as const })),
      ...entries.filter((e) => promoted.includes(e.id)).map((e) => ({ application: e, from: e.status, to: 'approved' as const })),
    ],
    null,
  );
  const told = [
    ...(await announceApplications(
      tx,
      'dropped',
      entries.filter((e) => dropped.includes(e.id)),
      tournament,
    )),
    ...(await announceApplications(
      tx,
      'applicationPromoted',
      entries.filter((e) => promoted.includes(e.id)),
      tournament,
    )),
  ];
  return { closed: true, dropped, promoted, told };
}

const minutes = (n: number) => sql`(${n} * interval '1 minute')`;
/** The check-in window in SQL, with the defaults of lib/domain/match-day.ts. */
const opensAt = sql`coalesce(${tournaments.checkInOpensAt}, ${tournaments.date} - ${minutes(CHECK_IN_OPENS_BEFORE_MINUTES)})`;
const closesAt = sql`coalesce(${tournaments.checkInClosesAt}, ${tournaments.date} - ${minutes(CHECK_IN_CLOSES_BEFORE_MINUTES)})`;
/** A moment as a bound timestamp (a raw expression gives the driver no column type to map a Date with). */
const at = (moment: Date) => sql`${moment.toISOString()}::timestamptz`;
const checkInPending: SQL = and(eq(tournaments.checkInEnabled, true), isNull(tournaments.checkInClosedAt))!;

/**
 * Tells every approved or waitlisted participant (the captain for a team) once that check-in is
 * open. Idempotent: who already holds this tournament's `checkInOpen` notice is not told again, so
 * a participant approved later in the window is told on the next run. The tournament row is
 * locked (skipping one another instance holds), so instances never tell anyone twice.
 */
export async function announceCheckInOpen(db: Tx, tournamentId: string, now = new Date()): Promise<string[]> {
  const told = await db.transaction(async (tx) => {
    const [found] = await tx
      .select({ tournament: tournaments, drawn: isCompetitionDrawn })
      .from(tournaments)
      .where(eq(tournaments.id, tournamentId))
      .for('update', { skipLocked: true });
    const tournament = found?.tournament;
    if (!tournament || checkInPhase(tournament, now) !== 'open' || found.drawn) return [];
    // Its organisation's channels hear of it once (issue 60), however often the sweep finds it open.
    await tellOrganisation(tx, tournamentId, 'checkIn.opened', { closesAt: checkInWindow(tournament).closesAt.toISOString() }, { once: true });
    const participants = await tx
      .select()
      .from(applications)
      .where(and(eq(applications.tournamentId, tournamentId), inArray(applications.status, ['approved', 'waitlisted'])));
    if (participants.length === 0) return [];
    const targets = await recipients(tx, participants);
    const already = await tx
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(
        and(
          eq(notifications.kind, 'checkInOpen'),
          sql`${notifications.payload} ->> 'tournamentId' = ${tournamentId}`,
          inArray(
            notifications.userId,
            targets.map((t) => t.userId),
          ),
        ),
      );
    const done = new Set(already.map((r) => r.userId));
    const closes = checkInWindow(tournament).closesAt;
    const notices: Notice[] = [];
    for (const { userId } of targets) {
      if (done.has(userId)) continue;
      done.add(userId);
      notices.push({
        userId,
        kind: 'checkInOpen',
        text: translate('uk', 'checkIn.notifyOpen', { title: tournament.title, time: formatDateTime(closes, { locale: 'uk' }) }),
        params: { tournament: tournament.title, tournamentId, closesAt: closes.toISOString() },
        link: `/tournaments/${tournamentId}`,
        tournamentId,
      });
    }
    await announce(tx, notices);
    return notices.map((n) => n.userId);
  });
  for (const userId of told) publishUser({ userId, kind: 'notification' });
  return told;
}

/**
 * One run of the check-in sweep at `now`: closes every window that has ended and announces the
 * ones that are open. Returns the tournaments it closed.
 */
export async function sweepCheckIn(db: Database, now: Date): Promise<string[]> {
  const due = await db
    .select({ id: tournaments.id })
    .from(tournaments)
    .where(and(checkInPending, sql`${closesAt} <= ${at(now)}`));
  const closed: string[] = [];
  for (const { id } of due) if ((await closeCheckIn(db, id, now)).closed) closed.push(id);
  const open = await db
    .select({ id: tournaments.id })
    .from(tournaments)
    .where(and(checkInPending, sql`${opensAt} <= ${at(now)}`, sql`${closesAt} > ${at(now)}`));
  for (const { id } of open) await announceCheckInOpen(db, id, now);
  return closed;
}

SWEEPS.push({ name: 'checkIn', everyMs: 15_000, run: sweepCheckIn });
