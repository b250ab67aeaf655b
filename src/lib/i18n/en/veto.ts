import type { veto as uk } from '../uk/veto.ts';

/** A match's map veto (issue 58). */
export const veto: Record<keyof typeof uk, string> = {
  'maps.duplicate': 'A map is in the pool twice: name each map once',
  'maps.sidesMissing': 'Name both starting sides of the game (for example, CT and T)',
  'maps.saved': 'Map pool saved',
  'veto.off': 'This match has no map veto',
  'veto.notSide': 'Only the match’s players (team captains) take part in the veto',
  'veto.notReady': 'The veto starts once both opponents are known',
  'veto.decided': 'The match has been played',
  'veto.raced': 'Someone has just made this move: reload the veto',
  'veto.over': 'The veto is over',
  'veto.notYourTurn': 'It is your opponent’s turn',
  'veto.wrongAction': 'The veto is at another step',
  'veto.mapNotInPool': 'That map is not in the match’s pool',
  'veto.mapTaken': 'That map has already been banned or picked',
  'veto.sideMissing': 'Choose the starting side: 0 or 1',
  'veto.roleMissing': 'Choose whether you are A or B',
  'veto.sequenceInvalid':
    'The veto sequence does not add up: the picks and the decider must give as many maps as the best-of has games, a side is chosen only after a map, and the decider comes last',
  'veto.moved': 'Move made',
  'veto.finished': 'The veto is over: the maps are set',
};
