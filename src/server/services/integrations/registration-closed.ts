import { and, count, eq, gt, inArray, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { applications, endpointDeliveries, organisationEndpoints, organisations, tournaments } from '../../db/schema/index.ts';
import type { Sweep } from '../sweeps.ts';
import { tellOrganisation } from './events.ts';

/*
 * `registration.closed` (issue 60) is a moment of the clock, not of a request: registration closes
 * at its closing time, or at the start when it has none. A sweep finds the tournaments whose moment
 * passed within the last day and whose organisation has an endpoint that listens, was there before
 * the moment and was not told yet, and tells them once.
 */

/** How far back a closing is still told: a webhook added later does not hear of old tournaments. */
const TOLD_WITHIN_MS = 24 * 60 * 60 * 1000;

const closesAt = sql`coalesce(${tournaments.registrationClosesAt}, ${tournaments.date})`;
const at = (moment: Date) => sql`${moment.toISOString()}::timestamptz`;

export async function tellClosedRegistrations(db: Database, now = new Date()): Promise<number> {
  const due = await db
    .selectDistinct({ id: tournaments.id })
    .from(tournaments)
    .innerJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .innerJoin(
      organisationEndpoints,
      and(
        eq(organisationEndpoints.organisationId, organisations.id),
        isNull(organisationEndpoints.brokenAt),
        sql`'registration.closed' = any(${organisationEndpoints.events})`,
        lte(organisationEndpoints.createdAt, closesAt),
      ),
    )
    .where(
      and(
        lte(closesAt, at(now)),
        gt(closesAt, at(new Date(now.getTime() - TOLD_WITHIN_MS))),
        notExists(
          db
            .select({ one: sql`1` })
            .from(endpointDeliveries)
            .where(
              and(
                eq(endpointDeliveries.endpointId, organisationEndpoints.id),
                eq(endpointDeliveries.event, 'registration.closed'),
                sql`${endpointDeliveries.payload} -> 'tournament' ->> 'id' = ${tournaments.id}::text`,
              ),
            ),
        ),
      ),
    )
    .limit(50);
  let told = 0;
  for (const { id } of due) {
    await db.transaction(async (tx) => {
      // Another instance's sweep holding the tournament tells it; `once` keeps a later run from repeating it.
      const [locked] = await tx.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.id, id)).for('update', { skipLocked: true });
      if (!locked) return;
      const [{ n } = { n: 0 }] = await tx
        .select({ n: count() })
        .from(applications)
        .where(and(eq(applications.tournamentId, id), inArray(applications.status, ['approved'])));
      await tellOrganisation(tx, id, 'registration.closed', { participants: n }, { once: true });
      told++;
    });
  }
  return told;
}

export const registrationClosedSweep: Sweep = { name: 'registration-closed', everyMs: 30_000, run: (db, now) => tellClosedRegistrations(db, now) };
