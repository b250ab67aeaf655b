import { z } from 'zod';
import { winnerSide } from '../domain/match-result.ts';
import { PARTICIPANT_TYPES, type ParticipantType } from '../domain/participant.ts';
import type { StatFieldDefinition } from '../domain/stat-fields.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { statFieldSchema as configStatField } from './game-management.ts';
import { pageParams, readPage, type Page } from './paging.ts';
import { achievementBadgeSchema } from './leaderboards.ts';
import { matchHistoryItemSchema } from './match-history.ts';
import { tournamentSchema } from './tournaments.ts';

/** The largest score, stat value and duration accepted: far above any real match, well inside the database's integers. */
export const MAX_SCORE = 100_000;
export const MAX_STAT = 1_000_000_000;
export const MAX_DURATION_MINUTES = 24 * 60;

const isCount = (value: number, max: number) => Number.isInteger(value) && value >= 0 && value <= max;

const score = z.number().refine((v) => isCount(v, MAX_SCORE), { error: () => t('stats.scoreInvalid', { max: MAX_SCORE }) });

/** One side's detailed stats: stat field name → non-negative whole number. */
const sideStats = z
  .record(z.string().trim().min(1).max(60), z.number())
  .refine((values) => Object.keys(values).length <= 60, { error: () => t('stats.tooManyStats') })
  .superRefine((values, ctx) => {
    for (const [field, value] of Object.entries(values)) {
      if (!isCount(value, MAX_STAT)) ctx.addIssue({ code: 'custom', path: [field], message: t('stats.statInvalid', { field, max: MAX_STAT }) });
    }
  });

export const participantTypeSchema = z.enum(PARTICIPANT_TYPES, { error: () => t('stats.participantTypeInvalid') });
export type { ParticipantType };

/**
 * POST /tournaments/{id}/record-match (SPEC §3 Match result payload). Each side is named by
 * `participantNId` (a user or team id; what the admin panel sends) or by `participantN` (an id,
 * or the nickname / team name the spec's payload carries). `winner`, when sent, must name the
 * side with the higher score; the server derives it anyway. `duration` (minutes) is optional.
 */
export const recordMatchInput = z
  .object({
    tournamentId: z.uuid().optional(),
    participant1Type: participantTypeSchema.optional(),
    participant2Type: participantTypeSchema.optional(),
    participant1Id: z.uuid().optional(),
    participant2Id: z.uuid().optional(),
    participant1: z.string().trim().max(100).optional(),
    participant2: z.string().trim().max(100).optional(),
    score1: score,
    score2: score,
    winner: z.string().trim().max(100).optional(),
    duration: z
      .number()
      .refine((v) => isCount(v, MAX_DURATION_MINUTES), { error: () => t('stats.durationInvalid', { max: MAX_DURATION_MINUTES }) })
      .nullable()
      .optional(),
    gameSpecificStats: z.object({ participant1: sideStats.optional(), participant2: sideStats.optional() }).optional(),
  })
  .superRefine((body, ctx) => {
    const named = (n: 1 | 2) => Boolean(body[`participant${n}Type`] && (body[`participant${n}Id`] || body[`participant${n}`]));
    if (!named(1) || !named(2)) {
      ctx.addIssue({ code: 'custom', path: [named(1) ? 'participant2' : 'participant1'], message: t('stats.fillParticipants') });
      return;
    }
    if (winnerSide(body.score1, body.score2) === null) ctx.addIssue({ code: 'custom', path: ['score2'], message: t('stats.scoreEqual') });
  });
export type RecordMatchInput = z.input<typeof recordMatchInput>;

/** A tournament in the statistics panel: whether statistics are on, and whether its game has them configured. */
export const tournamentStatsSchema = tournamentSchema.extend({
  statsEnabled: z.boolean(),
  gameHasStats: z.boolean(),
});
export type TournamentStats = z.infer<typeof tournamentStatsSchema>;

/** A numeric stat field as the record form shows it: the game config's field without its `key` twin. */
export const statFieldSchema = configStatField.omit({ key: true }) satisfies z.ZodType<StatFieldDefinition>;
export type StatField = z.infer<typeof statFieldSchema>;

/** Everything the record-match modal needs: the game's numeric stat fields and who may play. */
export const recordFormSchema = z.object({
  tournament: tournamentStatsSchema,
  statsFields: z.array(statFieldSchema),
  participants: z.object({
    users: z.array(z.object({ _id: z.string(), username: z.string(), avatar: z.string().nullable() })),
    teams: z.array(z.object({ _id: z.string(), name: z.string(), logoUrl: z.string().nullable() })),
  }),
});
export type RecordForm = z.infer<typeof recordFormSchema>;

export const statsEnabledSchema = z.object({ message: z.string(), tournament: tournamentStatsSchema });
export type StatsEnabled = z.infer<typeof statsEnabledSchema>;

/** One side after a recorded match: its new rating, the change and its rank. */
export const recordedSideSchema = z.object({
  type: participantTypeSchema,
  id: z.string(),
  name: z.string(),
  score: z.number().int(),
  isWinner: z.boolean(),
  rating: z.number(),
  ratingChange: z.number(),
  rankTitle: z.string(),
  currentStreak: z.number().int(),
});

export const matchRecordedSchema = z.object({
  message: z.string(),
  match: matchHistoryItemSchema,
  participants: z.tuple([recordedSideSchema, recordedSideSchema]),
  /** Achievements this match earned, per side. */
  achievements: z.array(achievementBadgeSchema.extend({ owner: z.object({ type: participantTypeSchema, id: z.string(), name: z.string() }) })),
});
export type MatchRecorded = z.infer<typeof matchRecordedSchema>;

const path = (id: string) => `tournaments/${encodeURIComponent(id)}`;

export const listTournamentStats = async (api: ApiClient, page: { limit?: number; offset?: number } = {}): Promise<Page<TournamentStats>> =>
  readPage<TournamentStats>(await api.get('stats/tournaments', { searchParams: pageParams(page) }));
export const getRecordForm = (api: ApiClient, tournamentId: string) => api.get(`${path(tournamentId)}/stats`).json<RecordForm>();
export const enableStats = (api: ApiClient, tournamentId: string) => api.post(`${path(tournamentId)}/enable-stats`).json<StatsEnabled>();
export const recordMatch = (api: ApiClient, tournamentId: string, body: RecordMatchInput) =>
  api.post(`${path(tournamentId)}/record-match`, { json: body }).json<MatchRecorded>();
