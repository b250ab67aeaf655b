/**
 * The words of a map veto's sequence (issue 58), apart from its rules (veto.ts) so a stage's
 * settings (stage/format.ts) can name a sequence without the rules naming the stage back.
 */

export const VETO_ACTIONS = ['ban', 'pick', 'side', 'decider'] as const;
export type VetoAction = (typeof VETO_ACTIONS)[number];
export const VETO_ROLES = ['A', 'B'] as const;
export type VetoRole = (typeof VETO_ROLES)[number];

/**
 * One step: `ban` and `pick` take a map still in the pool; `side` chooses the starting side on the
 * map chosen last (a pick or the decider); `decider` is taken by the server: the last map left.
 */
export type VetoStep = { action: 'ban' | 'pick' | 'side'; by: VetoRole } | { action: 'decider' };
