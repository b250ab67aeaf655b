/**
 * Organisers' venue networks (issue 57, decision 035): a tournament's organisers ask for their
 * hall's addresses, the site's admin approves or refuses, the organisers (or the admin) withdraw.
 * Approved, a network works in the window around the tournament's date exactly as an entry of
 * TRUSTED_VENUE_NETWORKS does (api/context.ts `clientOf`, through `approved-networks.ts`). Each
 * change is written to the audit log in its own transaction; a decision rings the organisers' bell.
 */
import { aliasedTable, and, asc, desc, eq, gt, inArray } from 'drizzle-orm';
import type { VenueNetwork } from '../../../lib/api/venue-networks.ts';
import type { VenueSnapshot } from '../../../lib/domain/audit.ts';
import { insideVenueWindow, VENUE_WINDOW, venueWindow, venueWindowOver, type VenueNetworkStatus } from '../../../lib/domain/venue-networks.ts';
import { translate } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { tournaments, users, venueNetworks } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.ts';
import { recordAudit } from '../competition/audit.ts';
import { organiserIds } from '../competition/staff.ts';
import { lockTournament } from '../competition/stages/store.ts';
import { notifyAll } from '../notices/notifications.ts';
import { approvedVenueNetworks } from './approved-networks.ts';

type Actor = Pick<UserRow, 'id' | 'username'>;
type Row = typeof venueNetworks.$inferSelect;

/** The admin's list at most: pending and approved requests of events not over yet are few. */
const ADMIN_LIST_LIMIT = 100;
const HOUR = 3_600_000;

const requester = aliasedTable(users, 'requester');
const decider = aliasedTable(users, 'decider');

/** Requests with their tournament and people, as the API shows them. */
function selectViews(db: Tx) {
  return db
    .select({ row: venueNetworks, title: tournaments.title, date: tournaments.date, requester: requester.username, decider: decider.username })
    .from(venueNetworks)
    .innerJoin(tournaments, eq(tournaments.id, venueNetworks.tournamentId))
    .leftJoin(requester, eq(requester.id, venueNetworks.requestedBy))
    .leftJoin(decider, eq(decider.id, venueNetworks.decidedBy));
}

type ViewRow = Awaited<ReturnType<ReturnType<typeof selectViews>['where']>>[number];

function view({ row, title, date, requester, decider }: ViewRow, now = Date.now()): VenueNetwork {
  const window = venueWindow(date);
  return {
    _id: row.id,
    tournament: { _id: row.tournamentId, title, date: date.toISOString() },
    networks: row.networks,
    note: row.note,
    status: row.status,
    requestedBy: row.requestedBy ? { _id: row.requestedBy, username: requester ?? '' } : null,
    requestedAt: row.createdAt.toISOString(),
    decidedBy: row.decidedBy ? { _id: row.decidedBy, username: decider ?? '' } : null,
    decidedAt: row.decidedAt?.toISOString() ?? null,
    window: { from: window.from.toISOString(), until: window.until.toISOString() },
    inEffect: row.status === 'approved' && insideVenueWindow(date, now),
  };
}

async function viewOf(db: Tx, id: string): Promise<VenueNetwork> {
  const [found] = await selectViews(db).where(eq(venueNetworks.id, id));
  return view(found!);
}

const snapshot = (row: Pick<Row, 'networks' | 'note' | 'status'>): VenueSnapshot => ({ networks: row.networks, note: row.note, status: row.status });

/** The tournament's latest request (none once it was withdrawn), its window, and whether one may be asked for; null for no such tournament. */
export async function tournamentVenue(db: Tx, tournamentId: string) {
  const [tournament] = await db.select({ date: tournaments.date }).from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!tournament) return null;
  const [latest] = await selectViews(db).where(eq(venueNetworks.tournamentId, tournamentId)).orderBy(desc(venueNetworks.createdAt)).limit(1);
  const window = venueWindow(tournament.date);
  return {
    request: latest && latest.row.status !== 'withdrawn' ? view(latest) : null,
    window: { from: window.from.toISOString(), until: window.until.toISOString() },
    open: !venueWindowOver(tournament.date),
  };
}

/** For the admin: waiting requests first, then approved ones, of tournaments whose window has not ended. */
export async function venueNetworksToDecide(db: Tx): Promise<VenueNetwork[]> {
  const rows = await selectViews(db)
    .where(and(inArray(venueNetworks.status, ['pending', 'approved']), gt(tournaments.date, new Date(Date.now() - VENUE_WINDOW.afterHours * HOUR))))
    .orderBy(desc(eq(venueNetworks.status, 'pending')), asc(tournaments.date), asc(venueNetworks.createdAt))
    .limit(ADMIN_LIST_LIMIT);
  return rows.map((found) => view(found));
}

export type AskRefusal = 'tournamentNotFound' | 'windowOver' | 'already';

/**
 * An organiser asks for a venue network (`networks` already checked by the route as
 * TRUSTED_VENUE_NETWORKS' entries are). Under the tournament's lock, so a burst asks once: one
 * waiting or approved request per tournament (`already`, the partial unique index besides); none
 * once the tournament's window has ended.
 */
export async function askForVenueNetwork(
  db: Tx,
  tournamentId: string,
  input: { networks: string[]; note: string },
  actor: Actor,
): Promise<{ ok: true; request: VenueNetwork } | { ok: false; reason: AskRefusal }> {
  return db.transaction(async (tx) => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' } as const;
    if (venueWindowOver(tournament.date)) return { ok: false, reason: 'windowOver' } as const;
    const [live] = await tx
      .select({ id: venueNetworks.id })
      .from(venueNetworks)
      .where(and(eq(venueNetworks.tournamentId, tournamentId), inArray(venueNetworks.status, ['pending', 'approved'])));
    if (live) return { ok: false, reason: 'already' } as const;
    const [row] = await tx.insert(venueNetworks).values({ tournamentId, networks: input.networks, note: input.note, requestedBy: actor.id }).returning();
    await recordAudit(tx, { tournamentId, actor, kind: 'venueRequested', subjectId: row!.id, after: snapshot(row!) });
    return { ok: true, request: await viewOf(tx, row!.id) } as const;
  });
}

/** Withdraws the tournament's waiting or approved request: it stops working at once here, within `VENUE_RELOAD_MS` elsewhere. */
export async function withdrawVenueNetwork(
  db: Tx,
  tournamentId: string,
  actor: Actor,
): Promise<{ ok: true; request: VenueNetwork } | { ok: false; reason: 'tournamentNotFound' | 'none' }> {
  const done = await db.transaction(async (tx) => {
    const tournament = await lockTournament(tx, tournamentId);
    if (!tournament) return { ok: false, reason: 'tournamentNotFound' } as const;
    const [before] = await tx
      .select()
      .from(venueNetworks)
      .where(and(eq(venueNetworks.tournamentId, tournamentId), inArray(venueNetworks.status, ['pending', 'approved'])));
    if (!before) return { ok: false, reason: 'none' } as const;
    await tx.update(venueNetworks).set({ status: 'withdrawn' }).where(eq(venueNetworks.id, before.id));
    await recordAudit(tx, { tournamentId, actor, kind: 'venueWithdrawn', subjectId: before.id, before: snapshot(before) });
    return { ok: true, request: await viewOf(tx, before.id), was: before.status } as const;
  });
  if (done.ok && done.was === 'approved') await approvedVenueNetworks(db).reload();
  return done;
}

export type DecisionRefusal = 'notFound' | 'decided' | 'windowOver';

/**
 * The admin approves or refuses a waiting request: who and when are kept on the row and in the
 * audit log; the tournament's organisers (but the admin deciding) are told in the bell, each in their
 * language. A request decided or withdrawn already is `decided`; approving one whose window has
 * ended is `windowOver` (refusing it is still allowed, to clear the list).
 */
export async function decideVenueNetwork(
  db: Tx,
  id: string,
  status: Extract<VenueNetworkStatus, 'approved' | 'refused'>,
  actor: Actor,
): Promise<{ ok: true; request: VenueNetwork } | { ok: false; reason: DecisionRefusal }> {
  const done = await db.transaction(async (tx) => {
    const [found] = await tx.select({ tournamentId: venueNetworks.tournamentId }).from(venueNetworks).where(eq(venueNetworks.id, id));
    if (!found) return { ok: false, reason: 'notFound' } as const;
    // The tournament's lock, as asking and withdrawing take it: a decision never crosses a withdrawal.
    const tournament = await lockTournament(tx, found.tournamentId);
    const [row] = await tx.select().from(venueNetworks).where(eq(venueNetworks.id, id));
    if (!row || !tournament) return { ok: false, reason: 'notFound' } as const;
    if (row.status !== 'pending') return { ok: false, reason: 'decided' } as const;
    if (status === 'approved' && venueWindowOver(tournament.date)) return { ok: false, reason: 'windowOver' } as const;
    const [after] = await tx.update(venueNetworks).set({ status, decidedBy: actor.id, decidedAt: new Date() }).where(eq(venueNetworks.id, id)).returning();
    await recordAudit(tx, {
      tournamentId: row.tournamentId,
      actor,
      kind: status === 'approved' ? 'venueApproved' : 'venueRefused',
      subjectId: id,
      before: snapshot(row),
      after: snapshot(after!),
    });
    const told = (await organiserIds(tx, row.tournamentId)).filter((userId) => userId !== actor.id);
    if (told.length > 0) {
      const readers = await tx.select({ id: users.id, locale: users.locale }).from(users).where(inArray(users.id, told));
      const key = status === 'approved' ? 'venues.notice.approved' : 'venues.notice.refused';
      await notifyAll(
        tx,
        // Stored words, so they are each reader's language, not the admin's.
        readers.map((reader) => ({
          userId: reader.id,
          text: translate(reader.locale, key, { note: row.note, title: tournament.title }),
          payload: { tournamentId: row.tournamentId },
          link: `/tournaments/${row.tournamentId}/control`,
        })),
      );
    }
    return { ok: true, request: await viewOf(tx, id) } as const;
  });
  if (done.ok && status === 'approved') await approvedVenueNetworks(db).reload();
  return done;
}
