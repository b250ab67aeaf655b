import { z } from 'zod';
import { MAX_VENUE_NETWORKS, VENUE_NETWORK_STATUSES, VENUE_NOTE_MAX } from '../domain/venue-networks.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';

/*
 * An organiser's venue network (issue 57, decision 035): a tournament's organisers ask for one, the
 * site's admin approves or refuses it, the organisers may withdraw it. The server checks each entry
 * as it checks TRUSTED_VENUE_NETWORKS (server/env.ts `venueProblem`).
 */

/** The longest entry: an IPv6 network written out in full is 43 characters. */
export const VENUE_ENTRY_MAX = 64;

/** `POST /tournaments/{id}/venue-network`: the hall's IPs and CIDR networks, and its name. */
export const venueNetworkInput = z.object({
  networks: z
    .array(
      z
        .string()
        .trim()
        .refine((v) => v.length <= VENUE_ENTRY_MAX, { error: () => t('venues.entryTooLong', { max: VENUE_ENTRY_MAX }) }),
    )
    .transform((list) => list.filter(Boolean))
    .refine((list) => list.length > 0, { error: () => t('venues.enterNetworks') })
    .refine((list) => list.length <= MAX_VENUE_NETWORKS, { error: () => t('venues.tooMany', { max: MAX_VENUE_NETWORKS }) })
    .prefault([]),
  note: z
    .string()
    .trim()
    .refine((v) => v.length > 0, { error: () => t('venues.enterNote') })
    .refine((v) => v.length <= VENUE_NOTE_MAX, { error: () => t('venues.noteTooLong', { max: VENUE_NOTE_MAX }) })
    .prefault(''),
});
export type VenueNetworkInput = z.input<typeof venueNetworkInput>;

/** `PATCH /venue-networks/{id}`: the admin's decision. */
export const venueDecisionInput = z.object({
  status: z.enum(['approved', 'refused'], { error: () => t('venues.badDecision') }),
});
export type VenueDecision = z.infer<typeof venueDecisionInput>['status'];

const person = z.object({ _id: z.string(), username: z.string() }).nullable();
const window = z.object({ from: z.string(), until: z.string() });

/** A venue network as its tournament's organisers and the admin see it. */
export const venueNetworkSchema = z.object({
  _id: z.string(),
  tournament: z.object({ _id: z.string(), title: z.string(), date: z.string() }),
  networks: z.array(z.string()),
  note: z.string(),
  status: z.enum(VENUE_NETWORK_STATUSES),
  requestedBy: person,
  requestedAt: z.string(),
  decidedBy: person,
  decidedAt: z.string().nullable(),
  /** When it works once approved: around the tournament's date (lib/domain/venue-networks.ts). */
  window,
  /** Approved and inside its window now: clients inside are counted by no per-address limit. */
  inEffect: z.boolean(),
});
export type VenueNetwork = z.infer<typeof venueNetworkSchema>;

/** `GET /tournaments/{id}/venue-network`: its latest request (none once withdrawn), its window, and whether one may still be asked for. */
export const tournamentVenueSchema = z.object({ request: venueNetworkSchema.nullable(), window, open: z.boolean() });
export type TournamentVenue = z.infer<typeof tournamentVenueSchema>;

export const venueNetworkSaved = z.object({ message: z.string(), request: venueNetworkSchema });
export type VenueNetworkSaved = z.infer<typeof venueNetworkSaved>;

export const venueNetworkList = z.array(venueNetworkSchema);

const tournamentPath = (tournamentId: string) => `tournaments/${encodeURIComponent(tournamentId)}/venue-network`;

export const getTournamentVenue = (api: ApiClient, tournamentId: string) => api.get(tournamentPath(tournamentId)).json<TournamentVenue>();
export const askForVenue = (api: ApiClient, tournamentId: string, body: VenueNetworkInput) =>
  api.post(tournamentPath(tournamentId), { json: body }).json<VenueNetworkSaved>();
export const withdrawVenue = (api: ApiClient, tournamentId: string) => api.delete(tournamentPath(tournamentId)).json<VenueNetworkSaved>();
export const listVenueNetworks = (api: ApiClient) => api.get('venue-networks').json<VenueNetwork[]>();
export const decideVenue = (api: ApiClient, id: string, status: VenueDecision) =>
  api.patch(`venue-networks/${encodeURIComponent(id)}`, { json: { status } }).json<VenueNetworkSaved>();
