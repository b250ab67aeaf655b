import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { draftStage, isStageFinished, nextSwissRound, swissRounds } from '../../src/lib/domain/stage/build.ts';
import { DEFAULT_POINTS, type StageSettings } from '../../src/lib/domain/stage/format.ts';
import type { PlannedMatch } from '../../src/lib/domain/stage/plan.ts';
import { resolveStage, type EnteredResult, type ResolvedMatch } from '../../src/lib/domain/stage/resolve.ts';
import { doubleBookings, ids, playOut, random, winFor } from './stage-play.ts';

const pairKey = (a: string, b: string) => [a, b].sort().join('–');

/** Whether `people` can all be paired with nobody meeting someone in `met` again (brute force). */
function rematchFreePairingExists(people: readonly string[], met: ReadonlySet<string>): boolean {
  if (people.length === 0) return true;
  const [first, ...rest] = people as [string, ...string[]];
  return rest.some((partner, i) => !met.has(pairKey(first, partner)) && rematchFreePairingExists([...rest.slice(0, i), ...rest.slice(i + 1)], met));
}

interface History {
  points: Map<string, number>;
  met: Set<string>;
  byes: Map<string, number>;
}

/** Points, meetings and byes of one group before a round, counted here from the matches (win 3, draw 1, bye a win). */
function history(members: readonly string[], matches: readonly ResolvedMatch[]): History {
  const points = new Map(members.map((id) => [id, 0]));
  const byes = new Map(members.map((id) => [id, 0]));
  const met = new Set<string>();
  for (const m of matches) {
    if (m.bye) {
      byes.set(m.winner!, byes.get(m.winner!)! + 1);
      points.set(m.winner!, points.get(m.winner!)! + DEFAULT_POINTS.win);
      continue;
    }
    met.add(pairKey(m.a!, m.b!));
    for (const id of [m.a!, m.b!]) points.set(id, points.get(id)! + (m.winner === null ? DEFAULT_POINTS.draw : m.winner === id ? DEFAULT_POINTS.win : 0));
  }
  return { points, met, byes };
}

/** Checks one group's new round against the rules, given what was played before it. */
function expectFairRound(
  members: readonly string[],
  before: History,
  round: readonly PlannedMatch[],
  roundNumber: number,
  ratings: ReadonlyMap<string, number>,
) {
  const sides = round.map((m) => [m.a, m.b].map((s) => (s.kind === 'fixed' ? s.id : 'not fixed')) as [string | null, string | null]);
  const playing = sides.flat().filter((id): id is string => id !== null);
  expect(playing.sort()).toEqual([...members].sort());
  const byeMatches = sides.filter(([a, b]) => a === null || b === null);
  expect(byeMatches).toHaveLength(members.length % 2);

  const bye = byeMatches[0]?.find((id) => id !== null) ?? null;
  const others = members.filter((id) => id !== bye);
  if (bye !== null) {
    const without = members.filter((id) => before.byes.get(id) === 0);
    if (without.length > 0) {
      // Nobody gets a second bye while someone has had none; of those, the lowest-ranked gets it:
      // points, then rating (the unrated last), then seed — the largest of these keys.
      const key = (id: string) => [-before.points.get(id)!, -(ratings.get(id) ?? -Infinity), members.indexOf(id)] as const;
      const lower = (x: string, y: string) => key(x)[0] - key(y)[0] || key(x)[1] - key(y)[1] || key(x)[2] - key(y)[2];
      expect(bye).toBe(without.reduce((low, id) => (lower(id, low) > 0 ? id : low)));
    }
  }

  const rematches = sides.filter(([a, b]) => a !== null && b !== null && before.met.has(pairKey(a, b)));
  if (members.length <= 8) {
    // A rematch only when no pairing of this round without one existed.
    if (rematches.length > 0) expect(rematchFreePairingExists(others, before.met), `round ${roundNumber} of ${members.length}`).toBe(false);
  } else if (roundNumber <= Math.ceil(Math.log2(members.length))) {
    expect(rematches, `round ${roundNumber} of ${members.length}`).toEqual([]);
  }
}

describe('Swiss stages played with random results (issue 21)', () => {
  it('pair everyone each round, avoid rematches while possible, share byes fairly and finish, for 2 to 64 in 1 to 4 groups', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 64 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer(), (n, groups, extra, seed) => {
        const coin = random(seed);
        const participants = ids(n);
        const ratings = new Map(participants.filter(() => coin() < 0.6).map((id) => [id, Math.floor(coin() * 5) * 100]));
        // Small fields may play more rounds than ⌈log2 n⌉, so forced rematches happen too.
        const base = draftStage('swiss', { groups }, participants, 'order', ratings);
        const settings: StageSettings = { groups, rounds: swissRounds({}, base.groups) + (n <= 16 ? extra : 0) };
        const { groups: members, seeds } = draftStage('swiss', settings, participants, 'order', ratings);
        let plan = base.plan;
        const entered = new Map<number, EnteredResult>();

        for (let round = 1; ; round++) {
          // Round 1 (draftStage) and each next round are checked against what came before.
          const earlier = resolveStage(plan, seeds, entered).filter((m) => m.plan.round < round);
          members.forEach((group, g) => {
            const own = plan.filter((m) => m.group === g + 1 && m.round === round);
            expectFairRound(
              group,
              history(
                group,
                earlier.filter((m) => m.plan.group === g + 1),
              ),
              own,
              round,
              ratings,
            );
          });
          // Play this round's matches at random (draws allowed); an unfinished round cannot be followed.
          const open = resolveStage(plan, seeds, entered);
          if (open.some((m) => m.status !== 'completed'))
            expect(nextSwissRound(settings, members, open, ratings)).toEqual({ ok: false, reason: 'roundNotComplete' });
          const { matches } = playOut(plan, seeds, () => winFor(([null, 'a', 'b'] as const)[Math.floor(coin() * 3)]!), entered);
          expect(matches.every((m) => m.status === 'completed')).toBe(true);
          expect(doubleBookings(matches)).toEqual([]);

          const next = nextSwissRound(settings, members, matches, ratings);
          if (!next.ok) {
            expect(next.reason).toBe('allRoundsPlayed');
            expect(round).toBe(settings.rounds);
            break;
          }
          expect(next.round).toBe(round + 1);
          plan = [...plan, ...next.plan];
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('a Swiss stage with a disqualified player', () => {
  it('plays the rounds its drawn size calls for, and is finished exactly when no round follows', () => {
    // Nine players: ⌈log2 9⌉ = 4 rounds. One disqualified after round 1 leaves eight, whose own
    // count would be 3: the stage still plays its 4, paired without the disqualified.
    const settings: StageSettings = {};
    const draft = draftStage('swiss', settings, ids(9), 'order');
    expect(swissRounds(settings, draft.groups)).toBe(4);
    let plan: PlannedMatch[] = [...draft.plan];
    const entered = new Map<number, EnteredResult>();
    const out = new Set<string>();
    const play = () =>
      resolveStage(plan, [], entered, out).forEach((m, i) => {
        if (m.status === 'ready') entered.set(i, { a: m.a, b: m.b, result: winFor('a') });
      });
    play();
    out.add('p9');
    for (let round = 2; round <= 4; round++) {
      const before = resolveStage(plan, [], entered, out);
      expect(isStageFinished('swiss', settings, draft.groups, before, out)).toBe(false);
      const next = nextSwissRound(settings, draft.groups, before, new Map(), out);
      expect(next).toMatchObject({ ok: true, round });
      if (!next.ok) return;
      const paired = next.plan.flatMap((m) => [m.a, m.b]).map((s) => (s.kind === 'fixed' ? s.id : null));
      expect(paired).not.toContain('p9');
      plan = [...plan, ...next.plan];
      play();
    }
    const last = resolveStage(plan, [], entered, out);
    expect(nextSwissRound(settings, draft.groups, last, new Map(), out)).toEqual({ ok: false, reason: 'allRoundsPlayed' });
    expect(isStageFinished('swiss', settings, draft.groups, last, out)).toBe(true);
  });
});
