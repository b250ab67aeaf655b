import { describe, expect, it } from 'vitest';
import { draftStage } from '../../src/lib/domain/stage/build.ts';
import { tournamentPlacements } from '../../src/lib/domain/stage/placements.ts';
import { resolveStage, type EnteredResult } from '../../src/lib/domain/stage/resolve.ts';
import { eliminationPlacements, type Placement } from '../../src/lib/domain/stage/standings.ts';

const bands = (placements: readonly Placement[]) =>
  Object.fromEntries(placements.map((p) => [p.participant, p.from === p.to ? `${p.from}` : `${p.from}–${p.to}`]));

describe('double elimination with a reset', () => {
  it('waits for the reset when the first grand final goes to the losers’ champion', () => {
    const ids = ['p1', 'p2', 'p3', 'p4'];
    const draft = draftStage('double_elimination', { grandFinal: 'double' }, ids, 'standard');
    const entered = new Map<number, EnteredResult>();
    const resolve = () => resolveStage(draft.plan, draft.seeds, entered);
    for (;;) {
      const state = resolve();
      const index = state.findIndex((m) => m.status === 'ready');
      if (index === -1) break;
      const m = state[index]!;
      if (m.plan.side === 'grand_final' && m.plan.round === 2) break;
      // Lower seed wins, but the losers' champion takes the first grand final.
      const winner = m.plan.side === 'grand_final' ? 'b' : Number(m.a!.slice(1)) < Number(m.b!.slice(1)) ? 'a' : 'b';
      entered.set(index, { a: m.a, b: m.b, result: { scoreA: winner === 'a' ? 1 : 0, scoreB: winner === 'a' ? 0 : 1, games: [], forfeit: null, winner } });
    }
    const state = resolve();
    expect(state.find((m) => m.plan.side === 'grand_final' && m.plan.round === 2)!.status).toBe('ready');
    const placed = bands(eliminationPlacements(ids, state));
    // The two finalists are still playing: neither is placed; 3rd and 4th are known.
    expect(placed.p1).toBeUndefined();
    expect(placed.p2).toBeUndefined();
    expect(placed).toMatchObject({ p3: '3', p4: '4' });
  });
});

describe('a tournament’s places over its stages', () => {
  const group = ['g1', 'g2', 'g3', 'g4', 'g5', 'g6'];
  // The group stage's table: g1 first … g6 last, one band each.
  const groupPlaces: Placement[] = group.map((id, i) => ({ participant: id, from: i + 1, to: i + 1 }));

  it('leaves room for everyone still in the playoff: the group stage’s others come after all of them', () => {
    const playoff = { participants: ['g1', 'g2', 'g3', 'g4'], placements: [] as Placement[] };
    expect(bands(tournamentPlacements([{ participants: group, placements: groupPlaces }, playoff]))).toEqual({ g5: '5', g6: '6' });
  });

  it('places the semifinal losers 3–4 while the final is to come, and nobody else above them', () => {
    const playoff = {
      participants: ['g1', 'g2', 'g3', 'g4'],
      placements: [
        { participant: 'g3', from: 3, to: 4 },
        { participant: 'g4', from: 3, to: 4 },
      ],
    };
    expect(bands(tournamentPlacements([{ participants: group, placements: groupPlaces }, playoff]))).toEqual({ g3: '3–4', g4: '3–4', g5: '5', g6: '6' });
  });
});
