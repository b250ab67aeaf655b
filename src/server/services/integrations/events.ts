import { and, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { EventPayload, OrganisationEvent } from '../../../lib/domain/organisation-events.ts';
import type { Tx } from '../../db/client.ts';
import { endpointDeliveries, games, organisationEndpoints, organisations, tournaments } from '../../db/schema/index.ts';

/**
 * Tells an organisation's integrations of a moment of one of its tournaments (issue 60): a delivery
 * row for each of its working endpoints, written in the caller's transaction, so the event exists
 * exactly when the change does and a refused or rolled-back change tells nobody. The deliveries'
 * sweep posts them afterwards (deliveries.ts); nothing here waits for a service. A tournament of no
 * organisation, or of a suspended one, tells nobody.
 */
export async function tellOrganisation(
  tx: Tx,
  tournamentId: string,
  event: OrganisationEvent,
  extra: Omit<EventPayload, 'tournament'> = {},
  options: { once?: boolean } = {},
): Promise<void> {
  // Told once an endpoint: a moment a sweep meets again (check-in open) or a save repeats (a round made ready again after a reset).
  const told = tx
    .select({ one: sql`1` })
    .from(endpointDeliveries)
    .where(
      and(
        eq(endpointDeliveries.endpointId, organisationEndpoints.id),
        eq(endpointDeliveries.event, event),
        sql`${endpointDeliveries.payload} -> 'tournament' ->> 'id' = ${tournamentId}`,
        extra.round
          ? sql`${endpointDeliveries.payload} -> 'round' ->> 'stageId' = ${extra.round.stageId} and (${endpointDeliveries.payload} -> 'round' ->> 'number')::int = ${extra.round.number}`
          : undefined,
      ),
    );
  const rows = await tx
    .select({ endpoint: organisationEndpoints.id, tournament: { id: tournaments.id, title: tournaments.title, date: tournaments.date }, game: games.name })
    .from(tournaments)
    .innerJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .innerJoin(organisationEndpoints, and(eq(organisationEndpoints.organisationId, organisations.id), isNull(organisationEndpoints.brokenAt)))
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .where(and(eq(tournaments.id, tournamentId), options.once ? notExists(told) : undefined));
  if (rows.length === 0) return;
  await tx.insert(endpointDeliveries).values(
    rows.map((row) => ({
      endpointId: row.endpoint,
      event,
      payload: { tournament: { ...row.tournament, date: row.tournament.date.toISOString(), game: row.game }, ...extra },
    })),
  );
}
