import type { VetoStep } from '../veto-steps.ts';

/**
 * What a competition stage is (issue 21, decision 013): its format, settings and the words the
 * rest of the code uses for matches. One owner: the schema, the API and the pages read these lists.
 */

export const STAGE_FORMATS = ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'gsl', 'free_for_all'] as const;
export type StageFormat = (typeof STAGE_FORMATS)[number];

/** The elimination formats: a tree, matches fed by earlier winners and losers. */
export const isElimination = (format: StageFormat): boolean => format === 'single_elimination' || format === 'double_elimination';
/** Formats whose matches may end in a draw (issue 21: only round robin and Swiss; not a Swiss with thresholds, issue 59). */
export const allowsDraws = (format: StageFormat, settings: StageSettings = {}): boolean =>
  format === 'round_robin' || (format === 'swiss' && thresholdsOf(settings) === null);
/** Formats played in groups whose members are fixed when the stage is made (GSL groups too). */
export const hasGroups = (format: StageFormat): boolean => format === 'round_robin' || format === 'swiss' || format === 'gsl';

/** Double elimination's grand final: one match, a reset when the losers' champion wins it, or none. */
export const GRAND_FINALS = ['simple', 'double', 'none'] as const;
export type GrandFinal = (typeof GRAND_FINALS)[number];

/**
 * `order`: as the applications came; `standard`: 1 v n, byes to the top seeds; `rating`: by the
 * game's Elo (unrated last), then standard; `manual`: the admin's order, then standard.
 */
export const STAGE_SEEDINGS = ['order', 'standard', 'rating', 'manual'] as const;
export type StageSeeding = (typeof STAGE_SEEDINGS)[number];

/** Which part of an elimination stage a match belongs to; null in round robin and Swiss. */
export const BRACKET_SIDES = ['winners', 'losers', 'grand_final', 'third_place'] as const;
export type BracketSide = (typeof BRACKET_SIDES)[number];

export const MATCH_STATUSES = ['waiting', 'ready', 'completed'] as const;
export type MatchStatus = (typeof MATCH_STATUSES)[number];

export const SLOTS = ['a', 'b'] as const;
export type Slot = (typeof SLOTS)[number];

/** Tie-breakers a table may declare, applied in order after points; the seed settles what is left. */
/**
 * Tie-breakers after points, in the order a stage declares them: head-to-head, game (score)
 * difference, games (score) won, Buchholz, median Buchholz (without the best and the worst
 * opponent, issue 57), wins.
 */
export const TIE_BREAKERS = ['headToHead', 'scoreDifference', 'scoreFor', 'buchholz', 'medianBuchholz', 'wins'] as const;
export type TieBreaker = (typeof TIE_BREAKERS)[number];

export const MAX_BEST_OF = 9;
export const MAX_GROUPS = 16;
export const MAX_STAGE_PARTICIPANTS = 256;
/** A round-robin group's largest size: 64 play 2 016 matches; a bigger table is split into groups. */
export const MAX_ROUND_ROBIN_GROUP = 64;

export interface StageSettings {
  /** Single elimination: a match for third place between the semifinal losers. */
  thirdPlace?: boolean;
  /** Double elimination (default `double`). */
  grandFinal?: GrandFinal;
  /** Round robin, Swiss and GSL: how many groups (default 1; GSL: one per four participants). */
  groups?: number;
  /** Round robin: everyone meets twice. */
  doubleRound?: boolean;
  /** Swiss: how many rounds (default ⌈log2 n⌉); none with thresholds. */
  rounds?: number;
  /** Swiss with thresholds (issue 59): this many wins advance a team, this many losses eliminate it; both or neither. */
  winsToAdvance?: number;
  lossesToEliminate?: number;
  /** Swiss with thresholds: the best-of of a match that decides advancement or elimination (Valve: 3). */
  decidingBestOf?: number;
  /** Swiss: the next round is paired as soon as the last result of a round is in. */
  autoPair?: boolean;
  /** Games per match; the match is won at ⌈bestOf/2⌉ (default 1). */
  bestOf?: number;
  /** Best-of by round (issue 57): from a round on (of one bracket side, or of every one), another best-of. */
  bestOfByRound?: BestOfRule[];
  /**
   * Round robin and Swiss: points for a win, a draw and a loss (default 3, 1, 0). Free-for-all:
   * points by a game's placement and per kill (default `DEFAULT_FFA_POINTS`). `tablePoints` and
   * `ffaSettingsOf` read the one of each.
   */
  points?: Points | FfaPoints;
  /** Free-for-all (issue 59): the most participants a lobby holds. */
  lobbySize?: number;
  /** Free-for-all: the games each lobby plays. */
  games?: number;
  /** Free-for-all: how many of each lobby go on to the next round (needed when the first round has two lobbies or more). */
  advance?: number;
  /** Round robin and Swiss: declared order of tie-breakers after points. */
  tieBreakers?: TieBreaker[];
  /**
   * The map veto (issue 58): on when present, on the tournament's (or its game's) map pool. Its
   * matches play the sequence the organiser wrote for their best-of, else the standard one
   * (`standardSequence`).
   */
  veto?: { sequences?: Partial<Record<string, VetoStep[]>> | undefined };
}

/** From `round` on — of `side`, or of every side when absent — matches are best-of-`bestOf`. */
export interface BestOfRule {
  side?: BracketSide | undefined;
  round: number;
  bestOf: number;
}

/** How many rules a stage may have: one per round of the largest bracket's sides is plenty. */
export const MAX_BEST_OF_RULES = 16;

/**
 * A match's own best-of: the rule for its side or every side that starts latest at or before its
 * round (a side's own rule first on the same round), else the stage's `bestOf`, else 1.
 */
export function bestOfFor(settings: Pick<StageSettings, 'bestOf' | 'bestOfByRound'>, match: { side: BracketSide | null; round: number }): number {
  let found: BestOfRule | undefined;
  for (const rule of settings.bestOfByRound ?? []) {
    if ((rule.side !== undefined && rule.side !== match.side) || rule.round > match.round) continue;
    if (!found || rule.round > found.round || (rule.round === found.round && rule.side !== undefined)) found = rule;
  }
  return found?.bestOf ?? settings.bestOf ?? 1;
}

/** A Swiss stage's thresholds, or null for a Swiss of a fixed number of rounds. */
export const thresholdsOf = (settings: Pick<StageSettings, 'winsToAdvance' | 'lossesToEliminate'>): { winsToAdvance: number; lossesToEliminate: number } | null =>
  settings.winsToAdvance !== undefined && settings.lossesToEliminate !== undefined
    ? { winsToAdvance: settings.winsToAdvance, lossesToEliminate: settings.lossesToEliminate }
    : null;

/** The largest threshold a Swiss stage may set: 5 wins and 5 losses play at most 9 rounds. */
export const MAX_SWISS_THRESHOLD = 5;

/** A GSL group (issue 59) has four members (three leaves one opening match a bye). */
export const GSL_GROUP = { min: 3, max: 4 } as const;

/** A round robin's or Swiss stage's points for a win, a draw and a loss. */
export const tablePoints = (settings: Pick<StageSettings, 'points'>): Points =>
  settings.points && 'win' in settings.points ? settings.points : DEFAULT_POINTS;

/** A free-for-all stage's settings, its points defaulted (the API makes sure `lobbySize` and `games` are there). */
export const ffaSettingsOf = (settings: StageSettings): FfaSettings => ({
  lobbySize: settings.lobbySize ?? FFA_LIMITS.lobbySize.max,
  games: settings.games ?? 1,
  points: settings.points && 'placement' in settings.points ? settings.points : DEFAULT_FFA_POINTS,
  advance: settings.advance,
});

export interface Points {
  win: number;
  draw: number;
  loss: number;
}

export const DEFAULT_POINTS: Points = { win: 3, draw: 1, loss: 0 };
export const DEFAULT_TIE_BREAKERS: Record<'round_robin' | 'swiss', TieBreaker[]> = {
  round_robin: ['headToHead', 'scoreDifference', 'scoreFor'],
  swiss: ['buchholz', 'headToHead', 'scoreDifference'],
};

export interface FfaPoints {
  /** Points for 1st, 2nd, … place in a game; places past the list score 0. */
  placement: number[];
  /** Points per kill. */
  kill: number;
}

export interface FfaSettings {
  lobbySize: number;
  /** Games each lobby plays. */
  games: number;
  points: FfaPoints;
  /** How many of each lobby go on to the next round (not needed when the first round is one lobby). */
  advance?: number | undefined;
}

/** The PUBG Mobile Club Open's table, the one most Ukrainian mobile events copy: 10, 6, 5, 4, 3, 2, 1, 1 and a point a kill. */
export const DEFAULT_FFA_POINTS: FfaPoints = { placement: [10, 6, 5, 4, 3, 2, 1, 1], kill: 1 };

export const FFA_LIMITS = { lobbySize: { min: 2, max: 100 }, games: { min: 1, max: 20 }, kills: 99, points: 1000 } as const;
