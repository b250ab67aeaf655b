/**
 * The map veto of a match (issue 58): a sequence of steps the two sides take in turn, and the state
 * a log of their moves leads to. Pure: the veto service stores the log and asks these rules whether
 * a move may be made; the match page draws the state they give.
 *
 * Terms follow Valve's CS Major Supplemental Rulebook («Map Pick-Ban»): the side that starts (the
 * higher seed, or the winner of a coin toss the server makes) chooses to be Team A or Team B; the
 * steps then name A or B. A pick is followed by the other team choosing its starting side on that
 * map; the decider is the one map left once the bans and picks are done.
 */
import type { Slot } from './stage/format.ts';
import { VETO_ACTIONS, type VetoRole, type VetoStep } from './veto-steps.ts';

export { VETO_ACTIONS, VETO_ROLES, type VetoAction, type VetoRole, type VetoStep } from './veto-steps.ts';

/** What a move in the log may be: the role choice, then the actions. */
export const VETO_MOVES = ['roles', ...VETO_ACTIONS] as const;
/** Who chooses Team A or B: the higher seed (Valve's rule), or the winner of the server's coin toss. */
export const VETO_STARTERS = ['higherSeed', 'coinToss'] as const;
export type VetoStarter = (typeof VETO_STARTERS)[number];

/** The most maps a pool may hold, and the most steps a custom sequence may have. */
export const MAX_POOL_MAPS = 15;
export const MAX_VETO_STEPS = 40;

const step = (text: string): VetoStep => {
  if (text === 'decider') return { action: 'decider' };
  const [action, by] = text.split(' ') as ['ban' | 'pick' | 'side', VetoRole];
  return { action, by };
};
const steps = (text: string): VetoStep[] => text.split(', ').map(step);

/**
 * Valve's Major pick-ban for a pool of seven (the rulebook's «Best of 1» and «Best of 3»): in Bo1
 * A removes two, B three, A one, B chooses the side; in Bo3 the second ban round is B's then A's.
 */
export const VALVE_SEQUENCES: Readonly<Record<1 | 3, VetoStep[]>> = {
  1: steps('ban A, ban A, ban B, ban B, ban B, ban A, decider, side B'),
  3: steps('ban A, ban B, pick A, side B, pick B, side A, ban B, ban A, decider, side B'),
};

/**
 * The sequence a best-of plays on a pool when the organiser wrote none: Valve's for a pool of seven
 * in Bo1 and Bo3; otherwise bans in turn (A first) until `bestOf` maps are left, picks in turn for
 * all but one of them, each followed by the other team's side, and the decider, whose side B
 * chooses (as in Valve's). Null when the pool is too small for the best-of.
 */
export function standardSequence(poolSize: number, bestOf: number): VetoStep[] | null {
  if (bestOf < 1 || poolSize < bestOf) return null;
  if (poolSize === 7 && (bestOf === 1 || bestOf === 3)) return VALVE_SEQUENCES[bestOf];
  const turn = (i: number): VetoRole => (i % 2 === 0 ? 'A' : 'B');
  const out: VetoStep[] = [];
  for (let i = 0; i < poolSize - bestOf; i++) out.push({ action: 'ban', by: turn(i) });
  for (let i = 0; i < bestOf - 1; i++) out.push({ action: 'pick', by: turn(i) }, { action: 'side', by: turn(i + 1) });
  out.push({ action: 'decider' }, { action: 'side', by: 'B' });
  return out;
}

export type SequenceProblem = 'empty' | 'tooLong' | 'mapsMismatch' | 'playedMismatch' | 'sideWithoutMap' | 'deciderNotLast' | 'deciderNotOne';

/**
 * Why a custom sequence cannot be played on a pool in a best-of, or null when it can: it must use
 * every map exactly once (bans, picks and the decider), play `bestOf` maps, choose sides only
 * after a map was chosen, and take the decider only as the one map left.
 */
export function sequenceProblem(sequence: readonly VetoStep[], poolSize: number, bestOf: number): SequenceProblem | null {
  if (sequence.length === 0) return 'empty';
  if (sequence.length > MAX_VETO_STEPS) return 'tooLong';
  let left = poolSize;
  let played = 0;
  let chosen = false;
  for (const s of sequence) {
    if (s.action === 'side') {
      if (!chosen) return 'sideWithoutMap';
      continue;
    }
    if (left === 0) return 'mapsMismatch';
    if (s.action === 'decider' && left !== 1) return 'deciderNotOne';
    left--;
    if (s.action !== 'ban') played++;
    chosen = s.action !== 'ban';
  }
  if (left !== 0) return 'mapsMismatch';
  if (played !== bestOf) return 'playedMismatch';
  const decider = sequence.findIndex((s) => s.action === 'decider');
  if (decider !== -1 && sequence.slice(decider + 1).some((s) => s.action !== 'side')) return 'deciderNotLast';
  return null;
}

/** A move in the log: the role choice that opens the veto, then the steps in order. */
export type VetoMove =
  | { action: 'roles'; slot: Slot; role: VetoRole }
  | { action: 'ban' | 'pick' | 'decider'; slot: Slot | null; map: string }
  | { action: 'side'; slot: Slot; side: number };

/** A map to be played, in order, and who starts on which side (`side` indexes the game's two sides). */
export interface PlayedMap {
  map: string;
  pickedBy: Slot | null;
  /** The side that chose, and the side it chose (0 or 1); null until chosen. */
  side: { slot: Slot; side: number } | null;
}

export interface VetoState {
  /** Which slot is Team A, once the starter chose; null before. */
  roleA: Slot | null;
  /** The maps still in the pool, in the pool's order. */
  remaining: string[];
  banned: { map: string; slot: Slot }[];
  maps: PlayedMap[];
  /** What is awaited and from whom; null once the veto is over. */
  next: { action: 'roles' | 'ban' | 'pick' | 'side'; slot: Slot } | null;
  done: boolean;
}

const other = (slot: Slot): Slot => (slot === 'a' ? 'b' : 'a');

/**
 * The state a log leads to on a pool with a sequence and a starter (the slot that chooses A or B).
 * The log is trusted (each move was checked by `vetoRefusal` when made); the server's `decider`
 * moves are in it.
 */
export function vetoState(pool: readonly string[], sequence: readonly VetoStep[], starter: Slot, log: readonly VetoMove[]): VetoState {
  let roleA: Slot | null = null;
  const remaining = [...pool];
  const banned: VetoState['banned'] = [];
  const maps: PlayedMap[] = [];
  let at = 0;
  for (const move of log) {
    if (move.action === 'roles') {
      roleA = move.role === 'A' ? move.slot : other(move.slot);
      continue;
    }
    at++;
    if (move.action === 'side') {
      const last = maps.at(-1);
      if (last) last.side = { slot: move.slot, side: move.side };
      continue;
    }
    // A map no longer in the pool (the organiser changed it mid-veto) stays in the log and leaves the pool alone.
    const taken = remaining.indexOf(move.map);
    if (taken !== -1) remaining.splice(taken, 1);
    if (move.action === 'ban') banned.push({ map: move.map, slot: move.slot! });
    else maps.push({ map: move.map, pickedBy: move.slot, side: null });
  }
  const slotOf = (role: VetoRole): Slot => (role === 'A' ? roleA! : other(roleA!));
  const upcoming = sequence[at];
  let next: VetoState['next'] = null;
  if (roleA === null) next = { action: 'roles', slot: starter };
  else if (upcoming && upcoming.action !== 'decider') next = { action: upcoming.action, slot: slotOf(upcoming.by) };
  return { roleA, remaining, banned, maps, next, done: roleA !== null && at >= sequence.length };
}

/** The step after the log, when it is the server's (the decider), else null. */
export function serverStep(sequence: readonly VetoStep[], state: VetoState, log: readonly VetoMove[]): VetoMove | null {
  const at = log.filter((m) => m.action !== 'roles').length;
  if (state.roleA === null || sequence[at]?.action !== 'decider' || state.remaining.length !== 1) return null;
  return { action: 'decider', slot: null, map: state.remaining[0]! };
}

export type VetoRefusal = 'done' | 'notYourTurn' | 'wrongAction' | 'mapNotInPool' | 'mapTaken' | 'badSide' | 'badRole';

/**
 * Why `slot` may not make `move` now, or null when it may: only the side whose turn it is, only the
 * action awaited, only a map of the pool still in it, a side 0 or 1, a role A or B.
 */
export function vetoRefusal(
  pool: readonly string[],
  state: VetoState,
  slot: Slot,
  move: { action: string; map?: string | undefined; side?: number | undefined; role?: string | undefined },
): VetoRefusal | null {
  if (!state.next) return 'done';
  if (state.next.slot !== slot) return 'notYourTurn';
  if (move.action !== state.next.action) return 'wrongAction';
  if (move.action === 'roles') return move.role === 'A' || move.role === 'B' ? null : 'badRole';
  if (move.action === 'side') return move.side === 0 || move.side === 1 ? null : 'badSide';
  if (!move.map || !pool.includes(move.map)) return 'mapNotInPool';
  if (!state.remaining.includes(move.map)) return 'mapTaken';
  return null;
}
