import { z } from 'zod';
import { TOURNAMENT_DESCRIPTION_MAX, TOURNAMENT_TITLE_MAX } from './limits.ts';
import { STATUS_SPELLINGS, normalizeStatus, type TournamentStatus } from '../domain/tournament-status.ts';
import { APPLICATION_STATUSES, APPLY_REFUSALS, LIVE_APPLICATION_STATUSES } from '../domain/application-rules.ts';
import { PARTICIPANT_TYPES } from '../domain/participant.ts';
import { SORT_ORDERS, type TournamentListQuery } from '../domain/tournament-list.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { pageQuery } from './paging.ts';
import { imageInput } from './games.ts';
import { bracketSchema } from './bracket.ts';
import { stagePlanStepSchema } from './stages.ts';
import { organisationCardSchema } from './organisations.ts';
import { isSupportedMoment, MAX_YEAR, MIN_YEAR } from './input.ts';
import { LOBBY_HOSTS, MAX_CONFIRMATION_MINUTES, MAX_MATCH_CHECK_IN_MINUTES } from '../domain/match-day.ts';
import { MAX_PARTICIPANTS, MIN_PARTICIPANTS } from '../domain/registration.ts';
import { canonicalTimeZone } from '../domain/time-zone.ts';
import { VETO_STARTERS } from '../domain/veto.ts';
import { mapPoolInput } from './games.ts';

/** A player as tournament pages show one: no email, since these answers are public. */
export const participantUserSchema = z.object({
  _id: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
});
export type ParticipantUser = z.infer<typeof participantUserSchema>;

export const participantTeamSchema = z.object({
  _id: z.string(),
  name: z.string(),
  logoUrl: z.string().nullable(),
  captain: z.string(),
  members: z.array(participantUserSchema),
});
export type ParticipantTeam = z.infer<typeof participantTeamSchema>;

/** An application as a tournament carries it (SPEC §3 Application): the user always, the team for team ones. */
export const tournamentApplicationSchema = z.object({
  _id: z.string(),
  tournament: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  comment: z.string(),
  createdAt: z.string(),
  /** When the participant checked in (issue 22), or null. */
  checkedInAt: z.string().nullable(),
  user: participantUserSchema,
  team: participantTeamSchema.nullable(),
});
export type TournamentApplication = z.infer<typeof tournamentApplicationSchema>;

export const winnerSchema = z.object({
  type: z.enum(PARTICIPANT_TYPES),
  id: z.string(),
  /** Nickname or team name, for display; empty when the winner no longer exists. */
  name: z.string(),
});
export type Winner = z.infer<typeof winnerSchema>;

/** A tournament in lists (SPEC §3 Tournament): both spellings the spec uses are filled (title/name, image/imageUrl). */
export const tournamentSchema = z.object({
  _id: z.string(),
  title: z.string(),
  name: z.string(),
  description: z.string(),
  /** ISO 8601. */
  date: z.string(),
  status: z.string(),
  soloOnly: z.boolean(),
  game: z.string(),
  gameName: z.string(),
  image: z.string().nullable(),
  imageUrl: z.string().nullable(),
  winner: winnerSchema.nullable(),
  // Registration and check-in (issue 22, decision 014): times ISO 8601 or null.
  /** Applications beyond this many places are waitlisted; null: no cap. */
  maxParticipants: z.number().int().nullable(),
  registrationOpensAt: z.string().nullable(),
  registrationClosesAt: z.string().nullable(),
  checkInEnabled: z.boolean(),
  /** As the admin set them; null means the default before the start (`checkInWindow`). */
  checkInOpensAt: z.string().nullable(),
  checkInClosesAt: z.string().nullable(),
  confirmationMinutes: z.number().int(),
  /** The IANA zone its page, matches and notices are shown in (issue 57); null: each reader's own. */
  timeZone: z.string().nullable(),
  /** The maps its matches are vetoed on instead of its game's (issue 58); null: the game's. */
  maps: z.array(z.string()).nullable(),
  /** Who starts a match's veto: the higher seed, or the server's coin toss. */
  vetoStarter: z.enum(VETO_STARTERS),
  /** Minutes both sides of a ready match have to check in to it (issue 58); null: no check-in per match. */
  matchCheckInMinutes: z.number().int().nullable(),
  /** Who puts the lobby details on a match: the organisers, or the higher seed as its host. */
  lobbyHost: z.enum(LOBBY_HOSTS),
  /** Whether applicants need a linked Steam account (issue 60, decision 044): CS2 and Dota 2 only. */
  requireSteam: z.boolean(),
  /** The organisation hosting it (issue 56); null for the site's own. */
  organisation: organisationCardSchema.nullable(),
});
export type Tournament = z.infer<typeof tournamentSchema>;

/**
 * One tournament with its applications and bracket. Guests see approved applications only, a
 * signed-in player also their own and their teams', an admin all of them.
 */
export const tournamentDetailSchema = tournamentSchema.extend({
  applications: z.array(tournamentApplicationSchema),
  bracket: bracketSchema,
  bracketVersion: z.number().int(),
  /** Pending and approved applications: the places taken under `maxParticipants`. */
  placesTaken: z.number().int(),
  /** Approved applications (the participants): of `placesTaken`, those the organisers accepted. */
  approved: z.number().int(),
  /** Waitlisted applications. */
  waitlisted: z.number().int(),
  /** When the end of check-in was carried out, or null. */
  checkInClosedAt: z.string().nullable(),
  /** The stages a clone was planned with (its source's), the next one offered when an organiser creates a stage; empty for others. */
  stagePlan: z.array(stagePlanStepSchema),
  /** The season its places count in (issue 59), or null. */
  season: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type TournamentDetail = z.infer<typeof tournamentDetailSchema>;

/** A tournament status in any spelling the spec knows, stored as pending, started or finished. */
export const statusInput = z
  .string()
  .trim()
  .refine((value) => STATUS_SPELLINGS.includes(value.toLowerCase()), { error: () => t('tournament.invalidStatus') })
  .transform((value) => normalizeStatus(value) as TournamentStatus);

/** A moment: ISO 8601, or a day (YYYY-MM-DD) from a date input, in the years the site keeps. */
export const dateInput = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .refine(isSupportedMoment, { error: () => t('tournament.invalidDate', { min: MIN_YEAR, max: MAX_YEAR }) });

/** An IANA time zone in any case `Intl` takes, stored as its canonical name. */
export const timeZoneInput = z
  .string()
  .refine((value) => canonicalTimeZone(value) !== null, { error: () => t('tournament.invalidTimeZone') })
  .transform((value) => canonicalTimeZone(value)!);

const title = z.string().trim().min(1).max(TOURNAMENT_TITLE_MAX);
const description = z.string().trim().max(TOURNAMENT_DESCRIPTION_MAX);

export const tournamentInput = z.object({
  title,
  date: dateInput,
  description: description.optional(),
  game: z.uuid(),
  status: statusInput.optional(),
  soloOnly: z.boolean().optional(),
  image: imageInput.optional(),
  // Registration and check-in (issue 22): null clears a value; the windows are checked together on save.
  maxParticipants: z.number().int().min(MIN_PARTICIPANTS).max(MAX_PARTICIPANTS).nullable().optional(),
  registrationOpensAt: dateInput.nullable().optional(),
  registrationClosesAt: dateInput.nullable().optional(),
  checkInEnabled: z.boolean().optional(),
  checkInOpensAt: dateInput.nullable().optional(),
  checkInClosesAt: dateInput.nullable().optional(),
  confirmationMinutes: z.number().int().min(1).max(MAX_CONFIRMATION_MINUTES).optional(),
  timeZone: timeZoneInput.nullable().optional(),
  maps: mapPoolInput.nullable().optional(),
  vetoStarter: z.enum(VETO_STARTERS).optional(),
  matchCheckInMinutes: z.number().int().min(1).max(MAX_MATCH_CHECK_IN_MINUTES).nullable().optional(),
  lobbyHost: z.enum(LOBBY_HOSTS).optional(),
  requireSteam: z.boolean().optional(),
});

/** `POST /tournaments`: also which organisation hosts it (issue 56); none for the site's own (the admin's). */
export const tournamentCreate = tournamentInput.extend({ organisation: z.uuid().optional() });
export type TournamentInput = z.input<typeof tournamentCreate>;

/** `POST /tournaments/{id}/clone`: the new start. */
export const cloneInput = z.object({ date: dateInput });
export type CloneInput = z.infer<typeof cloneInput>;

/** The edit form: title, date and game are required; what is omitted stays as it was; the host never changes. */
export const tournamentUpdate = tournamentInput;
export type TournamentUpdate = z.input<typeof tournamentUpdate>;

/**
 * GET /tournaments: a page of tournaments, newest first. `game`, `soloOnly`, `status` and `from`
 * (on or after that moment) narrow the list, `sort` orders it, `limit` and `offset` pick the page.
 * When more follow, the answer carries `Link: <…>; rel="next"`.
 */
export const tournamentListQuery = z.object({
  game: z.uuid().optional(),
  /** Only the tournaments this organisation hosts (issue 56). */
  organisation: z.uuid().optional(),
  soloOnly: z.enum(['true', 'false']).optional(),
  status: statusInput.optional(),
  from: dateInput.optional(),
  sort: z.enum(SORT_ORDERS).optional(),
}).extend(pageQuery);
export type { TournamentListQuery };

export const winnerInput = z.object({
  winnerType: z.enum(PARTICIPANT_TYPES),
  winnerId: z.uuid(),
  /** Also mark a started tournament finished, in the same transaction (its bracket's final is played). */
  finish: z.boolean().optional(),
});
export type WinnerInput = z.infer<typeof winnerInput>;

export const tournamentSaved = z.object({ message: z.string(), tournament: tournamentSchema });
export type TournamentSaved = z.infer<typeof tournamentSaved>;

/** The signed-in player's standing for one tournament: what the apply block shows. */
export const eligibilitySchema = z.object({
  /** The first rule an application would break now, or null (see `applyRefusal`). */
  refusal: z.enum(APPLY_REFUSALS).nullable(),
  /** The live (pending or approved) application of the player, or of the team for team tournaments. */
  application: z
    .object({
      _id: z.string(),
      status: z.enum(LIVE_APPLICATION_STATUSES),
      /** When it checked in (issue 22), or null. */
      checkedInAt: z.string().nullable(),
      /** Its place in the waitlist, from 1; null unless waitlisted. */
      position: z.number().int().nullable(),
      /** Whether this player may withdraw it (the solo applicant, or the team's captain). */
      mine: z.boolean(),
    })
    .nullable(),
  /** The team a team application would be made for: the one the player captains, else their first. */
  team: z.object({ _id: z.string(), name: z.string(), members: z.number().int(), isCaptain: z.boolean() }).nullable(),
});
export type Eligibility = z.infer<typeof eligibilitySchema>;

const path = (id: string) => `tournaments/${encodeURIComponent(id)}`;

export const getTournament = (api: ApiClient, id: string) => api.get(path(id)).json<TournamentDetail>();

/** A tournament the reader organises (`GET /api/users/me/tournaments`, issue 57): as its staff, or as one of its hosts. */
export const organisedTournamentSchema = z.object({
  _id: z.string(),
  title: z.string(),
  date: z.string(),
  status: z.string(),
  gameName: z.string(),
  /** The organisation hosting it; null for the site's own. */
  organisation: z.string().nullable(),
  role: z.enum(['staff', 'host']),
});
export type OrganisedTournament = z.infer<typeof organisedTournamentSchema>;
export const organisedTournamentsSchema = z.object({ tournaments: z.array(organisedTournamentSchema) });

export const getOrganisedTournaments = (api: ApiClient) => api.get('users/me/tournaments', { cache: 'no-store' }).json<z.infer<typeof organisedTournamentsSchema>>();
export const getEligibility = (api: ApiClient, id: string) => api.get(`${path(id)}/eligibility`).json<Eligibility>();
export const createTournament = (api: ApiClient, body: TournamentInput) =>
  api.post('tournaments', { json: body }).json<TournamentSaved>();
export const cloneTournament = (api: ApiClient, id: string, date: string) => api.post(`${path(id)}/clone`, { json: { date } }).json<TournamentSaved>();
export const updateTournament = (api: ApiClient, id: string, body: TournamentUpdate) =>
  api.put(path(id), { json: body }).json<TournamentSaved>();
export const deleteTournament = (api: ApiClient, id: string) => api.delete(path(id)).json<{ message: string }>();
export const setWinner = (api: ApiClient, id: string, body: WinnerInput) =>
  api.patch(`${path(id)}/winner`, { json: body }).json<TournamentSaved>();
