import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { APPLICATION_STATUSES, LIVE_APPLICATION_STATUSES } from '../../../lib/domain/application-rules.ts';
import type { Bracket } from '../../../lib/domain/bracket.ts';
import type { StagePlanStep } from '../../../lib/domain/stage/stage-plan.ts';
import { PARTICIPANT_TYPES } from '../../../lib/domain/participant.ts';
import { TOURNAMENT_STATUSES } from '../../../lib/domain/tournament-status.ts';
import { VETO_STARTERS } from '../../../lib/domain/veto.ts';
import { LOBBY_HOSTS } from '../../../lib/domain/match-day.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { games } from './games.ts';
import { organisations } from './organisations.ts';
import { seasons } from './seasons.ts';
import { teams } from './teams.ts';

/**
 * Titles sort in Ukrainian alphabetical order on every database: the default collation (C on
 * PGlite) puts Ґ, Є, І and Ї after Я, so each letter is mapped onto a run of code points in
 * alphabet order (а б в г ґ д … ь ю я), Russian-only letters beside their nearest ones.
 */
const UKRAINIAN = 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюя';
const IN_ALPHABET_ORDER = Array.from(UKRAINIAN, (_, i) => String.fromCodePoint(0x430 + i)).join('');
const nearest = (letter: string) => IN_ALPHABET_ORDER[UKRAINIAN.indexOf(letter)];
const TITLE_KEY = sql.raw(
  `translate(lower("title"), '${UKRAINIAN}ёъыэ', '${IN_ALPHABET_ORDER}${nearest('е')}${nearest('ь')}${nearest('и')}${nearest('е')}')`,
);

export const tournaments = pgTable(
  'tournaments',
  {
    id: id(),
    title: text('title').notNull(),
    /** What title sorts use (see TITLE_KEY); kept by the database. */
    titleKey: text('title_key').generatedAlwaysAs(TITLE_KEY).notNull(),
    description: text('description').notNull().default(''),
    date: at('date').notNull(),
    status: text('status', { enum: TOURNAMENT_STATUSES }).notNull().default('pending'),
    soloOnly: boolean('solo_only').notNull().default(false),
    gameId: uuid('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'restrict' }),
    image: text('image'),
    winnerType: text('winner_type', { enum: PARTICIPANT_TYPES }),
    winnerId: uuid('winner_id'),
    /** SPEC §3's bracket, shaped as the domain's engine declares it. */
    bracket: jsonb('bracket').$type<Bracket>().notNull().default([]),
    /** Bumped on every bracket save, so a save based on an older copy can be refused. */
    bracketVersion: integer('bracket_version').notNull().default(0),
    statsEnabled: boolean('stats_enabled').notNull().default(false),
    // Match day (issue 22). Registration and check-in windows; null means «no limit» for
    // registration and the defaults of lib/domain/match-day.ts for check-in.
    /** Applications beyond this many places are waitlisted; null: no cap. */
    maxParticipants: integer('max_participants'),
    registrationOpensAt: at('registration_opens_at'),
    registrationClosesAt: at('registration_closes_at'),
    /** Whether participants must check in before the start (and stages seed only those who did). */
    checkInEnabled: boolean('check_in_enabled').notNull().default(false),
    checkInOpensAt: at('check_in_opens_at'),
    checkInClosesAt: at('check_in_closes_at'),
    /** When the end of check-in was carried out (drops, promotions): set once, by whichever instance got there first. */
    checkInClosedAt: at('check_in_closed_at'),
    /** A reported score not answered within this many minutes is confirmed automatically. */
    confirmationMinutes: integer('confirmation_minutes').notNull().default(15),
    /** The IANA zone its page, matches and notices are shown in (issue 57); null: each reader's own. */
    timeZone: text('time_zone'),
    /** The maps its matches are vetoed on (issue 58) instead of its game's; null: the game's. */
    maps: jsonb('maps').$type<string[]>(),
    /** Who starts a match's veto (chooses Team A or B): the higher seed, or a coin toss the server makes. */
    vetoStarter: text('veto_starter', { enum: VETO_STARTERS }).notNull().default('higherSeed'),
    /** Minutes both sides of a ready match have to check in to it (issue 58); null: no check-in per match. */
    matchCheckInMinutes: integer('match_check_in_minutes'),
    /** Who puts the lobby details on a match: its organisers, or the higher seed as the host. */
    lobbyHost: text('lobby_host', { enum: LOBBY_HOSTS }).notNull().default('organiser'),
    /** Applicants need a linked Steam account (issue 60, decision 044); only for CS2 and Dota 2. */
    requireSteam: boolean('require_steam').notNull().default(false),
    /** The organisation hosting it (issue 56); null for the site's own, as every tournament before organisations. */
    organisationId: uuid('organisation_id').references(() => organisations.id, { onDelete: 'restrict' }),
    /** The season it counts in (issue 59); null for none. A deleted season leaves its tournaments be. */
    seasonId: uuid('season_id').references(() => seasons.id, { onDelete: 'set null' }),
    /** The stages a clone starts with as a suggestion (issue 56): its source's, empty for any other tournament. */
    stagePlan: jsonb('stage_plan').$type<StagePlanStep[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    // A game's list is read a page at a time, by date or by title; the status and type filters
    // narrow one game's rows, few enough to read through. Lists of every game page by date.
    index('tournaments_game_date_idx').on(t.gameId, t.date),
    index('tournaments_game_title_idx').on(t.gameId, t.titleKey),
    index('tournaments_date_idx').on(t.date),
    index('tournaments_status_idx').on(t.status),
    index('tournaments_organisation_date_idx').on(t.organisationId, t.date),
    index('tournaments_season_date_idx').on(t.seasonId, t.date),
  ],
);

/**
 * «This application is live» (pending or approved, SPEC §4) in SQL: the one-live-application
 * indexes below and the services' queries use this same text, so the planner can match them.
 * Written out, not bound: an index predicate takes no parameters.
 */
export const isLiveStatus = (status: AnyColumn): SQL =>
  sql`${status} in (${sql.raw(LIVE_APPLICATION_STATUSES.map((s) => `'${s}'`).join(', '))})`;

export const applications = pgTable(
  'applications',
  {
    id: id(),
    tournamentId: uuid('tournament_id')
      .notNull()
      .references(() => tournaments.id, { onDelete: 'cascade' }),
    /** The applicant: the player for solo, the captain who applied for a team. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    status: text('status', { enum: APPLICATION_STATUSES }).notNull().default('pending'),
    comment: text('comment').notNull().default(''),
    /** When the participant checked in (issue 22); null until then. */
    checkedInAt: at('checked_in_at'),
    createdAt: createdAt(),
    updatedAt: createdAt('updated_at'),
  },
  (t) => [
    // A tournament's applications by status in the order they came: participants (approved), the
    // bracket, the record-match sides, and the admin list filtered by tournament and status.
    index('applications_tournament_status_idx').on(t.tournamentId, t.status, t.createdAt),
    // The admin list filtered by status alone (pending first of all). A player's or a team's own
    // live application is found through the partial unique indexes below.
    index('applications_status_created_idx').on(t.status, t.createdAt),
    // The admin list of every status, a page at a time, newest first.
    index('applications_created_idx').on(t.createdAt),
    // One live (pending or approved) application per player, and per team, in a tournament.
    uniqueIndex('applications_live_solo_idx')
      .on(t.tournamentId, t.userId)
      .where(sql`${t.teamId} is null and ${isLiveStatus(t.status)}`),
    uniqueIndex('applications_live_team_idx')
      .on(t.tournamentId, t.teamId)
      .where(sql`${t.teamId} is not null and ${isLiveStatus(t.status)}`),
  ],
);
