/**
 * Seasons (issue 59): a league or circuit adds up points by final place across a series of
 * tournaments into one table, as start.gg leagues and Challonge community rankings do. The one owner
 * of what a points table may be, which tournaments may join a season, and how its table is ranked;
 * the API, the pages and the manage island read these.
 */

export const SEASON_NAME_MAX = 80;
/** The most places a points table names; every place after its last scores 0. */
export const POINTS_PLACES_MAX = 64;
/** The most points one place may give. */
export const POINTS_MAX = 10_000;
/** How many seasons one organisation (or the site) may keep: a bound on a list nobody pages through. */
export const MAX_SEASONS = 100;

/** What the manage form offers first: a podium worth most, then a tail that still counts. */
export const SUGGESTED_POINTS: readonly number[] = [100, 70, 50, 35, 25, 15, 10, 5];

/** Why a points table cannot be saved; each is `season.points.<reason>` in the catalog. */
export type PointsRefusal = 'empty' | 'tooMany' | 'notInteger' | 'negative' | 'tooHigh' | 'increasing';

/**
 * The first rule `points` breaks, or null: 1 to POINTS_PLACES_MAX whole numbers from 0 to
 * POINTS_MAX, never more for a lower place than for a higher one (a table that paid 5th more than
 * 4th would reward losing the match for 4th).
 */
export function pointsRefusal(points: readonly unknown[]): PointsRefusal | null {
  if (points.length === 0) return 'empty';
  if (points.length > POINTS_PLACES_MAX) return 'tooMany';
  for (const value of points) {
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'notInteger';
    if (value < 0) return 'negative';
    if (value > POINTS_MAX) return 'tooHigh';
  }
  for (let i = 1; i < points.length; i++) if ((points[i] as number) > (points[i - 1] as number)) return 'increasing';
  return null;
}

/** Points for finishing `place` (from 1): the table's, 0 past its end. */
export const pointsFor = (pointsByPlace: readonly number[], place: number): number => pointsByPlace[place - 1] ?? 0;

/**
 * Points as one line a form edits and a page shows: «100, 70, 50». Parsing takes commas, spaces or
 * semicolons between numbers; anything that is not a whole number stays, for `pointsRefusal` to name.
 */
export const pointsText = (points: readonly number[]): string => points.join(', ');
export function parsePoints(text: string): unknown[] {
  return text
    .split(/[\s,;]+/)
    .filter((part) => part.length > 0)
    .map((part) => (/^-?\d+$/.test(part) ? Number(part) : part));
}

/** What a season and a tournament joining it must share. */
export interface SeasonFacts {
  gameId: string;
  organisationId: string | null;
  /** null: not decided yet, the first tournament to join decides. */
  soloOnly: boolean | null;
}
export interface JoiningFacts {
  gameId: string;
  organisationId: string | null;
  soloOnly: boolean;
}

/** Why a tournament may not join; each is `season.join.<reason>` in the catalog. */
export type JoinRefusal = 'otherOrganisation' | 'otherGame' | 'otherKind';

/**
 * The first rule a tournament joining the season breaks, or null: the same host (an organisation's
 * season takes its own tournaments, the site's its own), the same game, and the same kind of
 * participant (a table adds up players or teams, never both).
 */
export function joinRefusal(season: SeasonFacts, tournament: JoiningFacts): JoinRefusal | null {
  if ((season.organisationId ?? null) !== (tournament.organisationId ?? null)) return 'otherOrganisation';
  if (season.gameId !== tournament.gameId) return 'otherGame';
  if (season.soloOnly !== null && season.soloOnly !== tournament.soloOnly) return 'otherKind';
  return null;
}

/** One tournament of the season as its table counts it: finished ones only, in any order. */
export interface CountedTournament {
  id: string;
  /** When it was played (its start): the later one breaks a tie. */
  date: string;
  /** Final places: a band shared by several («3–4») counts as its best place, `from`. */
  placements: readonly { participant: string; from: number; to: number }[];
}

export interface SeasonResult {
  tournament: string;
  from: number;
  to: number;
  points: number;
}

export interface SeasonRow {
  /** Shared by rows the tie-breakers cannot tell apart (the name only orders them). */
  rank: number;
  participant: string;
  total: number;
  /** The best single place. */
  best: number;
  /** One per tournament placed in, the most recent first. */
  results: SeasonResult[];
}

/** Whether `a` ranks above `b` (< 0), below (> 0) or level, before names: total, best place, then the most recent results. */
function compareRows(a: Omit<SeasonRow, 'rank'>, b: Omit<SeasonRow, 'rank'>, newestFirst: readonly string[]): number {
  if (a.total !== b.total) return b.total - a.total;
  if (a.best !== b.best) return a.best - b.best;
  // The most recent tournament where the two fared differently decides: a place beats none, a better place a worse one.
  const placeIn = (row: Omit<SeasonRow, 'rank'>, id: string) => row.results.find((r) => r.tournament === id)?.from ?? Infinity;
  for (const id of newestFirst) {
    const [x, y] = [placeIn(a, id), placeIn(b, id)];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The season's table: for each participant placed in any counted tournament, the points its places
 * earned (`pointsByPlace[place - 1]`, 0 past the end), the total, highest first; ties go to the best
 * single place, then to the better result in the most recent tournament where the two differ, then
 * by name (`nameOf`) — which orders rows but does not split their rank.
 */
export function seasonTable(pointsByPlace: readonly number[], tournaments: readonly CountedTournament[], nameOf: (participant: string) => string): SeasonRow[] {
  const newestFirst = [...tournaments].sort((x, y) => Date.parse(y.date) - Date.parse(x.date) || (x.id < y.id ? 1 : -1));
  const rows = new Map<string, Omit<SeasonRow, 'rank'>>();
  for (const tournament of newestFirst) {
    const seen = new Set<string>();
    for (const place of tournament.placements) {
      // One place per participant and tournament, whatever the input repeats.
      if (seen.has(place.participant)) continue;
      seen.add(place.participant);
      const row = rows.get(place.participant) ?? { participant: place.participant, total: 0, best: Infinity, results: [] };
      const points = pointsFor(pointsByPlace, place.from);
      row.total += points;
      row.best = Math.min(row.best, place.from);
      row.results.push({ tournament: tournament.id, from: place.from, to: place.to, points });
      rows.set(place.participant, row);
    }
  }
  const order = newestFirst.map((t) => t.id);
  const names = new Map([...rows.keys()].map((id) => [id, nameOf(id)]));
  const sorted = [...rows.values()].sort(
    (a, b) => compareRows(a, b, order) || names.get(a.participant)!.localeCompare(names.get(b.participant)!, 'uk') || (a.participant < b.participant ? -1 : 1),
  );
  const table: SeasonRow[] = [];
  sorted.forEach((row, index) => {
    const previous = table[index - 1];
    const tied = previous !== undefined && compareRows(previous, row, order) === 0;
    table.push({ ...row, rank: tied ? previous.rank : index + 1 });
  });
  return table;
}
