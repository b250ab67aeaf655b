/**
 * The single-elimination bracket engine (SPEC §3 Bracket round and Match, §4 Match display and
 * Bracket creation). Pure: the server validates saved brackets with it and the islands draw and
 * edit with it, so both always agree.
 */

export interface BracketMatch {
  /** Participant ids (users in solo tournaments, teams in team ones); null until known. */
  a: string | null;
  b: string | null;
  winner: string | null;
  loser: string | null;
  comment: string;
}

export interface BracketRound {
  /** 1 for the first round. */
  round: number;
  matches: BracketMatch[];
}

export type Bracket = BracketRound[];

/**
 * `order` pairs participants as listed (1–2, 3–4, …), spreading byes when the count is not a
 * power of two; `standard` seeds 1 against n, 2 against n−1, … with byes to the top seeds.
 */
export const SEEDINGS = ['order', 'standard'] as const;
export type Seeding = (typeof SEEDINGS)[number];

export type MatchState = 'completed' | 'ready' | 'waiting';

export const MIN_PARTICIPANTS = 2;

/** completed when it has a winner, ready when both sides are known, otherwise waiting. */
export function matchState(match: BracketMatch): MatchState {
  if (match.winner) return 'completed';
  if (match.a && match.b) return 'ready';
  return 'waiting';
}

/** ceil(log2 n): rounds needed for n participants (1 for 2, 3 for 5–8). */
export function roundCount(participants: number): number {
  return participants < 2 ? 0 : Math.ceil(Math.log2(participants));
}

/** Where the winner of match `index` goes in the next round. */
export function nextSlot(index: number): { match: number; slot: 'a' | 'b' } {
  return { match: Math.floor(index / 2), slot: index % 2 === 0 ? 'a' : 'b' };
}

/** How a round is called, counted from the final: final, semifinal, quarterfinal, or its number. */
export function roundKind(roundIndex: number, rounds: number): 'final' | 'semifinal' | 'quarterfinal' | 'round' {
  const fromEnd = rounds - 1 - roundIndex;
  if (fromEnd === 0) return 'final';
  if (fromEnd === 1) return 'semifinal';
  if (fromEnd === 2) return 'quarterfinal';
  return 'round';
}

const emptyMatch = (): BracketMatch => ({ a: null, b: null, winner: null, loser: null, comment: '' });

/** Seed numbers (1-based) in bracket order for a power-of-two size: 1, 8, 4, 5, 2, 7, 3, 6 for 8. */
export function standardOrder(size: number): number[] {
  let order = [1];
  while (order.length < size) {
    const next = order.length * 2 + 1;
    order = order.flatMap((seed) => [seed, next - seed]);
  }
  return order;
}

/** First-round pairs for `order` seeding: byes spread evenly so no match is empty on both sides. */
function orderedPairs(ids: readonly string[], size: number): [string | null, string | null][] {
  const matches = size / 2;
  const byes = size - ids.length;
  const pairs: [string | null, string | null][] = [];
  let next = 0;
  for (let i = 0; i < matches; i++) {
    // Match i gets a bye when the running share of byes crosses a whole number here.
    const isBye = Math.floor(((i + 1) * byes) / matches) > Math.floor((i * byes) / matches);
    const a = ids[next++] ?? null;
    const b = isBye ? null : (ids[next++] ?? null);
    pairs.push([a, b]);
  }
  return pairs;
}

function standardPairs(ids: readonly string[], size: number): [string | null, string | null][] {
  const order = standardOrder(size);
  const pairs: [string | null, string | null][] = [];
  for (let i = 0; i < order.length; i += 2) {
    pairs.push([ids[(order[i] ?? 0) - 1] ?? null, ids[(order[i + 1] ?? 0) - 1] ?? null]);
  }
  return pairs;
}

/** The first round's pairs for participants in seed order: byes where the seeding puts them. */
export function firstRoundPairs(ids: readonly string[], seeding: Seeding): [string | null, string | null][] {
  const size = 2 ** roundCount(ids.length);
  return seeding === 'standard' ? standardPairs(ids, size) : orderedPairs(ids, size);
}

/**
 * A new bracket for these participants (in seed order). A participant without an opponent in
 * the first round advances at once, so every bracket can be played to one champion.
 */
export function createBracket(participantIds: readonly string[], seeding: Seeding = 'order'): Bracket {
  const ids = [...participantIds];
  if (new Set(ids).size !== ids.length) throw new Error('duplicate participant');
  if (ids.length < MIN_PARTICIPANTS) throw new Error('not enough participants');
  const rounds = roundCount(ids.length);
  const size = 2 ** rounds;
  const pairs = firstRoundPairs(ids, seeding);
  let bracket: Bracket = Array.from({ length: rounds }, (_, r) => ({
    round: r + 1,
    matches: r === 0 ? pairs.map(([a, b]) => ({ ...emptyMatch(), a, b })) : Array.from({ length: size / 2 ** (r + 1) }, emptyMatch),
  }));
  bracket[0]?.matches.forEach((match, index) => {
    const alone = match.a && !match.b ? match.a : !match.a && match.b ? match.b : null;
    if (alone) bracket = placeWinner(bracket, 0, index, alone, null, '');
  });
  return bracket;
}

function clone(bracket: Bracket): Bracket {
  return bracket.map((round) => ({ round: round.round, matches: round.matches.map((m) => ({ ...m })) }));
}

/** A first-round match with one side only: its participant passes without playing. */
export function isBye(roundIndex: number, match: BracketMatch): boolean {
  return roundIndex === 0 && Boolean(match.a) !== Boolean(match.b);
}

function placeWinner(bracket: Bracket, roundIndex: number, matchIndex: number, winner: string, loser: string | null, comment: string): Bracket {
  const next = clone(bracket);
  const match = next[roundIndex]?.matches[matchIndex];
  if (!match) throw new Error('no such match');
  Object.assign(match, { winner, loser, comment });
  const target = next[roundIndex + 1];
  if (target) {
    const { match: t, slot } = nextSlot(matchIndex);
    const nextMatch = target.matches[t];
    if (nextMatch) nextMatch[slot] = winner;
  }
  return next;
}

/** Later matches whose results depend on match (r, m): they are cleared if its result changes. */
export function dependentResults(bracket: Bracket, roundIndex: number, matchIndex: number): { round: number; match: number }[] {
  const found: { round: number; match: number }[] = [];
  let index = matchIndex;
  for (let r = roundIndex + 1; r < bracket.length; r++) {
    index = nextSlot(index).match;
    const match = bracket[r]?.matches[index];
    if (!match?.winner) break;
    found.push({ round: r, match: index });
  }
  return found;
}

/**
 * Withdraws the result of match (r, m) and everything built on it: its winner leaves every later
 * slot it had reached, and the later results it took part in are cleared.
 */
export function resetResult(bracket: Bracket, roundIndex: number, matchIndex: number): Bracket {
  const next = clone(bracket);
  const match = next[roundIndex]?.matches[matchIndex];
  if (!match) throw new Error('no such match');
  if (isBye(roundIndex, match)) throw new Error('a bye cannot be reset');
  match.winner = null;
  match.loser = null;
  let index = matchIndex;
  for (let r = roundIndex + 1; r < next.length; r++) {
    const { match: t, slot } = nextSlot(index);
    const later = next[r]?.matches[t];
    if (!later) break;
    later[slot] = null;
    if (!later.winner) break;
    later.winner = null;
    later.loser = null;
    index = t;
  }
  return next;
}

/**
 * Records `winner` for a ready (or already decided) match (r, m) and advances them. A changed
 * result first withdraws the old one (see `resetResult`). Throws when the winner is not a side.
 */
export function setResult(bracket: Bracket, roundIndex: number, matchIndex: number, winner: string, comment = ''): Bracket {
  const match = bracket[roundIndex]?.matches[matchIndex];
  if (!match) throw new Error('no such match');
  if (!match.a || !match.b) throw new Error('match is not ready');
  if (winner !== match.a && winner !== match.b) throw new Error('winner is not a side of the match');
  const base = match.winner && match.winner !== winner ? resetResult(bracket, roundIndex, matchIndex) : bracket;
  return placeWinner(base, roundIndex, matchIndex, winner, winner === match.a ? match.b : match.a, comment);
}

/** Changes only the comment of a match. */
export function setComment(bracket: Bracket, roundIndex: number, matchIndex: number, comment: string): Bracket {
  const next = clone(bracket);
  const match = next[roundIndex]?.matches[matchIndex];
  if (!match) throw new Error('no such match');
  match.comment = comment;
  return next;
}

/** Whether a bracket has been drawn (an empty one is none, or was cleared). Drawing closes applications (SPEC §4). */
export const isDrawn = (bracket: Bracket): boolean => bracket.length > 0;

/** The tournament's champion: the winner of the final, once decided. */
export function champion(bracket: Bracket): string | null {
  return bracket.at(-1)?.matches[0]?.winner ?? null;
}

/** Completed matches out of all, for the progress bar; byes count as completed. */
export function progress(bracket: Bracket): { completed: number; total: number; percent: number } {
  const all = bracket.flatMap((r) => r.matches);
  const completed = all.filter((m) => m.winner).length;
  return { completed, total: all.length, percent: all.length ? Math.round((completed / all.length) * 100) : 0 };
}

export type BracketProblem =
  | { kind: 'shape' }
  | { kind: 'participants' }
  | { kind: 'unknownParticipant'; round: number; match: number }
  | { kind: 'winnerNotSide'; round: number; match: number }
  | { kind: 'advancement'; round: number; match: number };

/**
 * The first thing wrong with a bracket, or null when it is consistent: first-round participants
 * all among `allowedIds` (the approved ones) and none twice, the shape that their number needs,
 * winners taken from the match's own sides, and every later slot holding exactly the winner of
 * the match that feeds it. Participants approved after the bracket was drawn may be left out.
 */
export function findProblem(bracket: Bracket, allowedIds: readonly string[]): BracketProblem | null {
  const known = new Set(allowedIds);
  const firstRound = (bracket[0]?.matches ?? []).flatMap((m) => [m.a, m.b]).filter((id): id is string => id !== null);
  if (firstRound.length < MIN_PARTICIPANTS || new Set(firstRound).size !== firstRound.length || firstRound.some((id) => !known.has(id))) {
    return { kind: 'participants' };
  }
  const rounds = roundCount(firstRound.length);
  const size = 2 ** rounds;
  if (bracket.length !== rounds) return { kind: 'shape' };
  for (let r = 0; r < rounds; r++) {
    const round = bracket[r];
    if (!round || round.round !== r + 1 || round.matches.length !== size / 2 ** (r + 1)) return { kind: 'shape' };
  }
  for (let r = 0; r < rounds; r++) {
    const matches = bracket[r]?.matches ?? [];
    for (let m = 0; m < matches.length; m++) {
      const match = matches[m] as BracketMatch;
      const where = { round: r + 1, match: m + 1 };
      for (const id of [match.a, match.b, match.winner, match.loser]) {
        if (id !== null && !known.has(id)) return { kind: 'unknownParticipant', ...where };
      }
      if (r === 0 && !match.a && !match.b) return { kind: 'participants' };
      if (match.winner) {
        const sides = [match.a, match.b];
        const bye = isBye(r, match);
        const other = match.winner === match.a ? match.b : match.a;
        if (!sides.includes(match.winner) || (!bye && (!match.a || !match.b)) || match.loser !== other) {
          return { kind: 'winnerNotSide', ...where };
        }
      } else if (match.loser || isBye(r, match)) {
        return { kind: 'advancement', ...where };
      }
      if (r > 0) {
        const feeders = bracket[r - 1]?.matches ?? [];
        if (match.a !== (feeders[m * 2]?.winner ?? null) || match.b !== (feeders[m * 2 + 1]?.winner ?? null)) {
          return { kind: 'advancement', ...where };
        }
      }
    }
  }
  return null;
}
