import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, notExists, or, sql, type SQL } from 'drizzle-orm';
import { steamGame } from '../../../lib/domain/linked-accounts.ts';
import type { VetoStarter } from '../../../lib/domain/veto.ts';
import type { LobbyHost } from '../../../lib/domain/match-day.ts';
import type { OrganisationCard } from '../../../lib/api/organisations.ts';
import type {
  ParticipantTeam,
  ParticipantUser,
  Tournament,
  TournamentApplication,
  TournamentDetail,
} from '../../../lib/api/tournaments.ts';
import { PARTICIPANT_STATUS } from '../../../lib/domain/participant.ts';
import { winnerRefusal, winnerTypeOf, type WinnerRefusal, type WinnerType } from '../../../lib/domain/tournament-winner.ts';
import type { TournamentStatus } from '../../../lib/domain/tournament-status.ts';
import type { SortOrder } from '../../../lib/domain/tournament-list.ts';
import { closesInThePast, scheduleProblem, type ScheduleProblem } from '../../../lib/domain/registration.ts';
import { translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { prepared } from '../../db/prepared.ts';
import type { StagePlanStep } from '../../../lib/domain/stage/stage-plan.ts';
import { applications, games, isCompetitionDrawn, organisations, stageMatches, stages, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import type { WinnerSnapshot } from '../../../lib/domain/audit.ts';
import { recordAudit, type AuditActor } from './audit.ts';
import { tellOrganisation } from '../integrations/events.ts';
import { avatarUrl } from '../accounts/avatars.ts';
import { notify, notifyAll } from '../notices/notifications.ts';
import { approvedParticipants } from '../match-day/participants.ts';
import { fillFreePlaces, lockForRegistration, published, registrationCounts } from '../match-day/registration.ts';
import { changed, EVERYTHING, shows, tournamentData } from '../live/changes.ts';
import { publishing } from '../live/live.ts';
import { seasonsOfTournaments } from '../seasons/seasons.ts';

export type TournamentRow = typeof tournaments.$inferSelect;

/** The columns a tournament is listed with: no bracket, no bookkeeping (a bracket is ≈1.4 KB a row). */
const listColumns = {
  id: tournaments.id,
  title: tournaments.title,
  description: tournaments.description,
  date: tournaments.date,
  status: tournaments.status,
  soloOnly: tournaments.soloOnly,
  gameId: tournaments.gameId,
  image: tournaments.image,
  winnerType: tournaments.winnerType,
  winnerId: tournaments.winnerId,
  maxParticipants: tournaments.maxParticipants,
  registrationOpensAt: tournaments.registrationOpensAt,
  registrationClosesAt: tournaments.registrationClosesAt,
  checkInEnabled: tournaments.checkInEnabled,
  checkInOpensAt: tournaments.checkInOpensAt,
  checkInClosesAt: tournaments.checkInClosesAt,
  confirmationMinutes: tournaments.confirmationMinutes,
  timeZone: tournaments.timeZone,
  maps: tournaments.maps,
  vetoStarter: tournaments.vetoStarter,
  matchCheckInMinutes: tournaments.matchCheckInMinutes,
  lobbyHost: tournaments.lobbyHost,
  requireSteam: tournaments.requireSteam,
  organisationId: tournaments.organisationId,
};
/** What `present()` reads of a tournament row. */
type ListRow = Pick<TournamentRow, keyof typeof listColumns>;

/** Who is looking: decides which applications a tournament shows. */
export interface Viewer {
  userId: string;
  isAdmin: boolean;
}

/** The address of a user's avatar, as `presentUser` gives it (an upload, or one generated from the name). */
const avatarOf = (user: { id: string; avatarImageId: string | null }) => avatarUrl(user.id, user.avatarImageId);

/** Names of winners (users and teams), by id. */
async function winnerNames(db: Tx, rows: readonly Pick<ListRow, 'winnerType' | 'winnerId'>[]): Promise<Map<string, string>> {
  const userIds = rows.filter((r) => r.winnerType === 'user' && r.winnerId).map((r) => r.winnerId!);
  const teamIds = rows.filter((r) => r.winnerType === 'team' && r.winnerId).map((r) => r.winnerId!);
  const names = new Map<string, string>();
  if (userIds.length > 0) {
    for (const u of await db.select({ id: users.id, name: users.username }).from(users).where(inArray(users.id, userIds))) {
      names.set(u.id, u.name);
    }
  }
  if (teamIds.length > 0) {
    for (const team of await db.select({ id: teams.id, name: teams.name }).from(teams).where(inArray(teams.id, teamIds))) {
      names.set(team.id, team.name);
    }
  }
  return names;
}

/** The organisations hosting these tournaments (issue 56), as cards, by id. */
async function hostsOf(db: Tx, rows: readonly Pick<ListRow, 'organisationId'>[]): Promise<Map<string, OrganisationCard>> {
  const ids = [...new Set(rows.flatMap((r) => (r.organisationId ? [r.organisationId] : [])))];
  const hosts = new Map<string, OrganisationCard>();
  if (ids.length === 0) return hosts;
  const found = await db
    .select({ id: organisations.id, slug: organisations.slug, name: organisations.name, logoUrl: organisations.logoUrl, verified: organisations.verified })
    .from(organisations)
    .where(inArray(organisations.id, ids));
  for (const { id, ...card } of found) hosts.set(id, { _id: id, ...card });
  return hosts;
}

/**
 * A tournament shows to the public unless its organisation is suspended (issue 56): then it leaves
 * every list and page until the suspension is lifted.
 */
const HOST_NOT_SUSPENDED: SQL = or(
  isNull(tournaments.organisationId),
  notExists(sql`(select 1 from ${organisations} where ${organisations.id} = ${tournaments.organisationId} and ${organisations.suspendedAt} is not null)`),
)!;

function present(row: ListRow, gameName: string, names: Map<string, string>, hosts: Map<string, OrganisationCard>): Tournament {
  return {
    _id: row.id,
    title: row.title,
    name: row.title,
    description: row.description,
    date: row.date.toISOString(),
    status: row.status,
    soloOnly: row.soloOnly,
    game: row.gameId,
    gameName,
    image: row.image,
    imageUrl: row.image,
    winner:
      row.winnerType && row.winnerId ? { type: row.winnerType, id: row.winnerId, name: names.get(row.winnerId) ?? '' } : null,
    maxParticipants: row.maxParticipants,
    registrationOpensAt: iso(row.registrationOpensAt),
    registrationClosesAt: iso(row.registrationClosesAt),
    checkInEnabled: row.checkInEnabled,
    checkInOpensAt: iso(row.checkInOpensAt),
    checkInClosesAt: iso(row.checkInClosesAt),
    confirmationMinutes: row.confirmationMinutes,
    timeZone: row.timeZone,
    maps: row.maps,
    vetoStarter: row.vetoStarter,
    matchCheckInMinutes: row.matchCheckInMinutes,
    lobbyHost: row.lobbyHost,
    requireSteam: row.requireSteam,
    organisation: row.organisationId ? (hosts.get(row.organisationId) ?? null) : null,
  };
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** What a tournament list may be narrowed to, and which page of it; by default the newest first. */
export interface TournamentFilter {
  gameId?: string | undefined;
  /** Only the tournaments this organisation hosts. */
  organisationId?: string | undefined;
  soloOnly?: boolean | undefined;
  status?: TournamentStatus | undefined;
  /** Only tournaments on or after this moment. */
  from?: Date | undefined;
  sort?: SortOrder | undefined;
  /** Page size; without it the whole list, which only admin screens ask for. */
  limit?: number | undefined;
  offset?: number | undefined;
}

/** Every order ends in the id, so pages of one list never overlap or skip a row. */
const ORDER_BY: Record<SortOrder, SQL[]> = {
  date_desc: [desc(tournaments.date), asc(tournaments.titleKey), asc(tournaments.id)],
  date_asc: [asc(tournaments.date), asc(tournaments.titleKey), asc(tournaments.id)],
  title_asc: [asc(tournaments.titleKey), desc(tournaments.date), asc(tournaments.id)],
  title_desc: [desc(tournaments.titleKey), desc(tournaments.date), asc(tournaments.id)],
};

/** One page of tournaments, and whether another follows it. */
export async function listTournaments(db: Tx, filter: TournamentFilter): Promise<{ items: Tournament[]; more: boolean }> {
  const where: SQL[] = [HOST_NOT_SUSPENDED];
  if (filter.gameId) where.push(eq(tournaments.gameId, filter.gameId));
  if (filter.organisationId) where.push(eq(tournaments.organisationId, filter.organisationId));
  if (filter.soloOnly !== undefined) where.push(eq(tournaments.soloOnly, filter.soloOnly));
  if (filter.status) where.push(eq(tournaments.status, filter.status));
  if (filter.from) where.push(gte(tournaments.date, filter.from));
  const query = db
    .select({ ...listColumns, gameName: games.name })
    .from(tournaments)
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .where(and(...where))
    .orderBy(...ORDER_BY[filter.sort ?? 'date_desc'])
    .offset(filter.offset ?? 0);
  // One row past the page tells whether there is a next one, without counting them all.
  const rows = filter.limit === undefined ? await query : await query.limit(filter.limit + 1);
  const page = filter.limit === undefined ? rows : rows.slice(0, filter.limit);
  const [names, hosts] = await Promise.all([winnerNames(db, page), hostsOf(db, page)]);
  return { items: page.map((row) => present(row, row.gameName, names, hosts)), more: rows.length > page.length };
}

async function findWithGame(db: Tx, id: string) {
  const [row] = await db
    .select({ tournament: tournaments, gameName: games.name })
    .from(tournaments)
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .where(eq(tournaments.id, id));
  return row;
}

export async function findTournament(db: Tx, id: string): Promise<TournamentRow | undefined> {
  const [row] = await db.select().from(tournaments).where(eq(tournaments.id, id));
  return row;
}

/** One tournament as lists show it, or undefined. */
export async function getTournament(db: Tx, id: string): Promise<Tournament | undefined> {
  const row = await findWithGame(db, id);
  if (!row) return undefined;
  const [names, hosts] = await Promise.all([winnerNames(db, [row.tournament]), hostsOf(db, [row.tournament])]);
  return present(row.tournament, row.gameName, names, hosts);
}

/**
 * Whether the public may see the tournament: false while its organisation is suspended (issue 56),
 * when its lists, pages, brackets, stages, matches, streams, embeds and cards answer as for no such
 * tournament to all but the platform's admin. True for an id that names nothing: the read says so itself.
 */
export async function shownToPublic(db: Tx, tournamentId: string): Promise<boolean> {
  const [hidden] = await hiddenStatement(db).execute({ tournamentId });
  return !hidden;
}

/** Asked before every public read of one tournament, its bracket and stages polls among them: prepared (db/prepared.ts). */
const hiddenStatement = prepared((db) =>
  db
    .select({ id: tournaments.id })
    .from(tournaments)
    .innerJoin(organisations, eq(organisations.id, tournaments.organisationId))
    .where(and(eq(tournaments.id, sql.placeholder('tournamentId')), isNotNull(organisations.suspendedAt)))
    .prepare('tournament_hidden_from_public'),
);

/** Teams with their members (captain first, then by joining), by id. */
export async function loadTeams(db: Tx, teamIds: readonly string[]): Promise<Map<string, ParticipantTeam>> {
  const result = new Map<string, ParticipantTeam>();
  if (teamIds.length === 0) return result;
  const teamRows = await db.select().from(teams).where(inArray(teams.id, [...teamIds]));
  for (const team of teamRows) {
    result.set(team.id, { _id: team.id, name: team.name, logoUrl: team.logoUrl, captain: team.captainId, members: [] });
  }
  const memberRows = await db
    .select({ teamId: teamMembers.teamId, id: users.id, username: users.username, avatarImageId: users.avatarImageId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(inArray(teamMembers.teamId, [...teamIds]))
    // Members who joined together (a team made with its roster) in one order on every read.
    .orderBy(asc(teamMembers.joinedAt), asc(users.username));
  for (const m of memberRows) {
    const team = result.get(m.teamId);
    if (!team) continue;
    const member: ParticipantUser = { _id: m.id, username: m.username, avatar: avatarOf(m) };
    if (m.id === team.captain) team.members.unshift(member);
    else team.members.push(member);
  }
  return result;
}

/**
 * Applications with their user and team, oldest first. `where` narrows them (a tournament, a
 * status); rows whose team is gone are left out.
 */
export async function loadApplications(db: Tx, where: SQL | undefined, page?: { limit: number; offset: number }) {
  const query = db
    .select({
      application: applications,
      user: { id: users.id, username: users.username, avatarImageId: users.avatarImageId },
      tournament: { title: tournaments.title, status: tournaments.status, soloOnly: tournaments.soloOnly, drawn: isCompetitionDrawn },
    })
    .from(applications)
    .innerJoin(users, eq(users.id, applications.userId))
    .innerJoin(tournaments, eq(tournaments.id, applications.tournamentId))
    .where(where);
  // A page of the admin list is the newest first; a tournament's own applications, oldest first.
  const rows = page
    ? await query.orderBy(desc(applications.createdAt), desc(applications.id)).limit(page.limit).offset(page.offset)
    : await query.orderBy(asc(applications.createdAt), asc(applications.id));
  const teamIds = [...new Set(rows.flatMap((r) => (r.application.teamId ? [r.application.teamId] : [])))];
  const teamsById = await loadTeams(db, teamIds);
  return rows.map((r) => {
    const a = r.application;
    const presented: TournamentApplication = {
      _id: a.id,
      tournament: a.tournamentId,
      status: a.status,
      comment: a.comment,
      createdAt: a.createdAt.toISOString(),
      checkedInAt: iso(a.checkedInAt),
      user: { _id: r.user.id, username: r.user.username, avatar: avatarOf(r.user) },
      team: a.teamId ? (teamsById.get(a.teamId) ?? null) : null,
    };
    return { ...presented, tournamentTitle: r.tournament.title, tournamentStatus: r.tournament.status, soloOnly: r.tournament.soloOnly, tournamentDrawn: r.tournament.drawn };
  });
}

/** Ids of the teams a user belongs to. */
export async function teamIdsOf(db: Tx, userId: string): Promise<string[]> {
  const rows = await db.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId));
  return rows.map((r) => r.teamId);
}

/**
 * A tournament with the applications this viewer may see: guests see approved ones (the
 * participants), a player also their own and their teams', an admin every one. Whether the public
 * may see it at all (`shownToPublic`) its callers ask: the route through `oneTournament`, the page itself.
 */
export async function getTournamentDetail(db: Tx, id: string, viewer: Viewer | null): Promise<TournamentDetail | undefined> {
  shows(tournamentData(id));
  const row = await findWithGame(db, id);
  if (!row) return undefined;
  const hosts = await hostsOf(db, [row.tournament]);
  const mine: SQL[] = [eq(applications.status, PARTICIPANT_STATUS)];
  if (viewer && !viewer.isAdmin) {
    mine.push(eq(applications.userId, viewer.userId));
    const teamIds = await teamIdsOf(db, viewer.userId);
    if (teamIds.length > 0) mine.push(inArray(applications.teamId, teamIds));
  }
  const visible = viewer?.isAdmin ? undefined : or(...mine);
  // Reads that need nothing of each other, at once: a page waits for the slowest, not the sum.
  const [list, names, counts, season] = await Promise.all([
    loadApplications(db, and(eq(applications.tournamentId, id), visible)),
    winnerNames(db, [row.tournament]),
    registrationCounts(db, id),
    row.tournament.seasonId ? seasonsOfTournaments(db, [id]).then((found) => found.get(id) ?? null) : null,
  ]);
  // Its season's name shows here, so a season renamed or deleted makes this answer old.
  if (row.tournament.seasonId) shows('seasons');
  return {
    ...present(row.tournament, row.gameName, names, hosts),
    applications: list.map(({ tournamentTitle: _title, tournamentStatus: _status, soloOnly: _solo, tournamentDrawn: _drawn, ...a }) => a),
    bracket: row.tournament.bracket,
    bracketVersion: row.tournament.bracketVersion,
    ...counts,
    checkInClosedAt: iso(row.tournament.checkInClosedAt),
    stagePlan: row.tournament.stagePlan,
    season,
  };
}

export interface TournamentWrite {
  title: string;
  date: string;
  description?: string | undefined;
  game: string;
  status?: TournamentStatus | undefined;
  soloOnly?: boolean | undefined;
  image?: string | null | undefined;
  maxParticipants?: number | null | undefined;
  registrationOpensAt?: string | null | undefined;
  registrationClosesAt?: string | null | undefined;
  checkInEnabled?: boolean | undefined;
  checkInOpensAt?: string | null | undefined;
  checkInClosesAt?: string | null | undefined;
  confirmationMinutes?: number | undefined;
  /** Its own IANA time zone, canonical (issue 57); null: each reader's. */
  timeZone?: string | null | undefined;
  /** Its own map pool (issue 58); null: its game's. */
  maps?: string[] | null | undefined;
  vetoStarter?: VetoStarter | undefined;
  /** Minutes a ready match's sides have to check in to it (issue 58); null: none. */
  matchCheckInMinutes?: number | null | undefined;
  lobbyHost?: LobbyHost | undefined;
  /** Applicants need a linked Steam account (issue 60); only a CS2 or Dota 2 tournament may ask. */
  requireSteam?: boolean | undefined;
  /** The organisation hosting it (issue 56), set when it is made and never changed. */
  organisationId?: string | null | undefined;
  /** A clone's suggested stages (issue 56), set when it is made; no form sends it. */
  stagePlan?: StagePlanStep[] | undefined;
}

export type TournamentSave = { ok: true; tournament: Tournament } | { ok: false; reason: 'notFound' | 'gameNotFound' | 'typeLocked' | 'steamWrongGame' | ScheduleProblem };

const REGISTRATION_FIELDS = ['maxParticipants', 'checkInEnabled', 'confirmationMinutes'] as const;
const REGISTRATION_TIMES = ['registrationOpensAt', 'registrationClosesAt', 'checkInOpensAt', 'checkInClosesAt'] as const;

/** The registration and check-in columns the input sets (issue 22); what it leaves out stays. */
function registrationColumns(input: TournamentWrite) {
  const columns: Partial<Pick<typeof tournaments.$inferInsert, (typeof REGISTRATION_FIELDS)[number] | (typeof REGISTRATION_TIMES)[number]>> = {};
  for (const key of REGISTRATION_FIELDS) if (input[key] !== undefined) Object.assign(columns, { [key]: input[key] });
  for (const key of REGISTRATION_TIMES) {
    const value = input[key];
    if (value !== undefined) columns[key] = value === null ? null : new Date(value);
  }
  return columns;
}

async function gameExists(db: Tx, id: string): Promise<boolean> {
  return (await gameNameOf(db, id)) !== null;
}

async function gameNameOf(db: Tx, id: string): Promise<string | null> {
  const [row] = await db.select({ name: games.name }).from(games).where(eq(games.id, id));
  return row?.name ?? null;
}

/** A new tournament; pending and a team one unless told otherwise. */
export async function createTournament(db: Tx, input: TournamentWrite): Promise<TournamentSave> {
  changed('tournaments');
  const registration = registrationColumns(input);
  const problem = scheduleProblem({ date: input.date, ...registration });
  if (problem) return { ok: false, reason: problem };
  if (closesInThePast(null, { date: input.date, ...registration }, new Date())) return { ok: false, reason: 'checkInPassed' };
  const row = await db.transaction(async (tx) => {
    // Held from the game's deletion until this commits: a game deleted meanwhile is not found
    // here, rather than failing the insert's foreign key.
    const [game] = await tx.select({ name: games.name }).from(games).where(eq(games.id, input.game)).for('key share');
    if (!game) return 'gameNotFound' as const;
    if (input.requireSteam && !steamGame(game.name)) return 'steamWrongGame' as const;
    const [created] = await tx
      .insert(tournaments)
      .values({
        title: input.title,
        date: new Date(input.date),
        description: input.description ?? '',
        gameId: input.game,
        status: input.status ?? 'pending',
        soloOnly: input.soloOnly ?? false,
        image: input.image || null,
        organisationId: input.organisationId ?? null,
        stagePlan: input.stagePlan ?? [],
        timeZone: input.timeZone ?? null,
        maps: input.maps ?? null,
        vetoStarter: input.vetoStarter ?? 'higherSeed',
        matchCheckInMinutes: input.matchCheckInMinutes ?? null,
        lobbyHost: input.lobbyHost ?? 'organiser',
        requireSteam: input.requireSteam ?? false,
        ...registration,
      })
      .returning({ id: tournaments.id });
    // Its organisation's channels hear of it (issue 60), with the tournament or not at all.
    await tellOrganisation(tx, created!.id, 'tournament.created');
    return created!;
  });
  if (typeof row === 'string') return { ok: false, reason: row };
  return { ok: true, tournament: (await getTournament(db, row.id))! };
}

/**
 * Restarts the check-in timers of a tournament's ready matches (issue 58): a check-in per match
 * turned on counts from now, not from when each match became ready. The competition's version moves
 * with them, so no copy of its stages held between requests (`stagesAt`) keeps the old start.
 */
async function restartCheckInTimers(tx: Tx, tournamentId: string): Promise<void> {
  await tx.execute(sql`
    with restarted as (
      update ${stageMatches} set ready_at = now(), version = version + 1
      where status = 'ready' and ready_at is not null and stage_id in (select id from ${stages} where tournament_id = ${tournamentId})
      returning id)
    update ${tournaments} set bracket_version = bracket_version + 1 where id = ${tournamentId} and exists (select 1 from restarted)`);
}

/**
 * Saves the edit form. Fields left out stay as they were. The type (solo or team) cannot change
 * while the tournament has applications: they would no longer match it.
 */
async function saveTournament(db: Tx, id: string, input: TournamentWrite, onFinish?: OnFinish): Promise<TournamentSave> {
  const result = await db.transaction(async (tx) => {
    const current = await lockForRegistration(tx, id);
    if (!current) return { ok: false, reason: 'notFound' } as const;
    const registration = registrationColumns(input);
    const problem = scheduleProblem({ ...current, date: input.date, ...registration });
    if (problem) return { ok: false, reason: problem } as const;
    if (closesInThePast(current, { ...current, date: input.date, ...registration }, new Date())) return { ok: false, reason: 'checkInPassed' } as const;
    if (input.game !== current.gameId && !(await gameExists(tx, input.game))) return { ok: false, reason: 'gameNotFound' } as const;
    // Steam is asked for in CS2 and Dota 2 only, whichever of the game and the flag the save changes.
    if ((input.requireSteam ?? current.requireSteam) && !steamGame((await gameNameOf(tx, input.game)) ?? '')) return { ok: false, reason: 'steamWrongGame' } as const;
    if (input.soloOnly !== undefined && input.soloOnly !== current.soloOnly) {
      const [used] = await tx.select({ n: count() }).from(applications).where(eq(applications.tournamentId, id));
      if (used && used.n > 0) return { ok: false, reason: 'typeLocked' } as const;
    }
    await tx
      .update(tournaments)
      .set({
        title: input.title,
        date: new Date(input.date),
        gameId: input.game,
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...(input.soloOnly !== undefined ? { soloOnly: input.soloOnly } : {}),
        ...(input.image !== undefined ? { image: input.image || null } : {}),
        ...(input.timeZone !== undefined ? { timeZone: input.timeZone } : {}),
        ...(input.maps !== undefined ? { maps: input.maps } : {}),
        ...(input.vetoStarter !== undefined ? { vetoStarter: input.vetoStarter } : {}),
        ...(input.matchCheckInMinutes !== undefined ? { matchCheckInMinutes: input.matchCheckInMinutes } : {}),
        ...(input.lobbyHost !== undefined ? { lobbyHost: input.lobbyHost } : {}),
        ...(input.requireSteam !== undefined ? { requireSteam: input.requireSteam } : {}),
        ...registration,
        updatedAt: new Date(),
      })
      .where(eq(tournaments.id, id));
    // A check-in turned on gives the matches ready already its whole time from now, not a forfeit at once.
    if (input.matchCheckInMinutes && !current.matchCheckInMinutes) await restartCheckInTimers(tx, id);
    // Under the row lock: two admins finishing at once announce it once.
    if (onFinish && finishes(current.status, input.status)) await onFinish(tx, { ...current, title: input.title });
    // More places (or no cap any more): the waitlist moves up.
    const told = registration.maxParticipants !== undefined ? await fillFreePlaces(tx, { ...current, ...registration, title: input.title }) : [];
    return { ok: true, tournament: (await getTournament(tx, id))!, told } as const;
  });
  if (!result.ok) return result;
  if (result.told.length > 0) published(id, 'application', result.told);
  return { ok: true, tournament: result.tournament };
}

/** Whether a status change finishes the tournament (and so is announced, issue 22). */
const finishes = (before: string, after: string | undefined): boolean => after === 'finished' && before !== 'finished';

/**
 * What else a save that finishes a tournament does in its transaction: the finish notices
 * (services/competition/tournament-finish.ts). The route passes it in, as that module reaches back to this
 * one through the stages and the statistics.
 */
export type OnFinish = (tx: Tx, tournament: Pick<TournamentRow, 'id' | 'title' | 'soloOnly'>) => Promise<void>;

/** Deletes a tournament; its applications go with it, recorded matches keep their history. */
export async function deleteTournament(db: Tx, id: string): Promise<boolean> {
  changed(EVERYTHING);
  const deleted = await db.delete(tournaments).where(eq(tournaments.id, id)).returning({ id: tournaments.id });
  return deleted.length > 0;
}

export type WinnerSave = { ok: true; tournament: Tournament } | { ok: false; reason: 'notFound' | WinnerRefusal };

/**
 * Records the winner of a finished tournament (SPEC §4 Winner) and congratulates them: the player,
 * or every member of the team. With `finish` a started tournament is marked finished in the same
 * transaction (the bracket's final is decided), under the same `winnerRefusal` rules. Two admins
 * choosing at once: the first one wins, the second is told. The choice is `actor`'s `winnerSet` in the audit log.
 */
async function chooseWinner(
  db: Tx,
  id: string,
  winner: { type: WinnerType; id: string },
  actor: AuditActor,
  options: { finish?: boolean; onFinish?: OnFinish } = {},
): Promise<WinnerSave> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(tournaments).where(eq(tournaments.id, id)).for('update');
    if (!row) return { ok: false, reason: 'notFound' } as const;
    const participants = (await approvedParticipants(tx, row)).map((p) => p._id);
    const refusal = winnerRefusal(
      { tournament: { status: row.status, soloOnly: row.soloOnly, hasWinner: Boolean(row.winnerId) }, participants },
      winner,
      options,
    );
    if (refusal) return { ok: false, reason: refusal } as const;
    await tx
      .update(tournaments)
      .set({ winnerType: winnerTypeOf(row.soloOnly), winnerId: winner.id, ...(options.finish ? { status: 'finished' as const } : {}), updatedAt: new Date() })
      .where(eq(tournaments.id, id));
    if (options.finish && options.onFinish && finishes(row.status, 'finished')) await options.onFinish(tx, row);
    const names = await winnerNames(tx, [{ winnerType: winnerTypeOf(row.soloOnly), winnerId: winner.id }]);
    const after: WinnerSnapshot = { winner: names.get(winner.id) ?? '', ...(options.finish && finishes(row.status, 'finished') ? { finished: true } : {}) };
    await recordAudit(tx, { tournamentId: id, actor, kind: 'winnerSet', subjectId: winner.id, before: { winner: null } satisfies WinnerSnapshot, after });
    const payload = { tournamentId: id };
    if (winner.type === 'user') {
      await notify(tx, winner.id, (locale) => translate(locale, 'winner.notifyUser', { title: row.title }), { payload: { ...payload } });
    } else {
      const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, winner.id));
      const members = await tx.select({ userId: teamMembers.userId }).from(teamMembers).where(eq(teamMembers.teamId, winner.id));
      const text = (locale: Locale) => translate(locale, 'winner.notifyTeam', { team: team?.name ?? '', title: row.title });
      await notifyAll(
        tx,
        members.map((m) => ({ userId: m.userId, text, payload: { ...payload, teamId: winner.id } })),
      );
    }
    return { ok: true, tournament: (await getTournament(tx, id))! } as const;
  });
}

/** A tournament's details saved: its viewers, and the lists, hear of it. */
export const updateTournament = publishing(saveTournament, (result) => ({ tournamentId: result.tournament._id, kind: 'tournament' }));

/** A winner chosen: the tournament's viewers hear of it. */
export const setWinner = publishing(chooseWinner, (result) => ({ tournamentId: result.tournament._id, kind: 'tournament' }));
