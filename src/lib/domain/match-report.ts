/**
 * Players' reports (issue 22): when two sides' reported scores agree. Pure: the report service
 * decides with it whether a second report confirms the first or disputes it.
 */
import type { GameScore } from './stage/result.ts';

export interface ReportedScore {
  scoreA: number;
  scoreB: number;
  games: GameScore[];
}

const sameGames = (x: readonly GameScore[], y: readonly GameScore[]) => x.length === y.length && x.every((g, i) => g.a === y[i]!.a && g.b === y[i]!.b);

/**
 * The score both reports agree on, or null when they differ. The match score must be the same;
 * per-game scores too when both sides gave them, and those one side gave are kept when the other
 * gave none (they agree on everything the other said).
 */
export function sameReport(first: ReportedScore, second: ReportedScore): ReportedScore | null {
  if (first.scoreA !== second.scoreA || first.scoreB !== second.scoreB) return null;
  if (first.games.length > 0 && second.games.length > 0 && !sameGames(first.games, second.games)) return null;
  return { scoreA: first.scoreA, scoreB: first.scoreB, games: first.games.length > 0 ? first.games : second.games };
}

/** A match score as people write it: «2:1»; «–» for a side without one. */
export const scoreText = (score: { scoreA: number | null; scoreB: number | null }): string => `${score.scoreA ?? '–'}:${score.scoreB ?? '–'}`;
