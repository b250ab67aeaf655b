import { z } from 'zod';
import { PARTICIPANT_TYPES } from '../domain/participant.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { isSupportedMoment } from './input.ts';

/** Matches per page of the history widget (SPEC §9). */
export const MATCH_HISTORY_LIMIT = 20;
export const MATCH_HISTORY_MAX_LIMIT = 100;

/** GET /stats/matches/player/{userId} and /team/{teamId}: newest first, paged by offset or `before`. */
export const matchHistoryQuery = z.object({
  /** Clamped to 1–100. */
  limit: z.coerce
    .number()
    .int()
    .default(MATCH_HISTORY_LIMIT)
    .transform((v) => Math.min(Math.max(v, 1), MATCH_HISTORY_MAX_LIMIT)),
  /** Matches to skip (the widget's «load more» sends how many it shows). */
  offset: z.coerce
    .number()
    .int()
    .default(0)
    .transform((v) => Math.min(Math.max(v, 0), 100_000)),
  /** Only matches that ended (or were created) strictly before this ISO time. */
  before: z.iso.datetime({ offset: true, error: () => t('matchHistory.badBefore') }).refine(isSupportedMoment, { error: () => t('matchHistory.badBefore') }).optional(),
});
export type MatchHistoryQuery = z.input<typeof matchHistoryQuery>;

const participantSchema = z.object({
  id: z.string().nullable(),
  type: z.enum(PARTICIPANT_TYPES),
  name: z.string(),
  score: z.number(),
  isWinner: z.boolean(),
  /** Its place in a free-for-all lobby (issue 59), whose record has a side per member; null in a match of two. */
  placement: z.number().int().nullable(),
});

/** SPEC §3 Match history item. */
export const matchHistoryItemSchema = z.object({
  _id: z.string(),
  participants: z.array(participantSchema),
  result: z.object({ isDraw: z.boolean() }),
  gameId: z.object({ _id: z.string(), name: z.string() }),
  tournamentId: z.object({ _id: z.string(), title: z.string() }).nullable(),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
  matchDetails: z.object({
    duration: z.number().nullable(),
    gameSpecificData: z.record(z.string(), z.union([z.string(), z.number()])),
  }),
  status: z.enum(['completed', 'in_progress', 'scheduled', 'cancelled']),
});
export type MatchHistoryItem = z.infer<typeof matchHistoryItemSchema>;

export type MatchHistoryOwner = { kind: 'player' | 'team'; id: string };

const searchOf = (query: MatchHistoryQuery) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null)) as Record<string, string | number>;

/** A page of the history of a player (`player`) or a team (`team`); public, no token needed. */
export const getMatchHistory = (api: ApiClient, owner: MatchHistoryOwner, query: MatchHistoryQuery = {}) =>
  api.get(`stats/matches/${owner.kind}/${owner.id}`, { searchParams: searchOf(query) }).json<MatchHistoryItem[]>();
