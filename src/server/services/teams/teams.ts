import { and, asc, count, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Team, TeamPerson } from '../../../lib/api/teams.ts';
import { hasRoomForMember } from '../../../lib/domain/team.ts';
import { translate } from '../../../lib/i18n/index.ts';
import type { Database, Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import { teamInvites, teamMembers, teams, users } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { findByEmail, findByLogin } from '../accounts/accounts.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { signalUsers, usersSignal } from '../live/live.ts';
import { isLookAlikeViolation, skeletonColumns, teamNameLooksTaken } from '../accounts/names.ts';
import { inviteActions, notify, withdrawNotifications } from '../notices/notifications.ts';
import type { Limit, RateLimiter } from '../rate-limit.ts';
import { changed, EVERYTHING } from '../live/changes.ts';

export type TeamRow = typeof teams.$inferSelect;

const TEAM_INVITE_TYPES = ['acceptTeamInvite', 'declineTeamInvite'] as const;

const personColumns = { id: users.id, username: users.username, email: users.email, avatarImageId: users.avatarImageId };
type PersonRow = { id: string; username: string; email: string; avatarImageId: string | null };

/** A player as teams show one (SPEC §3 Team: _id, username, email, avatar). */
export const presentPerson = (row: PersonRow): TeamPerson => ({
  _id: row.id,
  username: row.username,
  email: row.email,
  avatar: avatarUrl(row.id, row.avatarImageId),
});

export async function findTeam(db: Tx, id: string): Promise<TeamRow | undefined> {
  const [row] = await db.select().from(teams).where(eq(teams.id, id));
  return row;
}

/** Where a player stands with a team, in one query: no such team, not a member, or a member. */
/** The chat's guard asks it before every message: prepared (db/prepared.ts). */
const membershipStatement = prepared((db) =>
  db
    .select({ member: teamMembers.userId })
    .from(teams)
    .leftJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.userId, sql.placeholder('userId'))))
    .where(eq(teams.id, sql.placeholder('teamId')))
    .prepare('team_membership'),
);

export async function membership(db: Database, teamId: string, userId: string): Promise<'noTeam' | 'outsider' | 'member'> {
  const [row] = await membershipStatement(db).execute({ teamId, userId });
  if (!row) return 'noTeam';
  return row.member === null ? 'outsider' : 'member';
}

export async function isMember(db: Tx, teamId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)));
  return Boolean(row);
}

async function memberCount(db: Tx, teamId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  return row?.n ?? 0;
}

/** Teams as the API shows them, with captain, members (in joining order) and open invites. */
export async function presentTeams(db: Tx, rows: TeamRow[]): Promise<Team[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const members = await db
    .select({ teamId: teamMembers.teamId, ...personColumns })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, ids))
    .orderBy(asc(teamMembers.joinedAt), asc(users.username));
  const invites = await db
    .select({ teamId: teamInvites.teamId, inviteId: teamInvites.id, createdAt: teamInvites.createdAt, ...personColumns })
    .from(teamInvites)
    .innerJoin(users, eq(users.id, teamInvites.userId))
    .where(and(inArray(teamInvites.teamId, ids), eq(teamInvites.byEmail, false)))
    .orderBy(asc(teamInvites.createdAt));
  const captains = await db
    .select(personColumns)
    .from(users)
    .where(inArray(users.id, rows.map((r) => r.captainId)));
  return rows.map((row) => {
    const captain = captains.find((c) => c.id === row.captainId);
    const own = members.filter((m) => m.teamId === row.id);
    // The captain is listed first, whatever the joining order says.
    own.sort((a, b) => Number(b.id === row.captainId) - Number(a.id === row.captainId));
    return {
      _id: row.id,
      name: row.name,
      logoUrl: row.logoUrl,
      captain: captain ? presentPerson(captain) : presentPerson(own[0]!),
      members: own.map(presentPerson),
      invites: invites
        .filter((i) => i.teamId === row.id)
        .map((i) => ({ ...presentPerson(i), inviteId: i.inviteId, createdAt: i.createdAt.toISOString() })),
      createdAt: row.createdAt.toISOString(),
    };
  });
}

export async function presentTeam(db: Tx, row: TeamRow): Promise<Team> {
  const [team] = await presentTeams(db, [row]);
  return team!;
}

/** The user's teams in the order they joined them: the first is the current team (SPEC §3 User). */
export async function teamsOf(db: Tx, userId: string): Promise<TeamRow[]> {
  const rows = await db
    .select({ team: teams })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
    .orderBy(asc(teamMembers.joinedAt), asc(teams.name));
  return rows.map((r) => r.team);
}

/**
 * A new team with `captain` as its captain and first member; 'taken' when the name is in use (any
 * case), 'lookAlike' when it looks like another team's (lib/domain/names.ts).
 */
export async function createTeam(db: Tx, captain: UserRow, input: { name: string; logoUrl: string | null }): Promise<TeamRow | 'taken' | 'lookAlike'> {
  const [clash] = await db
    .select({ id: teams.id })
    .from(teams)
    .where(eq(sql`lower(${teams.name})`, input.name.toLowerCase()));
  if (clash) return 'taken';
  if (await teamNameLooksTaken(db, input.name)) return 'lookAlike';
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(teams)
        .values({ name: input.name, ...skeletonColumns(input.name), logoUrl: input.logoUrl, captainId: captain.id })
        .returning();
      await tx.insert(teamMembers).values({ teamId: row!.id, userId: captain.id });
      // A member's teams are in their session; a team shows on the lists of teams.
      changed('sessions', EVERYTHING);
      return row!;
    });
  } catch (error) {
    // Two teams racing for one name, or two look-alikes: the unique indexes decide.
    if (isLookAlikeViolation(error)) return 'lookAlike';
    if (isUniqueViolation(error)) return 'taken';
    throw error;
  }
}

/**
 * `signalTeam` for a message posted to the team's chat, as one SQL expression (live.ts
 * `usersSignal`): a team's TEAM_MAX_MEMBERS members fit one message, which also tells every
 * instance to forget the chat it holds (held-chats.ts).
 */
export const teamChatSignal = (teamId: string): SQL =>
  usersSignal(sql`(select coalesce(json_agg(${teamMembers.userId}), '[]'::json) from ${teamMembers} where ${teamMembers.teamId} = ${teamId})`, 'team', teamId);

/**
 * Tells the team's members (and `also`: a player just removed, an invitee) that the team changed,
 * so their team view and chat read it again at once (issue 22: the team tab hears its changes as
 * the bell does). Called inside the change's transaction: only a committed change is told.
 */
export async function signalTeam(tx: Tx, teamId: string, also: readonly string[] = []): Promise<void> {
  const members = await tx.select({ id: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, teamId));
  await signalUsers(tx, [...members.map((m) => m.id), ...also], 'team');
}

export async function setTeamLogo(db: Tx, teamId: string, logoUrl: string): Promise<TeamRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(teams).set({ logoUrl, logoImageId: null }).where(eq(teams.id, teamId)).returning();
    changed(EVERYTHING);
    await signalTeam(tx, teamId);
    return row!;
  });
}

/** Team invites one player can receive in an hour, from every team together: nobody is flooded by new teams. */
export const INVITES_RECEIVED_LIMIT: Limit = { max: 10, windowSeconds: 60 * 60 };

export type InviteOutcome =
  | { ok: true; invitee: UserRow }
  | { ok: false; reason: 'unknownPlayer' | 'member' | 'invited' | 'full' }
  | { ok: false; reason: 'flooded'; retryAfter: number };

/** Whether `query` names a player by email address (nicknames cannot hold an @). */
export const isEmailQuery = (query: string) => query.includes('@');

/**
 * Invites the player named by nickname or email; the player gets a notification with accept /
 * decline. An invite by email is kept out of the team's list of invites (`byEmail`), and the
 * caller answers it alike whatever the outcome, so an address reveals no account.
 */
export async function invitePlayer(db: Tx, limits: RateLimiter, team: TeamRow, captain: UserRow, query: string): Promise<InviteOutcome> {
  // A full team is said first, before anything depends on who the query names.
  if (!hasRoomForMember(await memberCount(db, team.id))) return { ok: false, reason: 'full' };
  const byEmail = isEmailQuery(query);
  const invitee = byEmail ? await findByEmail(db, query) : await findByLogin(db, query);
  if (!invitee) return { ok: false, reason: 'unknownPlayer' };
  const received = await limits.hit(`team-invites:to:${invitee.id}`, INVITES_RECEIVED_LIMIT);
  if (!received.allowed) return { ok: false, reason: 'flooded', retryAfter: received.retryAfter };
  return db.transaction(async (tx) => {
    if (await isMember(tx, team.id, invitee.id)) return { ok: false, reason: 'member' } as const;
    if (!hasRoomForMember(await memberCount(tx, team.id))) return { ok: false, reason: 'full' } as const;
    const inserted = await tx
      .insert(teamInvites)
      .values({ teamId: team.id, userId: invitee.id, invitedById: captain.id, byEmail })
      .onConflictDoNothing()
      .returning({ id: teamInvites.id });
    if (inserted.length === 0) return { ok: false, reason: 'invited' } as const;
    await notify(tx, invitee.id, (locale) => translate(locale, 'team.inviteNotification', { team: team.name }), {
      actions: inviteActions(),
      actionType: 'acceptTeamInvite',
      payload: { teamId: team.id },
    });
    // An invite by email is not in the team's list, so the members' view did not change.
    if (!byEmail) await signalTeam(tx, team.id);
    return { ok: true, invitee } as const;
  });
}

/** Withdraws an open invite, named by the invite's id or the invited player's id; false when there is none. */
export async function withdrawInvite(db: Tx, teamId: string, inviteOrUserId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [gone] = await tx
      .delete(teamInvites)
      // An invite by email is not the captain's to see, so not theirs to find by a player's id either.
      .where(and(eq(teamInvites.teamId, teamId), eq(teamInvites.byEmail, false), or(eq(teamInvites.id, inviteOrUserId), eq(teamInvites.userId, inviteOrUserId))))
      .returning({ userId: teamInvites.userId });
    if (!gone) return false;
    await withdrawNotifications(tx, gone.userId, { actionTypes: [...TEAM_INVITE_TYPES], key: 'teamId', value: teamId });
    await signalTeam(tx, teamId);
    return true;
  });
}

/** Takes a member out of the team and tells them; the captain cannot be removed. */
export async function removeMember(db: Tx, team: TeamRow, memberId: string): Promise<'removed' | 'captain' | 'notMember'> {
  if (memberId === team.captainId) return 'captain';
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, memberId)))
      .returning({ userId: teamMembers.userId });
    if (gone.length === 0) return 'notMember' as const;
    changed('sessions', EVERYTHING);
    await notify(tx, memberId, (locale) => translate(locale, 'team.removedNotification', { team: team.name }));
    await signalTeam(tx, team.id, [memberId]);
    return 'removed' as const;
  });
}

export type AnswerOutcome = 'joined' | 'declined' | 'noTeam' | 'noInvite' | 'full';

/**
 * The invited player's answer. Accepting takes the team's row lock, so two players accepting at
 * once cannot push the team past its maximum (`hasRoomForMember`). Either way the invite and its
 * notification go, and the captain hears about it; a full team keeps the invite (a place may free up).
 */
export async function answerInvite(db: Tx, teamId: string, player: UserRow, verb: 'accept' | 'reject'): Promise<AnswerOutcome> {
  const outcome = await db.transaction(async (tx) => {
    const [team] = await tx.select().from(teams).where(eq(teams.id, teamId)).for('update');
    if (!team) return 'noTeam' as const;
    const [invite] = await tx
      .select({ id: teamInvites.id })
      .from(teamInvites)
      .where(and(eq(teamInvites.teamId, teamId), eq(teamInvites.userId, player.id)));
    if (!invite) return 'noInvite' as const;
    if (verb === 'accept') {
      if (!hasRoomForMember(await memberCount(tx, teamId))) return 'full' as const;
      await tx.insert(teamMembers).values({ teamId, userId: player.id }).onConflictDoNothing();
      changed('sessions', EVERYTHING);
    }
    await tx.delete(teamInvites).where(eq(teamInvites.id, invite.id));
    await withdrawNotifications(tx, player.id, { actionTypes: [...TEAM_INVITE_TYPES], key: 'teamId', value: teamId });
    const key = verb === 'accept' ? 'team.joinedNotification' : 'team.declinedNotification';
    await notify(tx, team.captainId, (locale) => translate(locale, key, { name: player.username, team: team.name }));
    await signalTeam(tx, teamId);
    return verb === 'accept' ? ('joined' as const) : ('declined' as const);
  });
  if (outcome === 'noTeam' || outcome === 'noInvite') {
    // The invite is gone (withdrawn, or the team was deleted): its notification must not linger in the bell.
    await withdrawNotifications(db, player.id, { actionTypes: [...TEAM_INVITE_TYPES], key: 'teamId', value: teamId });
  }
  return outcome;
}
