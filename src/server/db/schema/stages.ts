import { sql, type SQL } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { VETO_MOVES, VETO_ROLES } from '../../../lib/domain/veto.ts';
import { REPORT_STATES, MATCH_ACTIONS } from '../../../lib/domain/match-day.ts';
import { BRACKET_SIDES, MATCH_STATUSES, SLOTS, STAGE_FORMATS, STAGE_SEEDINGS, type StageSettings } from '../../../lib/domain/stage/format.ts';
import type { GameScore } from '../../../lib/domain/stage/result.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { tournaments } from './tournaments.ts';

/**
 * A tournament's competition (issue 21, decision 013): stages, each with groups, rounds and
 * matches as rows. Participants are user or team ids by the tournament's type, as in applications.
 */
export const stages = pgTable(
  'stages',
  {
    id: id(),
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    /** 1 for the first stage: stages are played in this order. */
    number: integer('number').notNull(),
    name: text('name').notNull().default(''),
    format: text('format', { enum: STAGE_FORMATS }).notNull(),
    seeding: text('seeding', { enum: STAGE_SEEDINGS }).notNull().default('order'),
    settings: jsonb('settings').$type<StageSettings>().notNull().default({}),
    /**
     * The participants in seed order. Elimination stages keep the first round's slots here
     * (null for a bye), so their later matches are derived from it and the results.
     */
    seeds: jsonb('seeds').$type<(string | null)[]>().notNull().default([]),
    /** Participants disqualified in this stage: they forfeit every match not yet played. */
    disqualified: jsonb('disqualified').$type<string[]>().notNull().default([]),
    /** Playoffs fed by an earlier stage: the top `advance` of each of its groups. */
    fromStageId: uuid('from_stage_id'),
    advance: integer('advance'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('stages_tournament_number_idx').on(t.tournamentId, t.number)],
);

export const stageGroups = pgTable(
  'stage_groups',
  {
    id: id(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    /** 1 for group A. */
    number: integer('number').notNull(),
  },
  (t) => [uniqueIndex('stage_groups_stage_number_idx').on(t.stageId, t.number)],
);

export const stageRounds = pgTable(
  'stage_rounds',
  {
    id: id(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    groupId: uuid('group_id').references(() => stageGroups.id, { onDelete: 'cascade' }),
    side: text('side', { enum: BRACKET_SIDES }),
    /** 1 for the first round of its group or bracket side. */
    number: integer('number').notNull(),
  },
  (t) => [index('stage_rounds_stage_idx').on(t.stageId)],
);

export const stageMatches = pgTable(
  'stage_matches',
  {
    id: id(),
    stageId: uuid('stage_id')
      .notNull()
      .references(() => stages.id, { onDelete: 'cascade' }),
    roundId: uuid('round_id')
      .notNull()
      .references(() => stageRounds.id, { onDelete: 'cascade' }),
    /** Copied from the round so a stage's matches read in play order without a join. */
    groupNumber: integer('group_number'),
    side: text('side', { enum: BRACKET_SIDES }),
    round: integer('round').notNull(),
    /** 1 for the first match of its round. */
    position: integer('position').notNull(),
    participantA: uuid('participant_a'),
    participantB: uuid('participant_b'),
    scoreA: integer('score_a'),
    scoreB: integer('score_b'),
    /** Per-game scores of a best-of-N match. */
    games: jsonb('games').$type<GameScore[]>().notNull().default([]),
    /** The winner's id; null while unplayed, for a draw, or for a match without participants. */
    winner: uuid('winner'),
    forfeit: text('forfeit', { enum: SLOTS }),
    status: text('status', { enum: MATCH_STATUSES }).notNull().default('waiting'),
    scheduledAt: at('scheduled_at'),
    comment: text('comment').notNull().default(''),
    /** False when the organiser's comment is for the tournament's organisers only (issue 57): public reads carry it as ''. */
    commentPublic: boolean('comment_public').notNull().default(true),
    /** Bumped on every change of this match, so an edit based on an older copy is refused. */
    version: integer('version').notNull().default(0),
    completedAt: at('completed_at'),
    updatedAt: createdAt('updated_at'),
    /**
     * Players' reports (issue 22): `reported` while a side's score waits for the other side,
     * `disputed` once the other side disputed it (the admin decides); null otherwise. The score
     * reported is the latest `report` in match_actions.
     */
    reportState: text('report_state', { enum: REPORT_STATES }),
    /** Which side reported the waiting score. */
    reportedBy: text('reported_by', { enum: SLOTS }),
    /** When a waiting report is confirmed automatically. */
    confirmBy: at('confirm_by'),
    /** When a side called the organisers for help (issue 57): set until an organiser answers; the control room lists it. */
    calledAt: at('called_at'),
    /** When the match became ready between its present sides (issue 58): its check-in's timer runs from here, or from its time if later. */
    readyAt: at('ready_at'),
  },
  (t) => [
    uniqueIndex('stage_matches_round_position_idx').on(t.roundId, t.position),
    index('stage_matches_stage_idx').on(t.stageId),
    // The automatic confirmation finds the reports whose time is up.
    index('stage_matches_confirm_by_idx').on(t.confirmBy).where(sql`${t.confirmBy} is not null`),
    // The check-in sweep finds the ready matches whose timer may have run out.
    index('stage_matches_ready_at_idx').on(t.readyAt).where(sql`${t.status} = 'ready' and ${t.readyAt} is not null`),
    check('stage_matches_scores_check', sql`coalesce(${t.scoreA}, 0) >= 0 and coalesce(${t.scoreB}, 0) >= 0`),
  ],
);

/**
 * What happened to a match, in order (issue 22): players' reports, confirmations and disputes, the
 * automatic confirmation, and the admin's results and resets. Shown on the match page.
 */
export const matchActions = pgTable(
  'match_actions',
  {
    id: id(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => stageMatches.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: MATCH_ACTIONS }).notNull(),
    /** Who did it; null for the automatic confirmation (or an account since deleted). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The side the user acted for (players' actions). */
    side: text('side', { enum: SLOTS }),
    scoreA: integer('score_a'),
    scoreB: integer('score_b'),
    games: jsonb('games').$type<GameScore[]>(),
    /** A dispute's reason, or an admin's comment. */
    reason: text('reason').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('match_actions_match_idx').on(t.matchId, t.createdAt)],
);

/**
 * A match's map veto (issue 58), move by move: the starter's choice of Team A or B (which records
 * who started: the higher seed or the coin toss's winner), then each ban, pick and side choice, and
 * the decider the server takes. `number` counts from 0; being the key, a move raced by two
 * requests is written once.
 */
export const matchVetoMoves = pgTable(
  'match_veto_moves',
  {
    matchId: uuid('match_id')
      .notNull()
      .references(() => stageMatches.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    action: text('action', { enum: VETO_MOVES }).notNull(),
    /** The side that moved; null for the server's decider. */
    slot: text('slot', { enum: SLOTS }),
    map: text('map'),
    /** A side choice: 0 or 1 of the game's sides. */
    side: integer('side'),
    /** The starter's choice: A or B. */
    role: text('role', { enum: VETO_ROLES }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.number] })],
);

/**
 * «The tournament's competition is drawn» in SQL (SPEC §4: drawing closes applications and fixes
 * the lineup): it has a stage, or (a database seeded before stages) a SPEC bracket.
 */
// Spelled with qualified names: in a select from `tournaments` alone drizzle writes columns
// unqualified, and inside the subquery a bare "id" would be the stage's own.
export const isCompetitionDrawn: SQL<boolean> = sql<boolean>`(jsonb_array_length("tournaments"."bracket") > 0 or exists (select 1 from "stages" where "stages"."tournament_id" = "tournaments"."id"))`;
