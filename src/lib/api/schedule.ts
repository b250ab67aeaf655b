/**
 * Match day schedules and calendars (issue 22): the admin's round schedule of a stage, a player's
 * next matches («Мої матчі») and the address of their personal calendar feed.
 */
import { z } from 'zod';
import { REPORT_STATES } from '../domain/match-day.ts';
import { BRACKET_SIDES, MATCH_STATUSES, MAX_GROUPS, SLOTS } from '../domain/stage/format.ts';
import { MAX_ROUND_MINUTES } from '../domain/stage/schedule.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { isSupportedMoment } from './input.ts';

/** `POST /tournaments/{id}/stages/{stageId}/schedule`: the whole stage by rounds, or one round at `start`. */
export const stageScheduleInput = z
  .object({
    start: z.iso.datetime({ offset: true }).refine(isSupportedMoment, { error: () => t('validation.invalidBody') }),
    /** Minutes between rounds; needed when the whole stage is scheduled. */
    roundMinutes: z.number().int().min(1).max(MAX_ROUND_MINUTES).optional(),
    round: z.number().int().min(1).max(1000).optional(),
    side: z.enum(BRACKET_SIDES).optional(),
    group: z.number().int().min(1).max(MAX_GROUPS).optional(),
  })
  .strict();
export type StageScheduleInput = z.infer<typeof stageScheduleInput>;

export const stageScheduledSchema = z.object({
  message: z.string(),
  /** The matches whose time was set, with it. */
  matches: z.array(z.object({ _id: z.string(), scheduledAt: z.string() })),
});

export const scheduleStage = (api: ApiClient, tournamentId: string, stageId: string, body: StageScheduleInput) =>
  api.post(`tournaments/${tournamentId}/stages/${stageId}/schedule`, { json: body }).json<z.infer<typeof stageScheduledSchema>>();

const sideSchema = z.object({ _id: z.string(), name: z.string(), image: z.string().nullable() });

/** A tournament's check-in as it concerns me: its window, and whether I (or my team) checked in. */
export const myCheckInSchema = z.object({
  opensAt: z.string(),
  closesAt: z.string(),
  open: z.boolean(),
  checkedIn: z.boolean(),
  /** I may press the button: the player, or the team's captain. */
  canCheckIn: z.boolean(),
});

/** One of my next matches: mine as a player (solo) or my team's. */
export const myMatchSchema = z.object({
  _id: z.string(),
  tournament: z.object({ _id: z.string(), title: z.string(), soloOnly: z.boolean() }),
  stage: z.string(),
  group: z.number().int().nullable(),
  side: z.enum(BRACKET_SIDES).nullable(),
  round: z.number().int(),
  /** The participant I play as (myself, or my team) and their slot in the match. */
  me: sideSchema.extend({ slot: z.enum(SLOTS) }),
  /** Null while the other side is not known yet. */
  opponent: sideSchema.nullable(),
  scheduledAt: z.string().nullable(),
  status: z.enum(MATCH_STATUSES),
  reportState: z.enum(REPORT_STATES).nullable(),
  reportedBy: z.enum(SLOTS).nullable(),
  /** I may report, confirm or dispute for my side: the player, or the team's captain. */
  canReport: z.boolean(),
  checkIn: myCheckInSchema.nullable(),
});
export type MyMatch = z.infer<typeof myMatchSchema>;

/** A tournament whose check-in is open for me (or my team). */
export const myCheckInTournamentSchema = myCheckInSchema.extend({
  tournament: z.object({ _id: z.string(), title: z.string(), date: z.string() }),
  team: z.object({ _id: z.string(), name: z.string() }).nullable(),
});
export type MyCheckInTournament = z.infer<typeof myCheckInTournamentSchema>;

export const myMatchesSchema = z.object({
  /** Next first: matches ready to play, then by time (unscheduled last). */
  matches: z.array(myMatchSchema),
  checkIns: z.array(myCheckInTournamentSchema),
});
export type MyMatches = z.infer<typeof myMatchesSchema>;

export const getMyMatches = (api: ApiClient) => api.get('users/me/matches').json<MyMatches>();

export const calendarLinkSchema = z.object({ url: z.string() });
export const getCalendarLink = (api: ApiClient) => api.get('users/me/calendar').json<{ url: string }>();
export const revokeCalendarLink = (api: ApiClient) => api.post('users/me/calendar/revoke').json<{ message: string; url: string }>();
