/**
 * Seasons (issue 59): an organisation's (or the site's) series of tournaments of one game whose
 * final places add up to one table. Its owner and admins make one and choose its tournaments (the
 * site's admin for the site's own, and for any organisation's, as with its tournaments); anyone
 * reads it, unless its organisation is suspended. Every write runs in one transaction and says
 * what it changed.
 */
import { and, asc, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { OrganisationCard } from '../../../lib/api/organisations.ts';
import type { Season, SeasonListItem, SeasonTournament } from '../../../lib/api/seasons.ts';
import { organisationPowers } from '../../../lib/domain/organisation.ts';
import { joinRefusal, MAX_SEASONS, type JoinRefusal } from '../../../lib/domain/season.ts';
import type { Tx } from '../../db/client.ts';
import { games, organisations, seasons, tournaments } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { isForeignKeyViolation } from '../db-errors.ts';
import { changed, shows, tournamentData } from '../live/changes.ts';
import { findOrganisation, isPublic, lockOrganisation, publicOrganisation, roleIn } from '../organisations/organisations.ts';

export type SeasonRow = typeof seasons.$inferSelect;
type Actor = Pick<UserRow, 'id' | 'role'>;

export async function findSeason(db: Tx, id: string): Promise<SeasonRow | undefined> {
  const [row] = await db.select().from(seasons).where(eq(seasons.id, id));
  return row;
}

/** Whether `actor` may change the season: the site's admin, or its organisation's owner and admins. */
export async function managesSeason(db: Tx, season: Pick<SeasonRow, 'organisationId'>, actor: Actor): Promise<boolean> {
  if (actor.role === 'admin') return true;
  return season.organisationId !== null && organisationPowers(await roleIn(db, season.organisationId, actor.id)).manage;
}

/**
 * The tournaments a season counts, in SQL: those joined to it that still play its game and its kind
 * of participant. A tournament whose game or type was changed after it joined drops out of the
 * table (and returns if changed back) rather than mixing games or players with teams.
 */
const inSeason = (season: Pick<SeasonRow, 'id' | 'gameId' | 'soloOnly'>): SQL =>
  and(
    eq(tournaments.seasonId, season.id),
    eq(tournaments.gameId, season.gameId),
    season.soloOnly === null ? undefined : eq(tournaments.soloOnly, season.soloOnly),
  )!;

/** `inSeason` for a query that joins `seasons` to `tournaments`. */
const COUNTED = and(
  eq(tournaments.seasonId, seasons.id),
  eq(tournaments.gameId, seasons.gameId),
  sql`(${seasons.soloOnly} is null or ${tournaments.soloOnly} = ${seasons.soloOnly})`,
);

/** The season's tournaments, oldest first. */
export async function tournamentsOf(db: Tx, season: Pick<SeasonRow, 'id' | 'gameId' | 'soloOnly'>) {
  return db
    .select({
      id: tournaments.id,
      title: tournaments.title,
      date: tournaments.date,
      status: tournaments.status,
      soloOnly: tournaments.soloOnly,
      winnerType: tournaments.winnerType,
      winnerId: tournaments.winnerId,
    })
    .from(tournaments)
    .where(inSeason(season))
    .orderBy(asc(tournaments.date), asc(tournaments.id));
}

const presentTournament = (row: { id: string; title: string; date: Date; status: string; soloOnly: boolean }): SeasonTournament => ({
  _id: row.id,
  title: row.title,
  date: row.date.toISOString(),
  status: row.status,
  soloOnly: row.soloOnly,
});

const CARD = { id: organisations.id, slug: organisations.slug, name: organisations.name, logoUrl: organisations.logoUrl, verified: organisations.verified };
const GAME = { id: games.id, name: games.name, image: games.image };

/** A season's row with its game and organisation, for the answers. */
async function withHost(db: Tx, id: string) {
  const [row] = await db
    .select({ season: seasons, game: GAME, organisation: CARD, suspendedAt: organisations.suspendedAt })
    .from(seasons)
    .innerJoin(games, eq(games.id, seasons.gameId))
    .leftJoin(organisations, eq(organisations.id, seasons.organisationId))
    .where(eq(seasons.id, id));
  return row;
}

type Host = NonNullable<Awaited<ReturnType<typeof withHost>>>;

const cardOf = (organisation: Host['organisation']): OrganisationCard | null => (organisation ? { _id: organisation.id, ...omitId(organisation) } : null);
const omitId = <T extends { id: string }>({ id: _id, ...rest }: T) => rest;

function presentFields(found: Pick<Host, 'season' | 'game' | 'organisation'>) {
  const { season, game, organisation } = found;
  return {
    _id: season.id,
    name: season.name,
    game: { _id: game.id, name: game.name, image: game.image },
    organisation: cardOf(organisation),
    pointsByPlace: season.pointsByPlace,
    soloOnly: season.soloOnly,
    createdAt: season.createdAt.toISOString(),
  };
}

/** The season with its tournaments, as `GET /seasons/{id}` answers. */
async function present(db: Tx, found: Host): Promise<Season> {
  return { ...presentFields(found), tournaments: (await tournamentsOf(db, found.season)).map(presentTournament) };
}

/**
 * `GET /seasons/{id}`: null when there is none, or its organisation is suspended and the reader is
 * not the site's admin (as its tournaments are hidden, api/openapi.ts `refuseHidden`).
 */
export async function readSeason(db: Tx, id: string, viewer: Pick<UserRow, 'role'> | null): Promise<Season | null> {
  shows('seasons');
  const found = await withHost(db, id);
  if (!found || (found.suspendedAt !== null && viewer?.role !== 'admin')) return null;
  const season = await present(db, found);
  shows(...season.tournaments.map((t) => tournamentData(t._id)));
  return season;
}

/** The season named, when the reader may see it: what the standings read starts from. */
export async function visibleSeason(db: Tx, id: string, viewer: Pick<UserRow, 'role'> | null): Promise<SeasonRow | null> {
  const found = await withHost(db, id);
  if (!found || (found.suspendedAt !== null && viewer?.role !== 'admin')) return null;
  return found.season;
}

export interface SeasonFilter {
  /** An organisation's seasons, or `site` for the site's own; every public one when absent. */
  organisation?: string | undefined;
  gameId?: string | undefined;
  limit: number;
  offset: number;
}

/** A list of seasons, newest first, of organisations that are not suspended, each with how many tournaments it counts. */
export async function listSeasons(db: Tx, filter: SeasonFilter): Promise<{ items: SeasonListItem[]; more: boolean }> {
  shows('seasons', 'tournaments');
  const where: (SQL | undefined)[] = [or(isNull(seasons.organisationId), publicOrganisation)];
  if (filter.organisation === 'site') where.push(isNull(seasons.organisationId));
  else if (filter.organisation) where.push(eq(seasons.organisationId, filter.organisation));
  if (filter.gameId) where.push(eq(seasons.gameId, filter.gameId));
  const rows = await db
    .select({
      season: seasons,
      game: GAME,
      organisation: CARD,
      tournaments: sql<number>`(select count(*)::int from ${tournaments} where ${COUNTED})`,
      finished: sql<number>`(select count(*)::int from ${tournaments} where ${COUNTED} and ${tournaments.status} = 'finished')`,
    })
    .from(seasons)
    .innerJoin(games, eq(games.id, seasons.gameId))
    .leftJoin(organisations, eq(organisations.id, seasons.organisationId))
    .where(and(...where))
    .orderBy(desc(seasons.createdAt), asc(seasons.id))
    .limit(filter.limit + 1)
    .offset(filter.offset);
  const items = rows.slice(0, filter.limit).map((row) => ({ ...presentFields(row), tournaments: row.tournaments, finished: row.finished }));
  return { items, more: rows.length > filter.limit };
}

export interface SeasonFields {
  name: string;
  gameId: string;
  pointsByPlace: number[];
  soloOnly?: boolean | null | undefined;
}

export type CreateRefusal = 'organisationNotFound' | 'forbidden' | 'siteAdminOnly' | 'suspended' | 'gameNotFound' | 'tooMany';
export type SeasonSave<R extends string> = { ok: true; season: Season } | { ok: false; reason: R };

async function gameExists(db: Tx, id: string): Promise<boolean> {
  const [row] = await db.select({ id: games.id }).from(games).where(eq(games.id, id));
  return Boolean(row);
}

/** The season as answered after a write, inside its transaction. */
async function saved(tx: Tx, id: string): Promise<Season> {
  return present(tx, (await withHost(tx, id))!);
}

/**
 * A new season for the organisation (`organisationId`), or the site's own (null), made by `actor`:
 * its owner and admins, or the site's admin; the site's own by its admin alone. At most MAX_SEASONS
 * each, counted under the organisation's lock.
 */
export async function createSeason(db: Tx, actor: Actor, organisationId: string | null, input: SeasonFields): Promise<SeasonSave<CreateRefusal>> {
  try {
    return await db.transaction(async (tx): Promise<SeasonSave<CreateRefusal>> => {
      if (organisationId === null) {
        if (actor.role !== 'admin') return { ok: false, reason: 'siteAdminOnly' };
      } else {
        const organisation = await lockOrganisation(tx, organisationId);
        if (!organisation) return { ok: false, reason: 'organisationNotFound' };
        if (!(await managesSeason(tx, { organisationId }, actor))) return { ok: false, reason: 'forbidden' };
        if (!isPublic(organisation)) return { ok: false, reason: 'suspended' };
      }
      if (!(await gameExists(tx, input.gameId))) return { ok: false, reason: 'gameNotFound' };
      const own = organisationId === null ? isNull(seasons.organisationId) : eq(seasons.organisationId, organisationId);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(seasons).where(own);
      if (n >= MAX_SEASONS) return { ok: false, reason: 'tooMany' };
      const [row] = await tx
        .insert(seasons)
        .values({
          organisationId,
          gameId: input.gameId,
          name: input.name,
          pointsByPlace: input.pointsByPlace,
          soloOnly: input.soloOnly ?? null,
          createdBy: actor.id,
        })
        .returning({ id: seasons.id });
      changed('seasons');
      return { ok: true, season: await saved(tx, row!.id) };
    });
  } catch (error) {
    // The game was deleted between the check and the insert.
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'gameNotFound' };
    throw error;
  }
}

export type UpdateRefusal = 'notFound' | 'gameNotFound' | 'locked';

/**
 * Renames the season and replaces its points (the table follows at once: it is computed when read);
 * its game and kind change only while no tournament is in it, since they are what its tournaments share.
 */
export async function updateSeason(db: Tx, id: string, input: Omit<SeasonFields, 'gameId'> & { gameId?: string | undefined }): Promise<SeasonSave<UpdateRefusal>> {
  try {
    return await db.transaction(async (tx): Promise<SeasonSave<UpdateRefusal>> => {
      const [current] = await tx.select().from(seasons).where(eq(seasons.id, id)).for('update');
      if (!current) return { ok: false, reason: 'notFound' };
      const gameId = input.gameId ?? current.gameId;
      const soloOnly = input.soloOnly === undefined ? current.soloOnly : input.soloOnly;
      if (gameId !== current.gameId || soloOnly !== current.soloOnly) {
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(tournaments).where(eq(tournaments.seasonId, id));
        if (n > 0) return { ok: false, reason: 'locked' };
        if (gameId !== current.gameId && !(await gameExists(tx, gameId))) return { ok: false, reason: 'gameNotFound' };
      }
      await tx.update(seasons).set({ name: input.name, pointsByPlace: input.pointsByPlace, gameId, soloOnly, updatedAt: new Date() }).where(eq(seasons.id, id));
      changed('seasons');
      return { ok: true, season: await saved(tx, id) };
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) return { ok: false, reason: 'gameNotFound' };
    throw error;
  }
}

/** Deletes the season; its tournaments stay, in no season. */
export async function deleteSeason(db: Tx, id: string): Promise<boolean> {
  const deleted = await db.delete(seasons).where(eq(seasons.id, id)).returning({ id: seasons.id });
  if (deleted.length > 0) changed('seasons');
  return deleted.length > 0;
}

export type JoinSave = SeasonSave<'notFound' | 'tournamentNotFound' | 'inAnotherSeason' | JoinRefusal>;

/**
 * The tournament joins the season (joining again changes nothing): of the season's organisation (or
 * the site's own for the site's), its game, and its kind, which the first tournament decides when the
 * season was made without one. Both rows are locked, so two joins at once cannot decide two kinds.
 */
export async function joinSeason(db: Tx, id: string, tournamentId: string): Promise<JoinSave> {
  return db.transaction(async (tx): Promise<JoinSave> => {
    const [season] = await tx.select().from(seasons).where(eq(seasons.id, id)).for('update');
    if (!season) return { ok: false, reason: 'notFound' };
    const [tournament] = await tx
      .select({ id: tournaments.id, gameId: tournaments.gameId, organisationId: tournaments.organisationId, soloOnly: tournaments.soloOnly, seasonId: tournaments.seasonId })
      .from(tournaments)
      .where(eq(tournaments.id, tournamentId))
      .for('update');
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    const refusal = joinRefusal(season, tournament);
    if (refusal) return { ok: false, reason: refusal };
    if (tournament.seasonId !== null && tournament.seasonId !== id) return { ok: false, reason: 'inAnotherSeason' };
    if (season.soloOnly === null) await tx.update(seasons).set({ soloOnly: tournament.soloOnly, updatedAt: new Date() }).where(eq(seasons.id, id));
    if (tournament.seasonId !== id) {
      await tx.update(tournaments).set({ seasonId: id }).where(eq(tournaments.id, tournamentId));
      changed('seasons', tournamentData(tournamentId));
    }
    return { ok: true, season: await saved(tx, id) };
  });
}

export type LeaveSave = SeasonSave<'notFound' | 'tournamentNotFound' | 'notInSeason'>;

/** The tournament leaves the season: its places no longer count there. */
export async function leaveSeason(db: Tx, id: string, tournamentId: string): Promise<LeaveSave> {
  return db.transaction(async (tx): Promise<LeaveSave> => {
    const [season] = await tx.select({ id: seasons.id }).from(seasons).where(eq(seasons.id, id)).for('update');
    if (!season) return { ok: false, reason: 'notFound' };
    const [tournament] = await tx.select({ seasonId: tournaments.seasonId }).from(tournaments).where(eq(tournaments.id, tournamentId));
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' };
    if (tournament.seasonId !== id) return { ok: false, reason: 'notInSeason' };
    await tx.update(tournaments).set({ seasonId: null }).where(and(eq(tournaments.id, tournamentId), eq(tournaments.seasonId, id)));
    changed('seasons', tournamentData(tournamentId));
    return { ok: true, season: await saved(tx, id) };
  });
}

/** The organisation a season belongs to, as its guard needs it: found, and whether the public may see it. */
export async function hostOf(db: Tx, season: Pick<SeasonRow, 'organisationId'>) {
  return season.organisationId === null ? null : ((await findOrganisation(db, season.organisationId)) ?? null);
}

/** Seasons the tournaments are in, by tournament id: the tournament page names its own. */
export async function seasonsOfTournaments(db: Tx, tournamentIds: readonly string[]): Promise<Map<string, { _id: string; name: string }>> {
  const found = new Map<string, { _id: string; name: string }>();
  if (tournamentIds.length === 0) return found;
  const rows = await db
    .select({ tournament: tournaments.id, id: seasons.id, name: seasons.name })
    .from(tournaments)
    .innerJoin(seasons, COUNTED)
    .where(inArray(tournaments.id, [...tournamentIds]));
  for (const row of rows) found.set(row.tournament, { _id: row.id, name: row.name });
  return found;
}
