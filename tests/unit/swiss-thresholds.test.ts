import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftStage, isStageFinished, nextSwissRound } from '../../src/lib/domain/stage/build.ts';
import type { StageSettings } from '../../src/lib/domain/stage/format.ts';
import type { PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import {
  difficulties,
  matchBestOfs,
  midStageOrder,
  pairPool,
  recordPlacements,
  swissRecords,
  thresholdRound,
  thresholdStandings,
  VALVE_SIX_TEAM_PRIORITY,
  type SwissRecord,
} from '../../src/lib/domain/stage/swiss-thresholds.ts';
import { doubleBookings, ids, random, winFor } from './stage-play.ts';

const major: StageSettings = { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 };
const pairKey = (a: string, b: string) => [a, b].sort().join('–');

/** A record by seed number (1 the highest): `s1` … */
const record = (seed: number, wins: number, losses: number, opponents: number[] = []): SwissRecord => ({
  id: `s${seed}`,
  seed: seed - 1,
  wins,
  losses,
  opponents: opponents.map((o) => `s${o}`),
  hadBye: false,
});
const seedsOf = (pairs: readonly { a: string; b: string }[]) => pairs.map(({ a, b }) => [Number(a.slice(1)), Number(b.slice(1))]);

/** Plays a whole Swiss stage with thresholds: each round paired by the engine, results from `winner`. */
function playStage(n: number, settings: StageSettings, winner: (match: ResolvedMatch) => 'a' | 'b', disqualified: ReadonlySet<string> = new Set()) {
  const participants = ids(n);
  const draft = draftStage('swiss', settings, participants, 'order');
  let plan: PlannedMatch[] = [...draft.plan];
  const entered = new Map<number, EnteredResult>();
  const rounds: PlannedMatch[][] = [draft.plan];
  for (let guard = 0; guard < 20; guard++) {
    let matches = resolveStage(plan, draft.seeds, entered, disqualified);
    matches.forEach((m, i) => {
      if (m.status === 'ready') entered.set(i, { a: m.a, b: m.b, result: winFor(winner(m)) });
    });
    matches = resolveStage(plan, draft.seeds, entered, disqualified);
    const next = nextSwissRound(settings, draft.groups, matches, new Map(), disqualified);
    if (!next.ok) {
      expect(next.reason).toBe('allRoundsPlayed');
      return { groups: draft.groups, matches, rounds };
    }
    rounds.push(next.plan);
    plan = [...plan, ...next.plan];
  }
  throw new Error('the stage never ended');
}

/** Whether `people` can all be paired with nobody meeting someone in `met` again (brute force). */
function rematchFreePairingExists(people: readonly string[], met: ReadonlySet<string>): boolean {
  if (people.length === 0) return true;
  const [first, ...rest] = people as [string, ...string[]];
  return rest.some((partner, i) => !met.has(pairKey(first, partner)) && rematchFreePairingExists([...rest.slice(0, i), ...rest.slice(i + 1)], met));
}

describe('Swiss with thresholds: Valve’s published rules as tables of cases (issue 59)', () => {
  it('round 1 pairs 1 v 9, 2 v 10 … 8 v 16, as the rulebook’s «Initial Swiss Match-ups»', () => {
    const draft = draftStage('swiss', major, ids(16), 'order');
    const pairs = draft.plan.map((m) => [m.a, m.b].map((s) => (s.kind === 'fixed' ? Number(s.id!.slice(1)) : 0)));
    expect(pairs).toEqual([
      [1, 9],
      [2, 10],
      [3, 11],
      [4, 12],
      [5, 13],
      [6, 14],
      [7, 15],
      [8, 16],
    ]);
  });

  it('the difficulty score is the opponents’ wins minus their losses: the rulebook’s example ranks team A (2) above team B (0)', () => {
    // A met a 2–0 and a 1–1 team; B met two 1–1 teams; A and B are both 1–1, B the higher stage seed.
    const records = [
      record(1, 1, 1, [5, 6]), // B
      record(2, 1, 1, [3, 4]), // A
      record(3, 2, 0, [2, 9]),
      record(4, 1, 1, [2, 10]),
      record(5, 1, 1, [1, 11]),
      record(6, 1, 1, [1, 12]),
    ];
    const difficulty = difficulties(records);
    expect(difficulty.get('s2')).toBe(2);
    expect(difficulty.get('s1')).toBe(0);
    expect(midStageOrder([records[0]!, records[1]!], difficulty).map((r) => r.id)).toEqual(['s2', 's1']);
  });

  it('orders by record first — more wins, then fewer losses — then difficulty, then the stage’s seed', () => {
    const order = midStageOrder([record(1, 1, 2), record(2, 3, 2), record(3, 3, 0), record(4, 2, 2), record(5, 3, 2)]);
    expect(order.map((r) => r.id)).toEqual(['s3', 's2', 's5', 's4', 's1']);
  });

  it('rounds 2–3: the highest seed meets the lowest seed available that is not a rematch', () => {
    // Eight 1–0 teams in seed order; 1 already met 8, so it takes 7, and 2 then takes 8.
    const pool = [
      record(1, 1, 0, [8]),
      record(2, 1, 0),
      record(3, 1, 0),
      record(4, 1, 0),
      record(5, 1, 0),
      record(6, 1, 0),
      record(7, 1, 0),
      record(8, 1, 0, [1]),
    ];
    expect(seedsOf(pairPool(pool, 2))).toEqual([
      [1, 7],
      [2, 8],
      [3, 6],
      [4, 5],
    ]);
    // Without rematches to avoid, it is 1 v 8, 2 v 7 …
    expect(
      seedsOf(
        pairPool(
          pool.map((r) => ({ ...r, opponents: [] })),
          3,
        ),
      ),
    ).toEqual([
      [1, 8],
      [2, 7],
      [3, 6],
      [4, 5],
    ]);
  });

  it('claabs/swiss-buchholz-problem’s example: Valve’s greedy rule leaves 11 v 3, a rematch; ours steps back to 7 v 3, 11 v 13', () => {
    const played = ['1>9', '16>1', '5>13', '12>5', '7>15', '10>7', '11>3', '6>11', '3>14', '9>8', '13>4', '15>2'];
    const pool = poolOf(played);
    expect(pool.map((r) => Number(r.id.slice(1)))).toEqual([1, 5, 7, 11, 3, 9, 13, 15]);
    expect(valveGreedy(pool)).toBeNull();
    expect(seedsOf(pairPool(pool, 3))).toEqual([
      [1, 15],
      [5, 9],
      [7, 3],
      [11, 13],
    ]);
  });

  it('rounds 4–5 in a pool of six: the top-most row of Valve’s priority table without a rematch, for each of its 15 rows', () => {
    expect(VALVE_SIX_TEAM_PRIORITY).toHaveLength(15);
    const all = [1, 2, 3, 4, 5, 6];
    VALVE_SIX_TEAM_PRIORITY.forEach((row, index) => {
      // Everyone has met everyone but this row's opponents: only this row is free of rematches.
      const opponents = (seed: number) => all.filter((o) => o !== seed && !row.some(([x, y]) => (x === seed && y === o) || (y === seed && x === o)));
      const pool = all.map((seed) => record(seed, 2, 1, opponents(seed)));
      expect(seedsOf(pairPool(pool, 4)), `row ${index + 1}`).toEqual(row.map(([x, y]) => [x, y]));
    });
    // Nothing met: the first row, 1 v 6, 2 v 5, 3 v 4.
    expect(
      seedsOf(
        pairPool(
          all.map((seed) => record(seed, 2, 2)),
          5,
        ),
      ),
    ).toEqual([
      [1, 6],
      [2, 5],
      [3, 4],
    ]);
    // 1 met 6 and 2 met 4: rows 1, 2 (1 v 6) are out, row 3 (1 v 5, 2 v 6, 3 v 4) is played.
    const pool = [record(1, 1, 2, [6]), record(2, 1, 2, [4]), record(3, 1, 2), record(4, 1, 2, [2]), record(5, 1, 2), record(6, 1, 2, [1])];
    expect(seedsOf(pairPool(pool, 4))).toEqual([
      [1, 5],
      [2, 6],
      [3, 4],
    ]);
  });

  it('a team that reached a threshold is paired no more', () => {
    const records = [record(1, 3, 0), record(2, 0, 3), record(3, 2, 1), record(4, 2, 1)];
    const round = thresholdRound(records, 4, { winsToAdvance: 3, lossesToEliminate: 3 });
    expect(seedsOf(round.pairings)).toEqual([[3, 4]]);
    expect(round.bye).toBeNull();
  });
});

/** The 1–1 pool of a claabs scenario: its teams' records (others are 2–0 or 0–2) in mid-stage seed order. */
function poolOf(results: readonly string[]): SwissRecord[] {
  const games = results.map((r) => r.split('>').map(Number) as [number, number]);
  const count = new Map<number, number>();
  for (const [w, l] of games) for (const s of [w, l]) count.set(s, (count.get(s) ?? 0) + 1);
  const records = new Map<number, SwissRecord>();
  const of = (seed: number) => {
    if (!records.has(seed)) records.set(seed, record(seed, 0, 0));
    return records.get(seed)!;
  };
  for (const [w, l] of games) {
    of(w).wins += 1;
    of(l).losses += 1;
    of(w).opponents.push(`s${l}`);
    of(l).opponents.push(`s${w}`);
  }
  // A team outside the pool appears once: it won (or lost) both its games, the other unlisted.
  for (const [seed, r] of records) {
    if (count.get(seed) === 1) {
      r.wins *= 2;
      r.losses *= 2;
    }
  }
  const all = [...records.values()];
  return midStageOrder(
    all.filter((r) => r.wins === 1 && r.losses === 1),
    difficulties(all),
  );
}

/** Valve's rule taken literally (as claabs' `generateMidMatchupsOriginal`): null when it is left with only a rematch. */
function valveGreedy(pool: readonly SwissRecord[]): [number, number][] | null {
  const left = [...pool];
  const pairs: [number, number][] = [];
  while (left.length > 0) {
    const high = left.shift()!;
    const low = left.findLastIndex((r) => !high.opponents.includes(r.id));
    if (low === -1) return null;
    pairs.push([high.seed + 1, left.splice(low, 1)[0]!.seed + 1]);
  }
  return pairs;
}

/** Every pairing of a pool in Valve's order of preference (the highest seed's partner from the lowest up, then the next's …): the first without a rematch. */
function firstRematchFree(pool: readonly SwissRecord[]): [number, number][] | null {
  if (pool.length === 0) return [];
  const [high, ...rest] = pool as [SwissRecord, ...SwissRecord[]];
  for (let i = rest.length - 1; i >= 0; i--) {
    if (high.opponents.includes(rest[i]!.id)) continue;
    const others = firstRematchFree([...rest.slice(0, i), ...rest.slice(i + 1)]);
    if (others) return [[high.seed + 1, rest[i]!.seed + 1], ...others];
  }
  return null;
}

describe('the 400 round-three pools of claabs/swiss-buchholz-problem (tests/fixtures/claabs-swiss-buchholz)', () => {
  const scenarios: string[][] = JSON.parse(readFileSync(new URL('../fixtures/claabs-swiss-buchholz/error-scenarios.json', import.meta.url), 'utf8'));

  it('each is a pool of eight 1–1 teams where Valve’s rule taken literally forces a rematch', () => {
    expect(scenarios).toHaveLength(400);
    for (const scenario of scenarios) {
      const pool = poolOf(scenario);
      expect(pool).toHaveLength(8);
      expect(valveGreedy(pool)).toBeNull();
    }
  });

  it('ours pairs every one of them without a rematch, keeping Valve’s order of preference as far as it can', () => {
    let topKeepsLowest = 0;
    for (const scenario of scenarios) {
      const pool = poolOf(scenario);
      const ours = seedsOf(pairPool(pool, 3));
      expect(ours.flat().sort((x, y) => x - y)).toEqual(pool.map((r) => r.seed + 1).sort((x, y) => x - y));
      for (const [a, b] of ours) expect(pool.find((r) => r.seed + 1 === a)!.opponents).not.toContain(`s${b}`);
      expect(ours).toEqual(firstRematchFree(pool));
      if (ours[0]![1] === pool.at(-1)!.seed + 1) topKeepsLowest += 1;
    }
    // The top seed keeps the lowest seed in every one of them: only later pairs move.
    expect(topKeepsLowest).toBe(400);
  });
});

describe('Swiss stages with thresholds played to the end with random results', () => {
  const counts = [
    { n: 8, settings: { winsToAdvance: 2, lossesToEliminate: 2 }, matches: 10, advance: 4 },
    { n: 16, settings: major, matches: 33, advance: 8 },
    { n: 32, settings: major, matches: 66, advance: 16 },
  ];
  for (const { n, settings, matches, advance } of counts) {
    it(`${n} teams, ${settings.winsToAdvance} wins / ${settings.lossesToEliminate} losses: ${matches} matches, ${advance} advance, no rematch`, () => {
      fc.assert(
        fc.property(fc.integer(), (seed) => {
          const coin = random(seed);
          const played = playStage(n, settings, () => (coin() < 0.5 ? 'a' : 'b'));
          expect(played.matches).toHaveLength(matches);
          expect(doubleBookings(played.matches)).toEqual([]);
          const met = new Set<string>();
          for (const m of played.matches) {
            expect(met.has(pairKey(m.a!, m.b!)), `${m.a} v ${m.b} again`).toBe(false);
            met.add(pairKey(m.a!, m.b!));
          }
          const table = thresholdStandings(played.groups[0]!, played.matches, {
            winsToAdvance: settings.winsToAdvance!,
            lossesToEliminate: settings.lossesToEliminate!,
          });
          expect(table.filter((r) => r.outcome === 'advanced')).toHaveLength(advance);
          expect(table.filter((r) => r.outcome === 'eliminated')).toHaveLength(n - advance);
          // The advanced come first, by record: 3–0, then 3–1, then 3–2.
          expect(table.slice(0, advance).every((r) => r.outcome === 'advanced')).toBe(true);
          const records = table.map((r) => [r.wins, r.losses]);
          expect(records).toEqual([...records].sort((x, y) => y[0]! - x[0]! || x[1]! - y[1]!));
        }),
        { numRuns: 40 },
      );
    });
  }

  it('16 teams: the 13 matches that decide advancement or elimination are Bo3, the other 20 Bo1', () => {
    const coin = random(7);
    const played = playStage(16, major, () => (coin() < 0.5 ? 'a' : 'b'));
    const bestOfs = matchBestOfs(major, played.matches);
    expect(bestOfs.filter((b) => b === 3)).toHaveLength(13);
    expect(bestOfs.filter((b) => b === 1)).toHaveLength(20);
    // Round 3's 2–0 and 0–2 pools decide, its 1–1 pool does not.
    played.matches.forEach((m, i) => {
      if (m.plan.round <= 2) expect(bestOfs[i]).toBe(1);
      if (m.plan.round >= 4) expect(bestOfs[i]).toBe(3);
    });
  });

  it('any size from 2 to 40 and thresholds 1–4 ends with everyone advanced or eliminated, nobody booked twice, a rematch only where a pool had no other way', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer(), (n, wins, losses, seed) => {
        const coin = random(seed);
        const settings = { winsToAdvance: wins, lossesToEliminate: losses };
        const played = playStage(n, settings, () => (coin() < 0.5 ? 'a' : 'b'));
        expect(doubleBookings(played.matches)).toEqual([]);
        expect(isStageFinished('swiss', settings, played.groups, played.matches)).toBe(true);
        for (const r of swissRecords(played.groups[0]!, played.matches)) expect(r.wins >= wins || r.losses >= losses).toBe(true);
        // Each round whose pools were exactly its records (no one sent down to another record, no
        // bye): where two met again, their pool could not have avoided it.
        for (const [index, round] of played.rounds.entries()) {
          const before = played.matches.filter((m) => m.plan.round <= index);
          const records = swissRecords(played.groups[0]!, before);
          const met = new Set(before.filter((m) => !m.bye).map((m) => pairKey(m.a!, m.b!)));
          const recordOf = (source: PlannedMatch['a']) => records.find((r) => source.kind === 'fixed' && r.id === source.id);
          const pure = round.every((m) => {
            const [x, y] = [recordOf(m.a), recordOf(m.b)];
            return x && y && x.wins === y.wins && x.losses === y.losses;
          });
          if (!pure) continue;
          for (const m of round) {
            if (m.a.kind !== 'fixed' || m.b.kind !== 'fixed' || !m.a.id || !m.b.id || !met.has(pairKey(m.a.id, m.b.id))) continue;
            const [x, y] = [records.find((r) => r.id === (m.a as { id: string }).id)!, records.find((r) => r.id === (m.b as { id: string }).id)!];
            if (x.wins !== y.wins || x.losses !== y.losses) continue;
            const pool = round
              .flatMap((p) => [p.a, p.b])
              .map((s) => (s.kind === 'fixed' ? s.id : null))
              .filter((id): id is string => id !== null && records.some((r) => r.id === id && r.wins === x.wins && r.losses === x.losses));
            if (pool.length <= 10) expect(rematchFreePairingExists(pool, met)).toBe(false);
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the disqualified are paired no more, and the stage ends without them', () => {
    const coin = random(3);
    const played = playStage(16, major, () => (coin() < 0.5 ? 'a' : 'b'), new Set(['p1']));
    const p1Matches = played.matches.filter((m) => m.a === 'p1' || m.b === 'p1');
    // Its first-round match is forfeited; it is never paired again.
    expect(p1Matches).toHaveLength(1);
    expect(p1Matches[0]!.disqualification).toBe(true);
    expect(isStageFinished('swiss', major, played.groups, played.matches, new Set(['p1']))).toBe(true);
  });

  it('refuses the next round until the current one is over, and once everyone has reached a threshold', () => {
    const draft = draftStage('swiss', major, ids(4), 'order');
    const open = resolveStage(draft.plan, draft.seeds, new Map());
    expect(nextSwissRound(major, draft.groups, open, new Map())).toEqual({ ok: false, reason: 'roundNotComplete' });
    const coin = random(1);
    const played = playStage(4, major, () => (coin() < 0.5 ? 'a' : 'b'));
    expect(nextSwissRound(major, played.groups, played.matches, new Map())).toEqual({ ok: false, reason: 'allRoundsPlayed' });
  });
});

describe('places of a Swiss stage with thresholds', () => {
  it('share a band by record: 3–0s, then 3–1s, then 3–2s, 2–3s, 1–3s, 0–3s', () => {
    const coin = random(11);
    const played = playStage(16, major, () => (coin() < 0.5 ? 'a' : 'b'));
    const table = thresholdStandings(played.groups[0]!, played.matches, { winsToAdvance: 3, lossesToEliminate: 3 });
    const places = recordPlacements([table]);
    const recordOf = new Map(table.map((r) => [r.participant, `${r.wins}-${r.losses}`]));
    // Binomially: 2 at 3–0, 3 at 3–1, 3 at 3–2, 3 at 2–3, 3 at 1–3, 2 at 0–3.
    expect(places.map((p) => [recordOf.get(p.participant), `${p.from}-${p.to}`])).toEqual([
      ...Array(2).fill(['3-0', '1-2']),
      ...Array(3).fill(['3-1', '3-5']),
      ...Array(3).fill(['3-2', '6-8']),
      ...Array(3).fill(['2-3', '9-11']),
      ...Array(3).fill(['1-3', '12-14']),
      ...Array(2).fill(['0-3', '15-16']),
    ]);
  });
});
