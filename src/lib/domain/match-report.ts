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

/** A report form's fields as typed: strings, so an empty field stays empty. */
export interface ReportFields {
  scoreA: string;
  scoreB: string;
  games: { a: string; b: string }[];
}

/**
 * Where a side's report form starts (issue 22): from that side's own report while it waits for the
 * other side, so «Змінити свій звіт» begins with what was sent (its games in the first rows);
 * blank otherwise. `bestOf` rows of games, as the form draws them.
 */
export function reportFormStart(
  report: { state: string; side: string; scoreA: number | null; scoreB: number | null; games: readonly GameScore[] } | null,
  side: string,
  bestOf: number,
): ReportFields {
  const own = report?.state === 'reported' && report.side === side ? report : null;
  const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
  return {
    scoreA: text(own?.scoreA),
    scoreB: text(own?.scoreB),
    games: Array.from({ length: bestOf }, (_, i) => ({ a: text(own?.games[i]?.a), b: text(own?.games[i]?.b) })),
  };
}
