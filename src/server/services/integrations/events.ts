import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { EventPayload, OrganisationEvent } from '../../../lib/domain/organisation-events.ts';
import type { Tx } from '../../db/client.ts';
import { endpointDeliveries, games, organisationEndpoints, organisations, tournaments } from '../../db/schema/index.ts';

type Extra = Omit<EventPayload, 'tournament'>;

/** The working endpoints of the organisation hosting the tournament that hear of `event`, with what an event says of it; none for a tournament of no organisation, or of a suspended one. */
const channelsOf = (tx: Tx, tournamentId: string, event: OrganisationEvent) =>
  tx
    .select({ endpoint: organisationEndpoints.id, tournament: { id: tournaments.id, title: tournaments.title, date: tournaments.date }, game: games.name })
    .from(tournaments)
    .innerJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .innerJoin(
      organisationEndpoints,
      and(eq(organisationEndpoints.organisationId, organisations.id), isNull(organisationEndpoints.brokenAt), sql`${event} = any(${organisationEndpoints.events})`),
    )
    .innerJoin(games, eq(games.id, tournaments.gameId))
    .where(eq(tournaments.id, tournamentId));

/** Which events anyone hears of for this tournament: one query, so a caller builds an event's words only when someone will read them. */
export async function eventsHeard(tx: Tx, tournamentId: string): Promise<Set<OrganisationEvent>> {
  const rows = await tx
    .selectDistinct({ event: sql<OrganisationEvent>`unnest(${organisationEndpoints.events})` })
    .from(tournaments)
    .innerJoin(organisations, and(eq(organisations.id, tournaments.organisationId), isNull(organisations.suspendedAt)))
    .innerJoin(organisationEndpoints, and(eq(organisationEndpoints.organisationId, organisations.id), isNull(organisationEndpoints.brokenAt)))
    .where(eq(tournaments.id, tournamentId));
  return new Set(rows.map((r) => r.event));
}

/** The same moment: one tournament's event, for a round its stage and number, for a match the match. */
const sameMoment = (a: Extra, b: Extra) =>
  (a.round?.stageId ?? null) === (b.round?.stageId ?? null) && (a.round?.number ?? null) === (b.round?.number ?? null) && (a.match?.id ?? null) === (b.match?.id ?? null);

/**
 * Tells an organisation's integrations of moments of one of its tournaments (issue 60): a delivery
 * row for each of its working endpoints and each moment (`extra`, or a list of them, e.g. the
 * rounds a save started), written in the caller's transaction, so the event exists exactly when the
 * change does and a refused or rolled-back change tells nobody. The deliveries' sweep posts them
 * afterwards (deliveries.ts); nothing here waits for a service. With `once`, a moment an endpoint
 * was told already is not told again (the check-in sweep finds the same open window every run; a
 * reset round is made ready again). A fixed number of queries, whatever the number of moments.
 */
export async function tellOrganisation(
  tx: Tx,
  tournamentId: string,
  event: OrganisationEvent,
  extra: Extra | readonly Extra[] = {},
  options: { once?: boolean } = {},
): Promise<void> {
  const moments: readonly Extra[] = Array.isArray(extra) ? extra : [extra as Extra];
  const channels = await channelsOf(tx, tournamentId, event);
  if (channels.length === 0 || moments.length === 0) return;
  const told = options.once
    ? await tx
        .select({ endpoint: endpointDeliveries.endpointId, payload: endpointDeliveries.payload })
        .from(endpointDeliveries)
        .where(
          and(
            inArray(
              endpointDeliveries.endpointId,
              channels.map((c) => c.endpoint),
            ),
            eq(endpointDeliveries.event, event),
            sql`${endpointDeliveries.payload} -> 'tournament' ->> 'id' = ${tournamentId}`,
          ),
        )
    : [];
  const rows = channels.flatMap((channel) =>
    moments
      .filter((moment) => !told.some((t) => t.endpoint === channel.endpoint && sameMoment(t.payload, moment)))
      .map((moment) => ({
        endpointId: channel.endpoint,
        event,
        payload: { tournament: { ...channel.tournament, date: channel.tournament.date.toISOString(), game: channel.game }, ...moment },
      })),
  );
  if (rows.length > 0) await tx.insert(endpointDeliveries).values(rows);
}
