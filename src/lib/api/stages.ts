/**
 * The competition engine's API shapes (issue 21): stages with their groups, matches, tables and
 * placements; a match and its result. The server validates with these and the pages and islands
 * read the same types.
 */
import { z } from 'zod';
import { MAX_VETO_STEPS, sequenceProblem } from '../domain/veto.ts';
import { vetoStepSchema } from './veto.ts';
import { isSupportedMoment } from './input.ts';
import {
  BRACKET_SIDES,
  GRAND_FINALS,
  MATCH_STATUSES,
  MAX_BEST_OF,
  MAX_BEST_OF_RULES,
  MAX_GROUPS,
  MAX_STAGE_PARTICIPANTS,
  MAX_SWISS_THRESHOLD,
  FFA_LIMITS,
  SLOTS,
  STAGE_FORMATS,
  STAGE_SEEDINGS,
  TIE_BREAKERS,
} from '../domain/stage/format.ts';
import { MATCH_ACTIONS, REPORT_STATES } from '../domain/match-day.ts';
import { TOURNAMENT_STATUSES } from '../domain/tournament-status.ts';
import { t } from '../i18n/index.ts';
import { bracketParticipantSchema } from './bracket.ts';
import { getIfChanged, type ApiClient } from './client.ts';

const score = z.number().int().min(0).max(9999);
/** A game's score as a form sends it. */
export const gameScoreInput = z.object({ a: score, b: score });
/** A game's score as it is stored and shown: with its map when the match's veto gave one (issue 58). */
export const gameScoreSchema = gameScoreInput.extend({ map: z.string().optional() });

/** Odd: a best-of-N is won at ⌈N/2⌉. */
const bestOfSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_BEST_OF)
  .refine((n) => n % 2 === 1, { error: () => t('stage.bestOfOdd') });

const settingsShape = z
  .object({
    thirdPlace: z.boolean().optional(),
    grandFinal: z.enum(GRAND_FINALS).optional(),
    groups: z.number().int().min(1).max(MAX_GROUPS).optional(),
    doubleRound: z.boolean().optional(),
    rounds: z.number().int().min(1).max(20).optional(),
    /** Swiss with thresholds (issue 59): wins that advance and losses that eliminate, both or neither. */
    winsToAdvance: z.number().int().min(1).max(MAX_SWISS_THRESHOLD).optional(),
    lossesToEliminate: z.number().int().min(1).max(MAX_SWISS_THRESHOLD).optional(),
    /** Swiss with thresholds: the best-of of the matches that decide advancement or elimination. */
    decidingBestOf: bestOfSchema.optional(),
    /** Swiss: pair the next round as soon as a round's last result is in. */
    autoPair: z.boolean().optional(),
    /** Odd: a best-of-N is won at ⌈N/2⌉. */
    bestOf: bestOfSchema.optional(),
    /** From a round on (of one bracket side, or every side), another best-of (issue 57). */
    bestOfByRound: z
      .array(z.object({ side: z.enum(BRACKET_SIDES).optional(), round: z.number().int().min(1).max(64), bestOf: bestOfSchema }).strict())
      .max(MAX_BEST_OF_RULES)
      .optional(),
    /** Round robin and Swiss: for a win, a draw, a loss. Free-for-all: by a game's placement and per kill. */
    points: z
      .union([
        z.object({
          win: z.number().int().min(0).max(10),
          draw: z.number().int().min(0).max(10),
          loss: z.number().int().min(0).max(10),
        }),
        z
          .object({
            placement: z.array(z.number().int().min(0).max(FFA_LIMITS.points)).min(1).max(FFA_LIMITS.lobbySize.max),
            kill: z.number().int().min(0).max(FFA_LIMITS.points),
          })
          .strict(),
      ])
      .optional(),
    /** Free-for-all (issue 59): lobby size, games per lobby, and how many of each lobby go on. */
    lobbySize: z.number().int().min(FFA_LIMITS.lobbySize.min).max(FFA_LIMITS.lobbySize.max).optional(),
    games: z.number().int().min(FFA_LIMITS.games.min).max(FFA_LIMITS.games.max).optional(),
    advance: z.number().int().min(1).max(FFA_LIMITS.lobbySize.max - 1).optional(),
    tieBreakers: z
      .array(z.enum(TIE_BREAKERS))
      .max(TIE_BREAKERS.length)
      .refine((list) => new Set(list).size === list.length, { error: () => t('stage.tieBreakersTwice') })
      .optional(),
    /**
     * The map veto (issue 58): on when present. `sequences` are the organiser's own, by best-of
     * ("1", "3", …); a best-of without one plays the standard sequence on the pool.
     */
    veto: z
      .object({
        sequences: z
          .partialRecord(z.enum(['1', '3', '5', '7', '9']), z.array(vetoStepSchema).min(1).max(MAX_VETO_STEPS))
          .refine((all) => Object.entries(all).every(([bestOf, steps]) => steps && sequenceProblem(steps, steps.filter((s) => s.action !== 'side').length, Number(bestOf)) === null), {
            error: () => t('veto.sequenceInvalid'),
          })
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export const stageSettingsSchema = settingsShape.superRefine((settings, context) => {
  const problem = thresholdProblem(settings);
  if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: t(problem.key) });
});

/** What is wrong with a Swiss stage's thresholds among the settings, if anything (format aside). */
function thresholdProblem(settings: z.infer<typeof settingsShape>): { field: string; key: 'stage.thresholdsBoth' | 'stage.thresholdsNoRounds' | 'stage.decidingNeedsThresholds' } | null {
  const wins = settings.winsToAdvance !== undefined;
  const losses = settings.lossesToEliminate !== undefined;
  if (wins !== losses) return { field: wins ? 'lossesToEliminate' : 'winsToAdvance', key: 'stage.thresholdsBoth' };
  if (!wins) return settings.decidingBestOf === undefined ? null : { field: 'decidingBestOf', key: 'stage.decidingNeedsThresholds' };
  for (const field of ['rounds', 'points', 'tieBreakers', 'doubleRound'] as const) {
    if (settings[field] !== undefined) return { field, key: 'stage.thresholdsNoRounds' };
  }
  return null;
}

/** One step of a clone's stage plan (lib/domain/stage/stage-plan.ts), as the tournament's detail shows it. */
export const stagePlanStepSchema = z.object({
  name: z.string(),
  format: z.enum(STAGE_FORMATS),
  seeding: z.enum(STAGE_SEEDINGS).exclude(['manual']),
  settings: stageSettingsSchema,
  from: z.object({ stage: z.number().int().min(1), advance: z.number().int().min(1) }).optional(),
});

export const stageCreateInput = z
  .object({
    format: z.enum(STAGE_FORMATS),
    name: z.string().trim().max(100).optional(),
    seeding: z.enum(STAGE_SEEDINGS).default('order'),
    /** Manual seeding: every participant once, in seed order. */
    participants: z.array(z.uuid()).max(MAX_STAGE_PARTICIPANTS).optional(),
    settings: stageSettingsSchema.default({}),
    /** Playoffs: the top `advance` of each group of an earlier, finished stage. */
    from: z
      .object({
        stageId: z.uuid(),
        advance: z.number().int().min(1).max(MAX_STAGE_PARTICIPANTS),
      })
      .optional(),
  })
  .strict()
  .superRefine((input, context) => {
    const settings = input.settings;
    if (!settings) return;
    const problem = formatProblem(input.format, settings);
    if (problem) context.addIssue({ code: 'custom', path: ['settings', problem.field], message: t(problem.key) });
  });

/** A setting the stage's format does not take (or one it needs that is missing). */
function formatProblem(
  format: (typeof STAGE_FORMATS)[number],
  settings: z.infer<typeof settingsShape>,
): { field: string; key: 'stage.thresholdsSwissOnly' | 'stage.ffaOnly' | 'stage.ffaNeeds' | 'stage.ffaPoints' | 'stage.tablePoints' } | null {
  if (format !== 'swiss') {
    const swissOnly = (['winsToAdvance', 'lossesToEliminate', 'decidingBestOf', 'autoPair'] as const).find((field) => settings[field] !== undefined);
    if (swissOnly) return { field: swissOnly, key: 'stage.thresholdsSwissOnly' };
  }
  if (format !== 'free_for_all') {
    const ffaOnly = (['lobbySize', 'games', 'advance'] as const).find((field) => settings[field] !== undefined);
    if (ffaOnly) return { field: ffaOnly, key: 'stage.ffaOnly' };
    if (settings.points && 'placement' in settings.points) return { field: 'points', key: 'stage.tablePoints' };
    return null;
  }
  const missing = (['lobbySize', 'games'] as const).find((field) => settings[field] === undefined);
  if (missing) return { field: missing, key: 'stage.ffaNeeds' };
  if (settings.points && !('placement' in settings.points)) return { field: 'points', key: 'stage.ffaPoints' };
  return null;
}
export type StageCreateInput = z.input<typeof stageCreateInput>;

export const matchUpdateInput = z
  .object({
    scoreA: score.optional(),
    scoreB: score.optional(),
    games: z.array(gameScoreInput).max(MAX_BEST_OF).optional(),
    forfeit: z.enum(SLOTS).nullable().optional(),
    scheduledAt: z.iso
      .datetime({ offset: true })
      .refine(isSupportedMoment, { error: () => t('validation.invalidBody') })
      .nullable()
      .optional(),
    comment: z.string().max(500).optional(),
    /** Whether everyone sees the comment (issue 57): false keeps it for the tournament's organisers, public reads carry it as ''. Left out, it stays as it is. */
    commentPublic: z
      .boolean()
      .optional()
      .meta({
        description:
          'Чи бачать коментар усі (за замовчуванням так). false — коментар лише для організаторів турніру: публічні читання (етапи, матч, історія матчу, сітка SPEC, вбудовування) віддають його порожнім; ' +
          'текст бачать організатори через GET /api/matches/{id}/comment. Якщо не вказано — не змінюється',
      }),
    /** Withdraw the result (and everything built on it). */
    reset: z.boolean().optional(),
    /** Only list the matches the change would reset, change nothing. */
    preview: z.boolean().optional(),
    /** The version this edit was based on: a stale one is refused with 409. */
    version: z.number().int().min(0),
  })
  .strict();
export type MatchUpdateInput = z.infer<typeof matchUpdateInput>;

/** Where an empty slot's side comes from (issue 57): the winner or the loser of the match numbered so. */
const matchSourceSchema = z.object({ kind: z.enum(['winner', 'loser']), number: z.number().int() }).nullable();

export const matchSchema = z.object({
  _id: z.string(),
  stage: z.string(),
  /** The match's number across its whole stage, M1…Mn in the order the stage is planned (issue 57). */
  number: z.number().int(),
  /** Its own best-of: the stage's, or its round's (`settings.bestOfByRound`, issue 57). */
  bestOf: z.number().int(),
  /** Which earlier matches feed its sides (an elimination stage); null for a seed or a fixed side. */
  from: z.object({ a: matchSourceSchema, b: matchSourceSchema }),
  group: z.number().int().nullable(),
  side: z.enum(BRACKET_SIDES).nullable(),
  round: z.number().int(),
  position: z.number().int(),
  a: z.string().nullable(),
  b: z.string().nullable(),
  scoreA: z.number().int().nullable(),
  scoreB: z.number().int().nullable(),
  games: z.array(gameScoreSchema),
  winner: z.string().nullable(),
  forfeit: z.enum(SLOTS).nullable(),
  status: z.enum(MATCH_STATUSES),
  /** Completed without being played (a bye, or a grand-final reset that was not needed). */
  bye: z.boolean(),
  scheduledAt: z.string().nullable(),
  /** The organiser's comment; '' in a public read when it is for the organisers only (`commentPublic`). */
  comment: z.string(),
  /** Only in an organiser's answers (the result's save): false when the comment is for the tournament's organisers only. */
  commentPublic: z.boolean().optional(),
  version: z.number().int(),
  completedAt: z.string().nullable(),
  /** Players' reports (issue 22): a score waiting for the other side, or disputed (the admin decides); null otherwise. */
  reportState: z.enum(REPORT_STATES).nullable(),
});
export type StageMatchView = z.infer<typeof matchSchema>;

/** A match's comment as its organisers read it (`GET /api/matches/{id}/comment`): its text even when it is for them only. */
export const matchCommentSchema = z.object({
  comment: z.string(),
  /** False when only the tournament's organisers see it. */
  commentPublic: z.boolean(),
  /** The match's version the comment is from. */
  version: z.number().int(),
});
export type MatchComment = z.infer<typeof matchCommentSchema>;

export const standingRowSchema = z.object({
  participant: z.string(),
  rank: z.number().int(),
  played: z.number().int(),
  wins: z.number().int(),
  draws: z.number().int(),
  losses: z.number().int(),
  points: z.number(),
  scoreFor: z.number().int(),
  scoreAgainst: z.number().int(),
  scoreDifference: z.number().int(),
  buchholz: z.number(),
  /** Swiss with thresholds (issue 59): advanced or eliminated; absent while still playing and in other formats. */
  outcome: z.enum(['advanced', 'eliminated']).optional(),
});

export const placementSchema = z.object({
  participant: z.string(),
  from: z.number().int(),
  to: z.number().int(),
});
export type PlacementView = z.infer<typeof placementSchema>;

/** One participant's line of a free-for-all game (issue 59). */
export const ffaLineSchema = z
  .object({
    participant: z.uuid(),
    placement: z.number().int().min(1).max(FFA_LIMITS.lobbySize.max),
    kills: z.number().int().min(0).max(FFA_LIMITS.kills),
  })
  .strict();

/** A free-for-all game as entered (`PUT /api/matches/{id}/games/{n}`): every member of the lobby once. */
export const lobbyGameInput = z.object({ lines: z.array(ffaLineSchema).min(1).max(FFA_LIMITS.lobbySize.max) }).strict();

/** A free-for-all lobby (issue 59): its members in seed order, its entered games and its table. */
export const lobbySchema = z.object({
  _id: z.string(),
  round: z.number().int(),
  number: z.number().int(),
  members: z.array(z.string()),
  games: z.array(z.object({ number: z.number().int(), lines: z.array(ffaLineSchema) })),
  table: z.array(
    z.object({
      participant: z.string(),
      rank: z.number().int(),
      played: z.number().int(),
      points: z.number().int(),
      placementPoints: z.number().int(),
      kills: z.number().int(),
      bestPlacement: z.number().int().nullable(),
      lastPlacement: z.number().int().nullable(),
      placements: z.array(z.number().int().nullable()),
    }),
  ),
  /** Every game played. */
  complete: z.boolean(),
  scheduledAt: z.string().nullable(),
  version: z.number().int(),
});
export type LobbyView = z.infer<typeof lobbySchema>;

export const stageSchema = z.object({
  _id: z.string(),
  tournament: z.string(),
  number: z.number().int(),
  name: z.string(),
  format: z.enum(STAGE_FORMATS),
  seeding: z.enum(STAGE_SEEDINGS),
  settings: stageSettingsSchema,
  /** Participants in seed order (elimination: the first round's slots, null a bye). */
  seeds: z.array(z.string().nullable()),
  disqualified: z.array(z.string()),
  from: z.object({ stageId: z.string(), advance: z.number().int() }).nullable(),
  /** Round robin and Swiss: each group's participants and table. One group when not split. */
  groups: z.array(
    z.object({
      number: z.number().int(),
      participants: z.array(z.string()),
      standings: z.array(standingRowSchema),
    }),
  ),
  matches: z.array(matchSchema),
  /** Free-for-all: its lobbies, round by round; empty in other formats. */
  lobbies: z.array(lobbySchema),
  placements: z.array(placementSchema),
  complete: z.boolean(),
});
export type StageView = z.infer<typeof stageSchema>;

export const stagesStateSchema = z.object({
  tournament: z.string(),
  /** Bumped by every change to any stage of the tournament (the ETag of this answer). */
  version: z.number().int(),
  participants: z.array(bracketParticipantSchema),
  stages: z.array(stageSchema),
});
export type StagesState = z.infer<typeof stagesStateSchema>;

/**
 * One free-for-all lobby as its page shows it (issue 59, `GET /api/lobbies/{id}`): its tournament,
 * its stage and round, its table and confirmed games, and its members' names as the bracket gives them.
 */
export const lobbyStateSchema = z.object({
  tournament: z.object({
    _id: z.string(),
    title: z.string(),
    soloOnly: z.boolean(),
    /** Its own time zone (issue 57), or null: each reader's. */
    timeZone: z.string().nullable(),
    status: z.enum(TOURNAMENT_STATUSES),
    /** The organisation hosting it (issue 56), whose people organise it; null for the site's own. */
    organisation: z.string().nullable(),
  }),
  stage: z.object({
    _id: z.string(),
    number: z.number().int(),
    name: z.string(),
    /** The games each of its lobbies plays. */
    games: z.number().int(),
    /** What a game gives: points by placement (1st, 2nd, …; a place past the list 0) and per kill. */
    points: z.object({ placement: z.array(z.number().int()), kill: z.number().int() }),
    /** The lobby's round (1 the first). */
    round: z.number().int(),
    /** The lobbies of that round. */
    lobbies: z.number().int(),
    /** Whether this lobby is the final: the one lobby of its round, which decides the places. */
    final: z.boolean(),
    /** Whether its round is the stage's latest: until the next round is drawn from it, its games may still be entered. */
    current: z.boolean(),
  }),
  lobby: lobbySchema,
  participants: z.array(bracketParticipantSchema),
});
export type LobbyState = z.infer<typeof lobbyStateSchema>;

const nextMatchSchema = z.object({
  _id: z.string(),
  number: z.number().int(),
  opponent: z.string().nullable(),
  waitsFor: z.object({ kind: z.enum(['winner', 'loser']), number: z.number().int() }).nullable(),
});

export const matchStateSchema = z.object({
  match: matchSchema,
  stage: stageSchema.pick({
    _id: true,
    format: true,
    name: true,
    number: true,
    settings: true,
  }),
  tournament: z.object({
    _id: z.string(),
    title: z.string(),
    soloOnly: z.boolean(),
    /** Its own time zone (issue 57), or null: each reader's. */
    timeZone: z.string().nullable(),
  }),
  participants: z.array(bracketParticipantSchema),
  /** Who acts for each side (issue 22): the player's, or the team captain's, user id. */
  actors: z.object({ a: z.string().nullable(), b: z.string().nullable() }),
  /**
   * Where each side goes next (issue 57): the match the winner (and, in a double elimination, the
   * loser) plays next, against whom — a participant's id, or the match still to decide it.
   */
  next: z.object({ winner: nextMatchSchema.nullable(), loser: nextMatchSchema.nullable() }),
  /** A players' report waiting for the other side, or disputed; null when none is. */
  report: z
    .object({
      state: z.enum(REPORT_STATES),
      side: z.enum(SLOTS),
      scoreA: z.number().int().nullable(),
      scoreB: z.number().int().nullable(),
      games: z.array(gameScoreSchema),
      /** When a waiting report is confirmed by itself. */
      confirmBy: z.string().nullable(),
    })
    .nullable(),
  /** The match's history, oldest first: reports, confirmations, disputes, the admin's results and resets. */
  actions: z.array(
    z.object({
      _id: z.string(),
      kind: z.enum(MATCH_ACTIONS),
      /** Who did it; null for the automatic confirmation or a deleted account. */
      user: z.object({ _id: z.string(), username: z.string() }).nullable(),
      side: z.enum(SLOTS).nullable(),
      scoreA: z.number().int().nullable(),
      scoreB: z.number().int().nullable(),
      games: z.array(gameScoreSchema).nullable(),
      reason: z.string(),
      at: z.string(),
    }),
  ),
});
export type MatchState = z.infer<typeof matchStateSchema>;
export type MatchActionView = MatchState['actions'][number];

export const matchSavedSchema = z.object({
  message: z.string(),
  match: matchSchema,
  /** Matches whose results this change withdrew (or, for a preview, would withdraw). */
  reset: z.array(matchSchema),
  preview: z.boolean(),
});

export const standingsSchema = z.object({
  tournament: z.string(),
  /** Whether every stage is finished: until then the places are those known so far. */
  final: z.boolean(),
  placements: z.array(placementSchema.extend({ name: z.string() })),
});

export const getStages = async (api: ApiClient, tournamentId: string, etag?: string, fresh = false) => {
  const answer = await getIfChanged<StagesState>(api, `tournaments/${tournamentId}/stages`, { etag: etag ?? null, fresh });
  return { state: answer.changed ? answer.body : null, etag: answer.etag };
};

export type TournamentStandings = z.infer<typeof standingsSchema>;

/** A tournament's final places over all its stages (those known so far until every stage ends). */
export const getStandings = (api: ApiClient, tournamentId: string) => api.get(`tournaments/${tournamentId}/standings`).json<TournamentStandings>();

export const createStage = (api: ApiClient, tournamentId: string, body: StageCreateInput) =>
  api.post(`tournaments/${tournamentId}/stages`, { json: body }).json<{ message: string; stage: StageView }>();

export const updateMatch = (api: ApiClient, matchId: string, body: MatchUpdateInput) =>
  api.patch(`matches/${matchId}`, { json: body }).json<z.infer<typeof matchSavedSchema>>();

/** A match's comment with its text for an organiser, and whether everyone sees it (the result form reads it when it opens). */
export const getMatchComment = (api: ApiClient, matchId: string) => api.get(`matches/${matchId}/comment`).json<MatchComment>();

export const disqualify = (api: ApiClient, tournamentId: string, participant: string) =>
  api.post(`tournaments/${tournamentId}/disqualify`, { json: { participant } }).json<{ message: string; stages: StageView[] }>();

export const nextRound = (api: ApiClient, tournamentId: string, stageId: string) =>
  api.post(`tournaments/${tournamentId}/stages/${stageId}/next-round`).json<{ message: string; stage: StageView }>();
