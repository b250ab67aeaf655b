/**
 * A tournament's staff, its co-organisers (issue 23, decision 016). The admin names them; for that
 * tournament alone they may do what the admin does to decide it (the routes behind
 * `organiserRoute`, api/openapi.ts). `isOrganiser` is the one question every such route asks; the
 * people of a hosting organisation (issue 56) pass it too, and `isHost` besides.
 */
import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { MAX_TOURNAMENT_STAFF } from '../../../lib/domain/organisers.ts';
import { translate } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { applications, organisationMembers, organisations, stageMatches, stages, tournamentStaff, tournaments, users } from '../../db/schema/index.ts';
import { findByLogin, type UserRow } from '../accounts/accounts.ts';
import { recordAudit } from './audit.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import { notify } from '../notices/notifications.ts';
import { lockTournament } from './stages/store.ts';
import { publishing } from '../live/live.ts';

export interface StaffMember {
  _id: string;
  username: string;
  avatar: string;
}

/** Who may organise: a user's id and role are all the question needs. */
export type Organiser = Pick<UserRow, 'id' | 'role'>;

/**
 * Whether `user` organises the tournament: an admin every one; its staff, and the people of the
 * organisation hosting it (issue 56) while that organisation is not suspended, only that one.
 */
export async function isOrganiser(db: Tx, user: Organiser, tournamentId: string): Promise<boolean> {
  if (user.role === 'admin') return true;
  const [row] = await db
    .select({ staff: tournamentStaff.userId, member: organisationMembers.userId })
    .from(tournaments)
    .leftJoin(tournamentStaff, and(eq(tournamentStaff.tournamentId, tournaments.id), eq(tournamentStaff.userId, user.id)))
    .leftJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .leftJoin(organisationMembers, and(eq(organisationMembers.organisationId, organisations.id), eq(organisationMembers.userId, user.id)))
    .where(eq(tournaments.id, tournamentId))
    .limit(1);
  return Boolean(row?.staff ?? row?.member);
}

/**
 * Whether `user` hosts the tournament, and so may also edit and delete it: an admin every one; the
 * people of its organisation (owner, admins and staff alike) theirs while it is not suspended.
 * A tournament's own staff (issue 23) decide its competition but do not host it.
 */
export async function isHost(db: Tx, user: Organiser, tournamentId: string): Promise<boolean> {
  if (user.role === 'admin') return true;
  const [row] = await db
    .select({ member: organisationMembers.userId })
    .from(tournaments)
    .innerJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .innerJoin(organisationMembers, and(eq(organisationMembers.organisationId, organisations.id), eq(organisationMembers.userId, user.id)))
    .where(eq(tournaments.id, tournamentId))
    .limit(1);
  return Boolean(row);
}

/**
 * Who the organisers' notices of a tournament go to (issue 57: a dispute, a call for help): its
 * staff and the people of the organisation hosting it while that is not suspended; for one the site
 * hosts itself (no organisation), its admins besides its staff.
 */
export async function organiserIds(db: Tx, tournamentId: string): Promise<string[]> {
  const [tournament] = await db.select({ organisationId: tournaments.organisationId }).from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!tournament) return [];
  const staff = await db.select({ id: tournamentStaff.userId }).from(tournamentStaff).where(eq(tournamentStaff.tournamentId, tournamentId));
  const hosts = tournament.organisationId
    ? await db
        .select({ id: organisationMembers.userId })
        .from(organisationMembers)
        .innerJoin(organisations, and(eq(organisations.id, organisationMembers.organisationId), isNull(organisations.suspendedAt)))
        .where(eq(organisationMembers.organisationId, tournament.organisationId))
    : await db.select({ id: users.id }).from(users).where(eq(users.role, 'admin'));
  return [...new Set([...staff, ...hosts].map((r) => r.id))];
}

/** The tournaments a user is staff of (`GET /api/users/me` `staffOf`). */
export async function staffOf(db: Tx, userId: string): Promise<string[]> {
  const rows = await db
    .select({ tournamentId: tournamentStaff.tournamentId })
    .from(tournamentStaff)
    .where(eq(tournamentStaff.userId, userId))
    .orderBy(asc(tournamentStaff.createdAt));
  return rows.map((r) => r.tournamentId);
}

/** The tournament an application belongs to, for the organiser guard of `/applications/{id}`. */
export async function tournamentOfApplication(db: Tx, applicationId: string): Promise<string | null> {
  const [row] = await db.select({ id: applications.tournamentId }).from(applications).where(eq(applications.id, applicationId));
  return row?.id ?? null;
}

/** The tournament a stage match belongs to, for the organiser guard of `/matches/{id}`. */
export async function tournamentOfMatch(db: Tx, matchId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: stages.tournamentId })
    .from(stageMatches)
    .innerJoin(stages, eq(stages.id, stageMatches.stageId))
    .where(eq(stageMatches.id, matchId));
  return row?.id ?? null;
}

/** The tournament's organisers, the earliest named first; null when there is no such tournament. */
export async function listStaff(db: Tx, tournamentId: string): Promise<StaffMember[] | null> {
  const [tournament] = await db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!tournament) return null;
  return staffRows(db, tournamentId);
}

/** `listStaff` of a tournament known to exist (the tournament page has just read it). */
export async function staffRows(db: Tx, tournamentId: string): Promise<StaffMember[]> {
  const rows = await db
    .select({ id: users.id, username: users.username, avatarImageId: users.avatarImageId })
    .from(tournamentStaff)
    .innerJoin(users, eq(users.id, tournamentStaff.userId))
    .where(eq(tournamentStaff.tournamentId, tournamentId))
    .orderBy(asc(tournamentStaff.createdAt), asc(users.username));
  return rows.map((r) => ({ _id: r.id, username: r.username, avatar: avatarUrl(r.id, r.avatarImageId) }));
}

export type StaffRefusal = 'tournamentNotFound' | 'userNotFound' | 'already' | 'admin' | 'full';
export type StaffChange = { ok: true; staff: StaffMember[]; user: { id: string; username: string } } | { ok: false; reason: StaffRefusal };

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** The user `query` names: by id, else by nickname or email address (as sign-in finds them). */
async function findUser(db: Tx, query: string): Promise<UserRow | undefined> {
  if (isUuid(query)) {
    const [row] = await db.select().from(users).where(eq(users.id, query));
    return row;
  }
  return findByLogin(db, query);
}

/**
 * Names a co-organiser of the tournament (`query`: a user id, nickname or email address). Under the
 * tournament's lock, so a burst of the same request adds one row and the limit holds. An admin
 * organises every tournament already and is refused (`admin`): a staff row for them would say
 * nothing, and would silently grant rights if their role were taken away later. The person is told
 * in the bell, and the audit log records who added whom, both in the same transaction.
 */
async function addCoOrganiser(db: Tx, tournamentId: string, query: string, actor: Pick<UserRow, 'id' | 'username'>): Promise<StaffChange> {
  return db.transaction(async (tx): Promise<StaffChange> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    const user = await findUser(tx, query);
    if (!user) return { ok: false, reason: 'userNotFound' };
    if (user.role === 'admin') return { ok: false, reason: 'admin' };
    if (await isOrganiser(tx, user, tournamentId)) return { ok: false, reason: 'already' };
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(tournamentStaff).where(eq(tournamentStaff.tournamentId, tournamentId));
    if (n >= MAX_TOURNAMENT_STAFF) return { ok: false, reason: 'full' };
    await tx.insert(tournamentStaff).values({ tournamentId, userId: user.id, addedBy: actor.id });
    await recordAudit(tx, { tournamentId, actor, kind: 'staffAdded', subjectId: user.id, after: { username: user.username } });
    // Stored words, so they are the reader's language, not the admin's.
    await notify(tx, user.id, translate(user.locale, 'staff.notice.added', { title: tournament.title }), {
      payload: { tournamentId },
      link: `/tournaments/${tournamentId}`,
    });
    return { ok: true, staff: await staffRows(tx, tournamentId), user: { id: user.id, username: user.username } };
  });
}

export type StaffRemoval = { ok: true; staff: StaffMember[]; user: { id: string; username: string } } | { ok: false; reason: 'tournamentNotFound' | 'notStaff' };

/** Takes a co-organiser's rights on the tournament away at once; told in the bell, recorded in the audit log. */
async function removeCoOrganiser(db: Tx, tournamentId: string, userId: string, actor: Pick<UserRow, 'id' | 'username'>): Promise<StaffRemoval> {
  return db.transaction(async (tx): Promise<StaffRemoval> => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    const gone = await tx
      .delete(tournamentStaff)
      .where(and(eq(tournamentStaff.tournamentId, tournamentId), eq(tournamentStaff.userId, userId)))
      .returning({ userId: tournamentStaff.userId });
    if (gone.length === 0) return { ok: false, reason: 'notStaff' };
    const [user] = await tx.select({ id: users.id, username: users.username, locale: users.locale }).from(users).where(eq(users.id, userId));
    await recordAudit(tx, { tournamentId, actor, kind: 'staffRemoved', subjectId: userId, before: { username: user?.username ?? '' } });
    if (user) {
      await notify(tx, user.id, translate(user.locale, 'staff.notice.removed', { title: tournament.title }), {
        payload: { tournamentId },
        link: `/tournaments/${tournamentId}`,
      });
    }
    return { ok: true, staff: await staffRows(tx, tournamentId), user: { id: userId, username: user?.username ?? '' } };
  });
}

/** A co-organiser named: the tournament's page shows its organisers. */
export const addStaff = publishing(addCoOrganiser, (_done, _db, tournamentId) => ({ tournamentId, kind: 'tournament' }));

/** A co-organiser removed: the tournament's page shows its organisers. */
export const removeStaff = publishing(removeCoOrganiser, (_done, _db, tournamentId) => ({ tournamentId, kind: 'tournament' }));
