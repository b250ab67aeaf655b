import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crossSeed, draftStage, groupCount, snakeGroups } from '../../src/lib/domain/stage/build.ts';
import { DEFAULT_TIE_BREAKERS, STAGE_SEEDINGS } from '../../src/lib/domain/stage/format.ts';
import { groupStandings } from '../../src/lib/domain/stage/standings.ts';
import { doubleBookings, ids, playOut, random, winFor } from './stage-play.ts';

const pairKey = (a: string, b: string) => [a, b].sort().join('–');

describe('round-robin stages played with random results (issue 21)', () => {
  it('complete, book nobody twice in a round and meet everyone in the group once (twice in a double round), for 2 to 64 in 1 to 4 groups', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 64 }),
        fc.integer({ min: 1, max: 4 }),
        fc.boolean(),
        fc.constantFrom(...STAGE_SEEDINGS),
        fc.integer(),
        (n, groups, doubleRound, seeding, seed) => {
          const coin = random(seed);
          const participants = ids(n);
          const draft = draftStage('round_robin', { groups, doubleRound }, participants, seeding);
          expect(draft.groups).toHaveLength(groupCount(n, { groups }));
          expect(draft.groups.length).toBe(Math.min(groups, Math.floor(n / 2)));
          expect(draft.groups.flat().sort()).toEqual([...participants].sort());
          for (const members of draft.groups) expect(members.length).toBeGreaterThanOrEqual(2);

          // Random results, draws included (allowed in round robin).
          const { matches } = playOut(draft.plan, draft.seeds, () => winFor(([null, 'a', 'b'] as const)[Math.floor(coin() * 3)]!));
          expect(matches.filter((m) => m.status !== 'completed')).toEqual([]);
          expect(matches.some((m) => m.bye)).toBe(false);
          expect(doubleBookings(matches)).toEqual([]);

          const times = doubleRound ? 2 : 1;
          draft.groups.forEach((members, g) => {
            const own = matches.filter((m) => m.plan.group === g + 1);
            const inGroup = new Set(members);
            const met = new Map<string, number>();
            for (const m of own) {
              if (!inGroup.has(m.a!) || !inGroup.has(m.b!)) expect.fail(`${m.a} v ${m.b} outside group ${g + 1}`);
              met.set(pairKey(m.a!, m.b!), (met.get(pairKey(m.a!, m.b!)) ?? 0) + 1);
            }
            expect(met.size).toBe((members.length * (members.length - 1)) / 2);
            expect([...met.values()].filter((count) => count !== times)).toEqual([]);
            // Every table has one row per member, ranks 1..size, everyone having played everyone.
            const rows = groupStandings(members, own, { tieBreakers: DEFAULT_TIE_BREAKERS.round_robin });
            expect(rows.map((r) => r.rank)).toEqual(members.map((_, i) => i + 1));
            expect(rows.filter((row) => row.played !== times * (members.length - 1))).toEqual([]);
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe('groups then playoffs: crossSeed with standard pairing (issue 21)', () => {
  it('never pairs a group winner with its own group’s runner-up in the first playoff round, for 2 to 8 groups (top 2)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 2, max: 6 }), { minLength: 2, maxLength: 8 }), (sizes) => {
        const tables = sizes.map((size, g) => Array.from({ length: size }, (_, r) => `g${g + 1}r${r + 1}`));
        const seeds = crossSeed(tables, 2);
        expect(seeds).toHaveLength(2 * tables.length);
        // Winners first, then runners-up, and nobody twice.
        expect(new Set(seeds).size).toBe(seeds.length);
        expect(seeds.slice(0, tables.length).every((id) => id.endsWith('r1'))).toBe(true);
        expect(seeds.slice(tables.length).every((id) => id.endsWith('r2'))).toBe(true);

        const { seeds: slots } = draftStage('single_elimination', {}, seeds, 'standard');
        for (let i = 0; i < slots.length; i += 2) {
          const [a, b] = [slots[i], slots[i + 1]];
          if (!a || !b) continue;
          expect(a.split('r')[0], `${a} v ${b}`).not.toBe(b.split('r')[0]);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('gives every group a snake share of the seeds: A B C C B A …', () => {
    expect(snakeGroups(ids(7), 3)).toEqual([
      ['p1', 'p6', 'p7'],
      ['p2', 'p5'],
      ['p3', 'p4'],
    ]);
  });
});
