/*
 * Round-robin schedules (issue 21, decision 013): everyone meets everyone once, or twice with
 * sides swapped in a double round, by the circle method. The first participant stays put and the
 * others turn one place a round; with an odd count an empty seat (null) joins, and whoever draws
 * it rests that round. Pure, so the server, the islands and the tests share one schedule.
 */

/** One pairing of a round: `a` plays `b`; a bye is not listed (who rests is `rests`). */
export interface Pairing<T> {
  a: T;
  b: T;
}

export interface RoundRobinRound<T> {
  pairings: Pairing<T>[];
  /** Who has no game this round (odd counts only). */
  rests: T | null;
}

/**
 * The rounds of a round robin between `participants`, in seed order: n − 1 rounds for an even n
 * and n for an odd one, doubled (second half with sides swapped) when `double`. Sides alternate
 * for the fixed participant so nobody is always side `a`. Fewer than two participants: no rounds.
 */
export function roundRobin<T>(participants: readonly T[], options: { double?: boolean } = {}): RoundRobinRound<T>[] {
  if (participants.length < 2) return [];
  const seats: (T | null)[] = participants.length % 2 === 0 ? [...participants] : [...participants, null];
  const n = seats.length;
  const rounds: RoundRobinRound<T>[] = [];
  for (let round = 0; round < n - 1; round++) {
    const pairings: Pairing<T>[] = [];
    let rests: T | null = null;
    for (let i = 0; i < n / 2; i++) {
      const first = seats[i] as T | null;
      const second = seats[n - 1 - i] as T | null;
      if (first === null || second === null) {
        rests = first ?? second;
        continue;
      }
      // The fixed seat swaps sides every round; the others keep the side of their seat.
      pairings.push(i === 0 && round % 2 === 1 ? { a: second, b: first } : { a: first, b: second });
    }
    rounds.push({ pairings, rests });
    // Turn every seat but the first one place: the last comes to the second.
    seats.splice(1, 0, seats.pop() as T | null);
  }
  if (!options.double) return rounds;
  return [...rounds, ...rounds.map(({ pairings, rests }) => ({ pairings: pairings.map(({ a, b }) => ({ a: b, b: a })), rests }))];
}
