import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FFA_POINTS, type FfaSettings } from '../../src/lib/domain/stage/format.ts';
import { advancers, ffaLobbies, ffaPlacements, ffaProblem, ffaRounds, gameProblem, lobbyTable, type FfaLine } from '../../src/lib/domain/stage/free-for-all.ts';
import { ids, random } from './stage-play.ts';

/** A game where the members finish in the order given, with these kills. */
const game = (order: readonly string[], kills: readonly number[] = []): FfaLine[] =>
  order.map((participant, i) => ({ participant, placement: i + 1, kills: kills[i] ?? 0 }));

/** A random game of a lobby: a shuffled order and kills 0–9. */
function randomGame(members: readonly string[], coin: () => number): FfaLine[] {
  const order = [...members].sort(() => coin() - 0.5);
  return order.map((participant, i) => ({ participant, placement: i + 1, kills: Math.floor(coin() * 10) }));
}

describe('free-for-all lobbies (issue 59)', () => {
  it('spreads participants over as few lobbies as the size allows, by seed in a snake', () => {
    expect(ffaLobbies(ids(6), 3)).toEqual([
      ['p1', 'p4', 'p5'],
      ['p2', 'p3', 'p6'],
    ]);
    expect(ffaLobbies(ids(5), 16)).toEqual([ids(5)]);
  });

  it('adds placement points and kill points, with the PUBG Mobile table by default', () => {
    const members = ['a', 'b', 'c'];
    const table = lobbyTable(members, [game(['a', 'b', 'c'], [2, 5, 0]), game(['b', 'c', 'a'], [1, 0, 3])], DEFAULT_FFA_POINTS);
    // a: 10 (1st) + 5 (3rd) + 5 kills = 20; b: 6 + 10 + 6 kills = 22; c: 5 + 6 + 0 = 11.
    expect(table.map((r) => [r.participant, r.points, r.placementPoints, r.kills])).toEqual([
      ['b', 22, 16, 6],
      ['a', 20, 15, 5],
      ['c', 11, 11, 0],
    ]);
    expect(table.find((r) => r.participant === 'a')!.placements).toEqual([1, 3]);
  });

  it('breaks ties by the best placement, then total kills, then the last game’s placement, then the seed', () => {
    const points = { placement: [3, 2, 1, 0], kill: 0 };
    // a 1st+4th = 3, b 2nd+3rd = 3: a's best placement wins.
    expect(
      lobbyTable(['b', 'a', 'c', 'd'], [game(['a', 'b', 'c', 'd']), game(['c', 'd', 'b', 'a'])], points)
        .map((r) => r.participant)
        .slice(0, 2),
    ).toEqual(['c', 'a']);
    // Equal points and best placement: kills decide.
    const flat = { placement: [1, 1], kill: 0 };
    expect(lobbyTable(['x', 'y'], [game(['x', 'y'], [0, 4]), game(['y', 'x'])], flat).map((r) => r.participant)).toEqual(['y', 'x']);
    expect(lobbyTable(['x', 'y'], [game(['x', 'y'], [4, 0]), game(['y', 'x'])], flat).map((r) => r.participant)).toEqual(['x', 'y']);
    // Equal points, best placement and kills: the last game's placement.
    expect(lobbyTable(['x', 'y'], [game(['x', 'y']), game(['y', 'x'])], { placement: [1, 1], kill: 0 }).map((r) => r.participant)).toEqual(['y', 'x']);
    // Nothing played: the seed.
    expect(lobbyTable(['x', 'y'], [], DEFAULT_FFA_POINTS).map((r) => r.participant)).toEqual(['x', 'y']);
  });

  it('refuses a game that misses someone, names a stranger or someone twice, or skips or repeats a placement', () => {
    const members = ['a', 'b', 'c'];
    expect(gameProblem(members, game(['a', 'b', 'c']))).toBeNull();
    expect(gameProblem(members, game(['a', 'b']))).toBe('notEveryone');
    expect(gameProblem(members, game(['a', 'b', 'z']))).toBe('stranger');
    expect(gameProblem(members, [...game(['a', 'b']), { participant: 'a', placement: 3, kills: 0 }])).toBe('twice');
    expect(
      gameProblem(
        members,
        game(['a', 'b', 'c']).map((l) => (l.participant === 'c' ? { ...l, placement: 2 } : l)),
      ),
    ).toBe('placements');
    expect(
      gameProblem(
        members,
        game(['a', 'b', 'c']).map((l) => (l.participant === 'c' ? { ...l, placement: 4 } : l)),
      ),
    ).toBe('placements');
  });

  it('lets a disqualified member be left out of a game, the places then running over those who played', () => {
    const members = ['a', 'b', 'c'];
    const out = new Set(['c']);
    expect(gameProblem(members, game(['a', 'b']), out)).toBeNull();
    expect(gameProblem(members, game(['a', 'b', 'c']), out)).toBeNull();
    expect(gameProblem(members, game(['a']), out)).toBe('notEveryone');
    expect(gameProblem(members, game(['a', 'b']).map((l) => (l.participant === 'b' ? { ...l, placement: 3 } : l)), out)).toBe('placements');
  });

  it('plans rounds that narrow the field to one final lobby, and refuses settings that would not', () => {
    expect(ffaRounds(64, { lobbySize: 16, advance: 4 })).toEqual([4, 1]);
    expect(ffaRounds(100, { lobbySize: 20, advance: 5 })).toEqual([5, 2, 1]);
    expect(ffaRounds(12, { lobbySize: 20 })).toEqual([1]);
    const base: FfaSettings = { lobbySize: 16, games: 3, points: DEFAULT_FFA_POINTS };
    expect(ffaProblem(64, { ...base, advance: 4 })).toBeNull();
    expect(ffaProblem(64, base)).toBe('advanceNeeded');
    expect(ffaProblem(64, { ...base, advance: 16 })).toBe('advanceTooLarge');
    expect(ffaProblem(12, base)).toBeNull();
    expect(ffaProblem(1, base)).toBe('tooFewForLobby');
  });

  it('sends each lobby’s top on, winners first, and places everyone: the final in order, the others in bands by round and rank', () => {
    const settings = { lobbySize: 4, advance: 2 };
    const round1 = ffaLobbies(ids(8), settings.lobbySize);
    const tables1 = round1.map((members) => lobbyTable(members, [game(members)], DEFAULT_FFA_POINTS));
    const next = advancers(tables1, settings.advance);
    expect(next).toEqual([round1[0]![0], round1[1]![0], round1[0]![1], round1[1]![1]]);
    const final = lobbyTable(next, [game([...next].reverse())], DEFAULT_FFA_POINTS);
    const places = ffaPlacements([tables1, [final]]);
    expect(places.slice(0, 4)).toEqual([...next].reverse().map((participant, i) => ({ participant, from: i + 1, to: i + 1 })));
    expect(places.slice(4).map((p) => `${p.from}-${p.to}`)).toEqual(['5-6', '5-6', '7-8', '7-8']);
  });

  it('plays any field of 2–200 in lobbies of 2–30 with a valid advance to one final, placing everyone once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 200 }),
        fc.integer({ min: 2, max: 30 }),
        fc.integer({ min: 1, max: 29 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (n, lobbySize, advance, games, seed) => {
          const settings: FfaSettings = { lobbySize, games, points: DEFAULT_FFA_POINTS, advance };
          fc.pre(ffaProblem(n, settings) === null);
          const coin = random(seed);
          let field = ids(n);
          const rounds: ReturnType<typeof lobbyTable>[][] = [];
          for (const count of ffaRounds(n, settings)) {
            const lobbies = ffaLobbies(field, lobbySize);
            expect(lobbies).toHaveLength(count);
            for (const lobby of lobbies) expect(lobby.length).toBeLessThanOrEqual(lobbySize);
            const tables = lobbies.map((members) =>
              lobbyTable(
                members,
                Array.from({ length: games }, () => randomGame(members, coin)),
                DEFAULT_FFA_POINTS,
              ),
            );
            rounds.push(tables);
            if (count > 1) field = advancers(tables, advance);
          }
          expect(rounds.at(-1)).toHaveLength(1);
          const places = ffaPlacements(rounds);
          expect(places.map((p) => p.participant).sort()).toEqual(ids(n).sort());
          // Bands are contiguous and cover 1…n.
          const sorted = [...places].sort((x, y) => x.from - y.from);
          expect(sorted[0]!.from).toBe(1);
          expect(Math.max(...places.map((p) => p.to))).toBe(n);
        },
      ),
      { numRuns: 200 },
    );
  });
});
