import { index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { CHECK_IN_OUTCOMES } from '../../../lib/domain/match-day.ts';
import { SLOTS } from '../../../lib/domain/stage/format.ts';
import { users } from './accounts.ts';
import { at, createdAt, id } from './columns.ts';
import { images } from './images.ts';
import { stageMatches } from './stages.ts';

/**
 * What a match room holds besides the competition (issue 58, decision 038): the lobby details only
 * its people read, and how its check-in ended. Kept apart from `stage_matches`, whose rows the
 * competition's reads hold between requests by its version: nothing here changes a result, so
 * nothing here moves that version.
 */
export const matchRooms = pgTable('match_rooms', {
  matchId: uuid('match_id')
    .primaryKey()
    .references(() => stageMatches.id, { onDelete: 'cascade' }),
  /** The lobby or server details (address, password): the two sides and the organisers only. */
  lobby: text('lobby').notNull().default(''),
  lobbyBy: uuid('lobby_by').references(() => users.id, { onDelete: 'set null' }),
  lobbyAt: at('lobby_at'),
  /** How the match's check-in ended: both came, one side forfeited, or nobody came (the organisers decide). Set once. */
  checkInOutcome: text('check_in_outcome', { enum: CHECK_IN_OUTCOMES }),
  checkInClosedAt: at('check_in_closed_at'),
});

/** A side checked in to its match (issue 58): by participant, so a check-in of sides since replaced counts for nobody. */
export const matchCheckIns = pgTable(
  'match_check_ins',
  {
    matchId: uuid('match_id')
      .notNull()
      .references(() => stageMatches.id, { onDelete: 'cascade' }),
    participantId: uuid('participant_id').notNull(),
    slot: text('slot', { enum: SLOTS }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.matchId, t.participantId] })],
);

/** A match's chat (issue 58): its two sides and the tournament's organisers. `slot` is the writer's side, null for an organiser. */
export const matchMessages = pgTable(
  'match_messages',
  {
    id: id(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => stageMatches.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    slot: text('slot', { enum: SLOTS }),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('match_messages_match_created_idx').on(t.matchId, t.createdAt)],
);

/** Screenshots backing a report or a dispute (issue 58): re-encoded pictures, read by the match's people only. */
export const matchEvidence = pgTable(
  'match_evidence',
  {
    id: id(),
    matchId: uuid('match_id')
      .notNull()
      .references(() => stageMatches.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    slot: text('slot', { enum: SLOTS }),
    imageId: uuid('image_id')
      .notNull()
      .references(() => images.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [index('match_evidence_match_idx').on(t.matchId, t.createdAt)],
);
