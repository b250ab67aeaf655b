/**
 * Tournaments of an organisation (issue 56). Its owner and admins publish them (the platform's admin
 * may too); its followers hear of each one. An unverified organisation publishes at most
 * UNVERIFIED_DAILY_TOURNAMENTS in a rolling day, counted under the organisation's lock, so a burst
 * of requests gets exactly that many. A clone is a new pending tournament like its source, moved to
 * a new date with its windows.
 */
import { and, asc, count, eq, gt } from 'drizzle-orm';
import { DAY_MS, UNVERIFIED_DAILY_TOURNAMENTS, organisationPowers } from '../../../lib/domain/organisation.ts';
import type { Tx } from '../../db/client.ts';
import { organisationFollows, stages, tournaments } from '../../db/schema/index.ts';
import { planOf, type StagePlanStep } from '../../../lib/domain/stage/stage-plan.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { createTournament, findTournament, type TournamentRow, type TournamentSave, type TournamentWrite } from '../competition/tournaments.ts';
import { announce } from '../notices/notices.ts';
import { isPublic, lockOrganisation, roleIn, type OrganisationRow } from './organisations.ts';

type Actor = Pick<UserRow, 'id' | 'role'>;

export type HostRefusal =
  | { ok: false; reason: 'organisationNotFound' }
  | { ok: false; reason: 'suspended' }
  | { ok: false; reason: 'forbidden' }
  | { ok: false; reason: 'daily'; retryAfter: number };
export type HostSave = TournamentSave | HostRefusal;

/** Whether `actor` may publish for the organisation: its owner and admins, and the platform's admin. */
async function mayPublish(tx: Tx, organisation: OrganisationRow, actor: Actor): Promise<boolean> {
  return actor.role === 'admin' || organisationPowers(await roleIn(tx, organisation.id, actor.id)).manage;
}

/**
 * Seconds until the unverified organisation may publish again, or 0 when it may now: the day's
 * window frees a place when the oldest of its last UNVERIFIED_DAILY_TOURNAMENTS turns a day old.
 */
async function dailyWait(tx: Tx, organisation: OrganisationRow, now: Date): Promise<number> {
  if (organisation.verified) return 0;
  const since = new Date(now.getTime() - DAY_MS);
  const recent = and(eq(tournaments.organisationId, organisation.id), gt(tournaments.createdAt, since));
  const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(tournaments).where(recent);
  if (n < UNVERIFIED_DAILY_TOURNAMENTS) return 0;
  const [oldest] = await tx
    .select({ at: tournaments.createdAt })
    .from(tournaments)
    .where(recent)
    .orderBy(asc(tournaments.createdAt))
    .offset(n - UNVERIFIED_DAILY_TOURNAMENTS)
    .limit(1);
  return Math.max(1, Math.ceil(((oldest?.at.getTime() ?? now.getTime()) + DAY_MS - now.getTime()) / 1000));
}

/** Tells the organisation's followers of its new tournament, in their language and as their settings say. */
async function tellFollowers(tx: Tx, organisation: OrganisationRow, tournament: { _id: string; title: string }): Promise<void> {
  const followers = await tx.select({ userId: organisationFollows.userId }).from(organisationFollows).where(eq(organisationFollows.organisationId, organisation.id));
  await announce(
    tx,
    followers.map(({ userId }) => ({
      userId,
      kind: 'organisationTournament' as const,
      params: { organisation: organisation.name, tournament: tournament.title },
      link: `/tournaments/${tournament._id}`,
      tournamentId: tournament._id,
    })),
  );
}

/** Publishes a tournament for the organisation, in one transaction with its followers' notices. */
export async function hostTournament(db: Tx, actor: Actor, organisationId: string, input: TournamentWrite): Promise<HostSave> {
  return db.transaction(async (tx): Promise<HostSave> => {
    const organisation = await lockOrganisation(tx, organisationId);
    if (!organisation) return { ok: false, reason: 'organisationNotFound' };
    if (!(await mayPublish(tx, organisation, actor))) return { ok: false, reason: 'forbidden' };
    if (!isPublic(organisation)) return { ok: false, reason: 'suspended' };
    const wait = await dailyWait(tx, organisation, new Date());
    if (wait > 0) return { ok: false, reason: 'daily', retryAfter: wait };
    const saved = await createTournament(tx, { ...input, organisationId });
    if (saved.ok) await tellFollowers(tx, organisation, saved.tournament);
    return saved;
  });
}

/** `moment` moved by the same distance as the start. */
const shifted = (moment: Date | null, by: number): string | null => (moment ? new Date(moment.getTime() + by).toISOString() : null);

export type CloneSave = HostSave | { ok: false; reason: 'notFound' };

/** What a clone of `source` plans: the stages it was played in, or, not yet played, the plan it had itself. */
async function stagePlanOf(db: Tx, source: TournamentRow): Promise<StagePlanStep[]> {
  const played = await db.select().from(stages).where(eq(stages.tournamentId, source.id)).orderBy(asc(stages.number));
  return played.length > 0 ? planOf(played) : source.stagePlan;
}

/**
 * A new pending tournament like `sourceId` on `date`: the same game, type, title, description,
 * picture, cap, check-in, confirmation time and host; its registration and check-in windows moved
 * by as much as the start; the source's stages as its plan (stage-plan.ts); no applications, no
 * stages, no winner. The site's own tournaments are cloned by the platform's admin (the route's
 * guard); an organisation's go through its rules.
 */
export async function cloneTournament(db: Tx, actor: Actor, sourceId: string, date: string): Promise<CloneSave> {
  const source = await findTournament(db, sourceId);
  if (!source) return { ok: false, reason: 'notFound' };
  const by = new Date(date).getTime() - source.date.getTime();
  const copy: TournamentWrite = {
    title: source.title,
    date,
    description: source.description,
    game: source.gameId,
    status: 'pending',
    soloOnly: source.soloOnly,
    image: source.image,
    maxParticipants: source.maxParticipants,
    registrationOpensAt: shifted(source.registrationOpensAt, by),
    registrationClosesAt: shifted(source.registrationClosesAt, by),
    checkInEnabled: source.checkInEnabled,
    checkInOpensAt: shifted(source.checkInOpensAt, by),
    checkInClosesAt: shifted(source.checkInClosesAt, by),
    confirmationMinutes: source.confirmationMinutes,
    timeZone: source.timeZone,
    maps: source.maps,
    vetoStarter: source.vetoStarter,
    matchCheckInMinutes: source.matchCheckInMinutes,
    lobbyHost: source.lobbyHost,
    requireSteam: source.requireSteam,
    stagePlan: await stagePlanOf(db, source),
  };
  if (source.organisationId) return hostTournament(db, actor, source.organisationId, copy);
  if (actor.role !== 'admin') return { ok: false, reason: 'forbidden' };
  return createTournament(db, copy);
}
