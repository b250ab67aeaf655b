/**
 * The organisers' venue networks in effect (issue 57, decision 035), held in the process so the
 * per-request check stays a lookup in memory, not a query: approved ones whose tournament's window
 * (lib/domain/venue-networks.ts) has not ended. Read at start, again after every decision or
 * withdrawal made here, and at most `VENUE_RELOAD_MS` after the last read once a request asks (so a
 * decision made on another instance counts here within that). Each entry knows its window, so one
 * ends on time without a read.
 */
import { and, eq, gt } from 'drizzle-orm';
import { VENUE_WINDOW, venueWindow } from '../../../lib/domain/venue-networks.ts';
import type { Tx } from '../../db/client.ts';
import { tournaments, venueNetworks } from '../../db/schema/index.ts';
import { venueNetworks as compile, type VenueNetworks } from '../../transport.ts';

/** How long an instance trusts its last read: another instance's approval or withdrawal counts here within it. */
export const VENUE_RELOAD_MS = 30_000;

interface Entry {
  inside: VenueNetworks;
  from: number;
  until: number;
}

/** The approved networks whose window has not ended, made into checks once. */
async function readEntries(db: Tx): Promise<Entry[]> {
  const rows = await db
    .select({ networks: venueNetworks.networks, date: tournaments.date })
    .from(venueNetworks)
    .innerJoin(tournaments, eq(tournaments.id, venueNetworks.tournamentId))
    .where(and(eq(venueNetworks.status, 'approved'), gt(tournaments.date, new Date(Date.now() - VENUE_WINDOW.afterHours * 3_600_000))));
  return rows.flatMap(({ networks, date }) => {
    const { from, until } = venueWindow(date);
    try {
      return [{ inside: compile(networks), from: from.getTime(), until: until.getTime() }];
    } catch {
      // Checked when asked for (server/env.ts `venueProblem`); a row written by hand that proxy-addr cannot read counts for nothing.
      return [];
    }
  });
}

/** One database's approved venue networks, as this process last read them. */
export class ApprovedVenueNetworks {
  private entries: Entry[] = [];
  /** When the last read began; a request after `VENUE_RELOAD_MS` begins another. */
  private readAt = Number.NEGATIVE_INFINITY;
  private reads = 0;
  private readonly db: Tx;

  constructor(db: Tx) {
    this.db = db;
  }

  /** Whether `address` is inside an approved network whose window holds `now`. */
  has(address: string, now = Date.now()): boolean {
    if (now - this.readAt >= VENUE_RELOAD_MS) void this.reload();
    return this.entries.some((entry) => entry.from <= now && now < entry.until && entry.inside(address));
  }

  /**
   * Reads them again; resolves once this read is held (the newest read begun wins). A failed read
   * keeps what was held, and the next request after `VENUE_RELOAD_MS` tries again.
   */
  async reload(): Promise<void> {
    const read = ++this.reads;
    this.readAt = Date.now();
    try {
      const entries = await readEntries(this.db);
      if (read === this.reads) this.entries = entries;
    } catch (error) {
      console.error('[venues] не вдалося прочитати схвалені мережі залів:', (error as Error).message);
    }
  }
}

const held = new WeakMap<Tx, ApprovedVenueNetworks>();

/** The approved venue networks of the database `db`, one holder per database in this process. */
export function approvedVenueNetworks(db: Tx): ApprovedVenueNetworks {
  let networks = held.get(db);
  if (!networks) held.set(db, (networks = new ApprovedVenueNetworks(db)));
  return networks;
}
