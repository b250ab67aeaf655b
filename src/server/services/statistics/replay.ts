import { addTotals } from '../../../lib/domain/match-result.ts';
import type { ParticipantType } from '../../../lib/domain/participant.ts';
import { INITIAL_RATING, nextStreak, rateDraw, rateLobby } from '../../../lib/domain/rating.ts';
import { conditionValues, standingsAfter, statsKey, type compiledAchievements, type Competitor, type StandingNumbers } from './tournament-stats.ts';

/*
 * A game's recorded results played forward in memory (decisions 004, 013 and 039): a match of two
 * sides as record-match counts it, a free-for-all lobby's final table by placement. Pure; the
 * statistics services (stage-stats.ts, recompute.ts) read the records and write what this gives.
 */

export type Standing = StandingNumbers;
type Compiled = ReturnType<typeof compiledAchievements>;

/** `user:<id>` or `team:<id>`; a side whose player or team was deleted is `gone:<participant row id>`. */
export const keyOf = (type: ParticipantType, id: string) => statsKey({ type, id });
export const competitorOf = (key: string): Competitor | null => {
  const [type, id] = key.split(':') as [string, string];
  return type === 'user' || type === 'team' ? { type, id } : null;
};

/** One recorded result as the replay reads it: a match of two sides, or a lobby of two or more. */
export interface Played {
  id: string;
  /** completed_at (created_at when missing), created_at, id: the replay order. */
  at: Date;
  createdAt: Date;
  sides: string[];
  /** A match's winning side's index; null for a draw or a lobby. */
  winner: number | null;
  /** A lobby's placements, side by side (1 the winner); null for a match. */
  placements: number[] | null;
  stats: Record<string, number>[];
  /** Its `match_participants` rows, in side order, and the rating after the result each holds (null: not written yet). */
  rows: { id: string; ratingAfter: number | null }[];
}

/** The replay order: (completed_at, created_at, id), as PostgreSQL sorts them (uuids compare as their lower-case text). */
export const byReplayOrder = (a: Pick<Played, 'at' | 'createdAt' | 'id'>, b: Pick<Played, 'at' | 'createdAt' | 'id'>) =>
  a.at.getTime() - b.at.getTime() || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const START: Standing = { rating: INITIAL_RATING, matchesPlayed: 0, matchesWon: 0, matchesLost: 0, currentStreak: 0, totals: {} };

/**
 * Both sides' numbers after a result: a win as `standingsAfter` counts it, a draw as decision 004
 * ("Draws") does — one more match, neither won nor lost, Elo with ½ each, the streak back to 0.
 */
export function standingsAfterResult(
  before: readonly [Standing, Standing],
  winner: 0 | 1 | null,
  stats: readonly [Record<string, number>, Record<string, number>],
): [Standing, Standing] {
  if (winner !== null) return standingsAfter(before, winner, stats);
  const rated = rateDraw(before[0], before[1]);
  const next = (index: 0 | 1): Standing => ({
    rating: index === 0 ? rated.a : rated.b,
    matchesPlayed: before[index].matchesPlayed + 1,
    matchesWon: before[index].matchesWon,
    matchesLost: before[index].matchesLost,
    currentStreak: 0,
    totals: addTotals(before[index].totals, stats[index]),
  });
  return [next(0), next(1)];
}

/**
 * Every member's numbers after a free-for-all lobby (decision 039): one more played; the lobby's
 * winner won it and everyone else lost it, as a battle royale counts wins; Elo by `rateLobby`.
 */
export function standingsAfterLobby(before: readonly Standing[], placements: readonly number[], stats: readonly Record<string, number>[]): Standing[] {
  const ratings = rateLobby(before, placements);
  return before.map((row, index) => {
    const won = placements[index] === 1;
    return {
      rating: ratings[index]!,
      matchesPlayed: row.matchesPlayed + 1,
      matchesWon: row.matchesWon + (won ? 1 : 0),
      matchesLost: row.matchesLost + (won ? 0 : 1),
      currentStreak: nextStreak(row.currentStreak, won),
      totals: addTotals(row.totals, stats[index] ?? {}),
    };
  });
}

/** Every side's numbers after one recorded result. */
function standingsAfterRecord(before: Standing[], record: Played): Standing[] {
  if (record.placements) return standingsAfterLobby(before, record.placements, record.stats);
  return standingsAfterResult(before as [Standing, Standing], record.winner as 0 | 1 | null, record.stats as [Record<string, number>, Record<string, number>]);
}

/** Notes the achievements whose condition holds for `standing` as reached by `key`. */
function reach(reached: Map<string, Set<string>>, key: string, standing: Standing, compiled: Compiled, fieldNames: readonly string[]): void {
  if (compiled.length === 0) return;
  const values = conditionValues(standing, fieldNames);
  for (const { achievement, evaluate } of compiled) {
    if (!evaluate(values)) continue;
    const held = reached.get(key) ?? new Set<string>();
    held.add(achievement._id);
    reached.set(key, held);
  }
}

/**
 * Plays `records` in order from `start` (everyone else from 1000): every side's numbers at the
 * end, for each side the achievements whose condition held after at least one of its results, and
 * for each record its sides' ratings right after it (`match_participants.rating_after`).
 */
export function replay(start: ReadonlyMap<string, Standing>, records: readonly Played[], compiled: Compiled, fieldNames: readonly string[]) {
  const standings = new Map(start);
  const reached = new Map<string, Set<string>>();
  const ratings = new Map<string, number[]>();
  for (const record of records) {
    const after = standingsAfterRecord(
      record.sides.map((key) => standings.get(key) ?? START),
      record,
    );
    ratings.set(
      record.id,
      after.map((s) => s.rating),
    );
    record.sides.forEach((key, index) => {
      standings.set(key, after[index]!);
      reach(reached, key, after[index]!, compiled, fieldNames);
    });
  }
  return { standings, reached, ratings };
}

/**
 * What `replay` would give the competitors `keys` after `records` — every record they played up to
 * some point, in order — without replaying their opponents: a side's counts, streak and totals
 * follow from its own results alone, and its rating after each is the one the record keeps
 * (`rating_after`, written by the replay that played it). Null when one of those ratings is
 * missing (a row from before the column): only a whole replay can give it.
 */
export function standingsFromRecords(records: readonly Played[], keys: ReadonlySet<string>, compiled: Compiled, fieldNames: readonly string[]) {
  const standings = new Map<string, Standing>();
  const reached = new Map<string, Set<string>>();
  for (const record of records) {
    const before = record.sides.map((key) => (keys.has(key) ? (standings.get(key) ?? START) : START));
    const after = standingsAfterRecord(before, record);
    for (const [index, key] of record.sides.entries()) {
      if (!keys.has(key)) continue;
      const rating = record.rows[index]?.ratingAfter;
      if (rating === null || rating === undefined) return null;
      const own = { ...after[index]!, rating };
      standings.set(key, own);
      reach(reached, key, own, compiled, fieldNames);
    }
  }
  return { standings, reached };
}
