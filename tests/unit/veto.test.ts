import { describe, expect, it } from 'vitest';
import {
  serverStep,
  sequenceProblem,
  standardSequence,
  VALVE_SEQUENCES,
  vetoRefusal,
  vetoState,
  type VetoMove,
  type VetoStep,
} from '../../src/lib/domain/veto.ts';
import type { Slot } from '../../src/lib/domain/stage/format.ts';

/*
 * The map veto's rules (issue 58). The sequences are Valve's CS Major Supplemental Rulebook's
 * «Map Pick-Ban» (ValveSoftware/counter-strike_rules_and_regs, major-supplemental-rulebook.md);
 * other pool sizes follow get5's default flow (splewis/get5, documentation/docs/veto.md).
 */

const POOL = ['ancient', 'anubis', 'dust2', 'inferno', 'mirage', 'nuke', 'overpass'];
const words = (sequence: readonly VetoStep[]) => sequence.map((s) => (s.action === 'decider' ? 'decider' : `${s.action} ${s.by}`)).join(', ');

/** Plays `moves` (each by the slot whose turn it is) from a starter's role choice, the server taking the decider; the log. */
function play(
  pool: readonly string[],
  sequence: readonly VetoStep[],
  starter: Slot,
  role: 'A' | 'B',
  moves: ({ map: string } | { side: number })[],
): VetoMove[] {
  const log: VetoMove[] = [{ action: 'roles', slot: starter, role }];
  const settle = () => {
    const auto = serverStep(sequence, vetoState(pool, sequence, starter, log), log);
    if (auto) log.push(auto);
  };
  for (const move of moves) {
    settle();
    const state = vetoState(pool, sequence, starter, log);
    const next = state.next!;
    const body = { action: next.action, ...move };
    expect(vetoRefusal(pool, state, next.slot, body), JSON.stringify(body)).toBeNull();
    log.push(
      next.action === 'side'
        ? { action: 'side', slot: next.slot, side: (move as { side: number }).side }
        : { action: next.action as 'ban' | 'pick', slot: next.slot, map: (move as { map: string }).map },
    );
  }
  settle();
  return log;
}

describe('built-in sequences', () => {
  it("are Valve's for a pool of seven: Bo1 A two, B three, A one, B the side; Bo3's second ban round B then A", () => {
    expect(words(standardSequence(7, 1)!)).toBe('ban A, ban A, ban B, ban B, ban B, ban A, decider, side B');
    expect(words(standardSequence(7, 3)!)).toBe('ban A, ban B, pick A, side B, pick B, side A, ban B, ban A, decider, side B');
    for (const sequence of Object.values(VALVE_SEQUENCES)) expect(sequenceProblem(sequence, 7, sequence === VALVE_SEQUENCES[1] ? 1 : 3)).toBeNull();
  });

  it("follow get5's flow elsewhere: Bo5 on seven bans two and picks four; any pool and odd best-of checks out", () => {
    expect(words(standardSequence(7, 5)!)).toBe('ban A, ban B, pick A, side B, pick B, side A, pick A, side B, pick B, side A, decider, side B');
    expect(words(standardSequence(5, 1)!)).toBe('ban A, ban B, ban A, ban B, decider, side B');
    for (const pool of [3, 5, 6, 7, 8, 9, 15])
      for (const bestOf of [1, 3, 5])
        if (bestOf <= pool) expect(sequenceProblem(standardSequence(pool, bestOf)!, pool, bestOf), `${pool}/${bestOf}`).toBeNull();
    expect(standardSequence(2, 3)).toBeNull();
  });
});

describe('custom sequences', () => {
  const custom = (text: string): VetoStep[] =>
    text.split(', ').map((s) => (s === 'decider' ? { action: 'decider' } : { action: s.split(' ')[0] as 'ban', by: s.split(' ')[1] as 'A' }));

  it('must use every map once, play the best-of, choose a side only after a map, and take the decider as the last map', () => {
    expect(sequenceProblem([], 7, 1)).toBe('empty');
    expect(sequenceProblem(custom('ban A, ban B, ban A, decider'), 7, 1)).toBe('deciderNotOne');
    expect(sequenceProblem(custom('ban A, ban B, ban A, ban B, ban A, ban B'), 7, 1)).toBe('mapsMismatch');
    expect(sequenceProblem(custom('ban A, ban B, ban A, ban B, ban A, ban B, ban A, ban B'), 7, 1)).toBe('mapsMismatch');
    expect(sequenceProblem(custom('side A, ban A, ban B, ban A, ban B, ban A, ban B, decider'), 7, 1)).toBe('sideWithoutMap');
    expect(sequenceProblem(custom('ban A, ban B, ban A, ban B, pick A, pick B, decider'), 7, 1)).toBe('playedMismatch');
    expect(sequenceProblem(custom('ban A, ban B, ban A, ban B, pick A, ban B, pick A'), 7, 2)).toBeNull();
    expect(
      sequenceProblem(
        Array.from({ length: 41 }, () => ({ action: 'side', by: 'A' }) as VetoStep),
        7,
        1,
      ),
    ).toBe('tooLong');
    // FACEIT's EPT Bo3 order, as an organiser would write it: fine.
    expect(sequenceProblem(custom('ban A, ban B, pick A, side B, pick B, side A, ban A, ban B, decider, side B'), 7, 3)).toBeNull();
  });
});

describe('playing a veto', () => {
  const bo3 = VALVE_SEQUENCES[3];

  it('opens with the starter choosing A or B; then each step is taken only by its team, and the decider by the server', () => {
    const start = vetoState(POOL, bo3, 'b', []);
    expect(start.next).toEqual({ action: 'roles', slot: 'b' });
    expect(vetoRefusal(POOL, start, 'a', { action: 'roles', role: 'A' })).toBe('notYourTurn');
    expect(vetoRefusal(POOL, start, 'b', { action: 'roles', role: 'C' })).toBe('badRole');
    expect(vetoRefusal(POOL, start, 'b', { action: 'ban', map: 'nuke' })).toBe('wrongAction');

    // The higher seed (slot b) chooses to be Team B: slot a is A and bans first.
    const log = play(POOL, bo3, 'b', 'B', [
      { map: 'nuke' },
      { map: 'ancient' },
      { map: 'mirage' },
      { side: 1 },
      { map: 'inferno' },
      { side: 0 },
      { map: 'anubis' },
      { map: 'overpass' },
    ]);
    const state = vetoState(POOL, bo3, 'b', log);
    expect(state.roleA).toBe('a');
    expect(state.banned).toEqual([
      { map: 'nuke', slot: 'a' },
      { map: 'ancient', slot: 'b' },
      // Valve's second ban round: B first, then A.
      { map: 'anubis', slot: 'b' },
      { map: 'overpass', slot: 'a' },
    ]);
    expect(state.maps).toEqual([
      { map: 'mirage', pickedBy: 'a', side: { slot: 'b', side: 1 } },
      { map: 'inferno', pickedBy: 'b', side: { slot: 'a', side: 0 } },
      { map: 'dust2', pickedBy: null, side: null },
    ]);
    // B chooses the side on the decider; then it is over.
    expect(state.next).toEqual({ action: 'side', slot: 'b' });
    const done = vetoState(POOL, bo3, 'b', [...log, { action: 'side', slot: 'b', side: 0 }]);
    expect(done.done).toBe(true);
    expect(done.next).toBeNull();
    expect(vetoRefusal(POOL, done, 'b', { action: 'side', side: 1 })).toBe('done');
  });

  it('refuses a ban out of turn, a map already banned or picked, a map not in the pool and a side not 0 or 1', () => {
    const log = play(POOL, bo3, 'a', 'A', [{ map: 'nuke' }, { map: 'ancient' }, { map: 'mirage' }]);
    const state = vetoState(POOL, bo3, 'a', log);
    expect(state.next).toEqual({ action: 'side', slot: 'b' });
    expect(vetoRefusal(POOL, state, 'a', { action: 'side', side: 0 })).toBe('notYourTurn');
    expect(vetoRefusal(POOL, state, 'b', { action: 'side', side: 2 })).toBe('badSide');
    const after = vetoState(POOL, bo3, 'a', [...log, { action: 'side', slot: 'b', side: 0 }]);
    expect(after.next).toEqual({ action: 'pick', slot: 'b' });
    for (const [map, refusal] of [
      ['nuke', 'mapTaken'],
      ['mirage', 'mapTaken'],
      ['de_cache', 'mapNotInPool'],
      ['', 'mapNotInPool'],
      [undefined, 'mapNotInPool'],
    ] as const) {
      expect(vetoRefusal(POOL, after, 'b', { action: 'pick', map }), String(map)).toBe(refusal);
    }
    expect(vetoRefusal(POOL, after, 'a', { action: 'pick', map: 'dust2' })).toBe('notYourTurn');
  });

  it('in Bo1 the last map left is played, B choosing the side', () => {
    const log = play(
      POOL,
      VALVE_SEQUENCES[1],
      'a',
      'A',
      ['ancient', 'anubis', 'dust2', 'inferno', 'mirage', 'nuke'].map((map) => ({ map })),
    );
    const state = vetoState(POOL, VALVE_SEQUENCES[1], 'a', log);
    expect(state.banned.map((b) => b.slot)).toEqual(['a', 'a', 'b', 'b', 'b', 'a']);
    expect(state.maps).toEqual([{ map: 'overpass', pickedBy: null, side: null }]);
    expect(state.next).toEqual({ action: 'side', slot: 'b' });
  });

  it('keeps a logged map the pool no longer holds without taking another off the pool', () => {
    const log: VetoMove[] = [
      { action: 'roles', slot: 'a', role: 'A' },
      { action: 'ban', slot: 'a', map: 'vertigo' },
    ];
    const state = vetoState(POOL, VALVE_SEQUENCES[1], 'a', log);
    expect(state.remaining).toEqual(POOL);
    expect(state.banned).toEqual([{ map: 'vertigo', slot: 'a' }]);
  });
});
