import type { Pairing } from './round-robin.ts';

/*
 * Swiss pairing (issue 21, decision 013): the first round pairs the top half of the seeds against
 * the bottom half (issue 57); each later round pairs participants by points, then by rating,
 * with no rematch while one can be avoided; the bye goes to the lowest-ranked participant who has
 * not had one. Pure and deterministic (no randomness), so a round can be replayed and tested.
 */

/** What the pairing needs to know about one participant before a round. */
export interface SwissEntry {
  id: string;
  /** Points so far (a win 1, a draw ½, a bye 1 — the caller's scoring). */
  points: number;
  /** Rating from the leaderboard; unrated participants rank below rated ones with equal points. */
  rating: number | null;
  /** Everyone this participant has already played. */
  opponents: readonly string[];
  hadBye: boolean;
}

export interface SwissRound {
  pairings: Pairing<string>[];
  bye: string | null;
}

/** How many partner choices the search may try before it settles for the fewest rematches. */
const SEARCH_BUDGET = 200_000;

/** Points first, then rating (unrated last), then the order given (seed order) as the last word. */
export function swissOrder(entries: readonly SwissEntry[]): SwissEntry[] {
  return entries
    .map((entry, seed) => ({ entry, seed }))
    .sort(
      (x, y) =>
        y.entry.points - x.entry.points ||
        (y.entry.rating ?? -Infinity) - (x.entry.rating ?? -Infinity) ||
        x.seed - y.seed,
    )
    .map(({ entry }) => entry);
}

/**
 * The next round: the top remaining participant meets the highest-ranked one it has not played,
 * searching back when a later participant would be left only with rematches. When no round
 * without a rematch exists (or the search runs out), each participant takes the highest-ranked
 * partner it has not played if any is left, else the highest-ranked one.
 */
export function swissRound(entries: readonly SwissEntry[]): SwissRound {
  const ranked = swissOrder(entries);
  let bye: string | null = null;
  if (ranked.length % 2 === 1) {
    const index = ranked.findLastIndex((entry) => !entry.hadBye);
    bye = ranked.splice(index === -1 ? ranked.length - 1 : index, 1)[0]!.id;
  }
  const ids = ranked.map((entry) => entry.id);
  // The first round (nobody has played) pairs the top half against the bottom half, 1 v n/2+1,
  // 2 v n/2+2 …, as Swiss events seed it: the favourites do not meet at once.
  if (ranked.every((entry) => entry.opponents.length === 0)) {
    const half = ids.length / 2;
    return { pairings: ids.slice(0, half).map((a, i) => ({ a, b: ids[half + i]! })), bye };
  }
  const met = new Map(ranked.map((entry) => [entry.id, new Set(entry.opponents)]));
  const pairs = withoutRematch(ids, met) ?? fewestRematches(ids, met);
  return { pairings: pairs.map(([a, b]) => ({ a, b })), bye };
}

function withoutRematch(ids: readonly string[], met: Map<string, Set<string>>): [string, string][] | null {
  const paired = new Set<string>();
  const pairs: [string, string][] = [];
  let budget = SEARCH_BUDGET;
  const search = (): boolean => {
    const first = ids.find((id) => !paired.has(id));
    if (first === undefined) return true;
    paired.add(first);
    for (const partner of ids) {
      if (paired.has(partner) || met.get(first)!.has(partner)) continue;
      if (--budget < 0) break;
      paired.add(partner);
      pairs.push([first, partner]);
      if (search()) return true;
      pairs.pop();
      paired.delete(partner);
    }
    paired.delete(first);
    return false;
  };
  return search() ? pairs : null;
}

function fewestRematches(ids: readonly string[], met: Map<string, Set<string>>): [string, string][] {
  const left = [...ids];
  const pairs: [string, string][] = [];
  while (left.length > 1) {
    const first = left.shift()!;
    const fresh = left.findIndex((id) => !met.get(first)!.has(id));
    const [partner] = left.splice(fresh === -1 ? 0 : fresh, 1);
    pairs.push([first, partner!]);
  }
  return pairs;
}
