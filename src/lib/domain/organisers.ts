/**
 * Organisers (issue 23): the words of tournament staff and the audit log. Each list is the one
 * owner of its names; the schema, the zod shapes, the pages and the islands read them.
 */

/** A tournament's staff (co-organisers) at most: more is a sign of a mistake, not of a large event. */
export const MAX_TOURNAMENT_STAFF = 20;

/**
 * Every change that decides a competition, as the audit log names it. Written in the same
 * transaction as the change; no route edits or deletes a row (a database trigger refuses it).
 */
export const AUDIT_KINDS = [
  'applicationDecided',
  'checkInOverride',
  'stageCreated',
  'stageReset',
  'resultEntered',
  'resultCorrected',
  'resultReset',
  'forfeit',
  'disqualified',
  'disputeResolved',
  'winnerSet',
  'staffAdded',
  'staffRemoved',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];
