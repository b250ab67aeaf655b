import { matchActions, stageMatches, stageRounds, stages } from '../schema/index.ts';
import { factory } from './factory.ts';

type StageInsert = typeof stages.$inferInsert;
type RoundInsert = typeof stageRounds.$inferInsert;
type StageMatchInsert = typeof stageMatches.$inferInsert;

/** Stages: the first, unnamed, single elimination seeded in order, with no seeds yet; `tournamentId` is required. */
export const stageFactory = factory(stages, (overrides: Partial<StageInsert> & Pick<StageInsert, 'tournamentId'>): StageInsert => ({
  number: 1,
  name: '',
  format: 'single_elimination',
  seeding: 'order',
  settings: {},
  seeds: [],
  disqualified: [],
  ...overrides,
}));

/** A stage's rounds: the first of the winners' side; `stageId` is required. */
export const stageRoundFactory = factory(stageRounds, (overrides: Partial<RoundInsert> & Pick<RoundInsert, 'stageId'>): RoundInsert => ({
  side: 'winners',
  number: 1,
  ...overrides,
}));

/**
 * A stage's matches: the first of its round, waiting for its sides, unplayed; `stageId` and
 * `roundId` are required.
 */
export const stageMatchFactory = factory(
  stageMatches,
  (overrides: Partial<StageMatchInsert> & Pick<StageMatchInsert, 'stageId' | 'roundId'>): StageMatchInsert => ({
    side: 'winners',
    round: 1,
    position: 1,
    participantA: null,
    participantB: null,
    scoreA: null,
    scoreB: null,
    games: [],
    winner: null,
    status: 'waiting',
    comment: '',
    commentPublic: true,
    version: 0,
    completedAt: null,
    ...overrides,
  }),
);

type MatchActionInsert = typeof matchActions.$inferInsert;

/** A match's history: a report with no score yet; `matchId` and `kind` are required. */
export const matchActionFactory = factory(
  matchActions,
  (overrides: Partial<MatchActionInsert> & Pick<MatchActionInsert, 'matchId' | 'kind'>): MatchActionInsert => ({
    userId: null,
    side: null,
    scoreA: null,
    scoreB: null,
    games: null,
    reason: '',
    ...overrides,
  }),
);
