/**
 * Organisers (issue 23): the words of tournament staff and the audit log. Each list is the one
 * owner of its names; the schema, the zod shapes, the pages and the islands read them.
 */

/** A tournament's staff (co-organisers) at most: more is a sign of a mistake, not of a large event. */
export const MAX_TOURNAMENT_STAFF = 20;

/** Who a page or island knows the reader as: `GET /api/users/me` (with `staffOf`), or nobody. */
export interface OrganiserCandidate {
  role: string;
  /** The tournaments the reader is staff of (decision 016); absent in answers other than `/users/me`. */
  staffOf?: readonly string[];
  /** The organisations the reader is in (issue 56), whose tournaments they organise; absent as `staffOf`. */
  organisations?: readonly { _id: string }[];
}

/**
 * Whether the reader organises this tournament: an admin organises every one, a staff member only
 * theirs, the people of an organisation the tournaments it hosts (`hostId`). The islands show the
 * organiser tools by it; the server decides again on every request (`isOrganiser` in
 * services/competition/staff.ts).
 */
export const canOrganise = (user: OrganiserCandidate | null | undefined, tournamentId: string, hostId?: string | null): boolean =>
  Boolean(user) &&
  (user!.role === 'admin' || (user!.staffOf ?? []).includes(tournamentId) || (Boolean(hostId) && (user!.organisations ?? []).some((o) => o._id === hostId)));

/**
 * Every change that decides a competition, as the audit log names it. Written in the same
 * transaction as the change; no route edits or deletes a row (a database trigger refuses it).
 */
export const AUDIT_KINDS = [
  'applicationDecided',
  'participantAdded',
  'checkInOverride',
  'checkInExtended',
  'stageCreated',
  'stageReset',
  'resultEntered',
  'resultCorrected',
  'resultReset',
  'forfeit',
  'disqualified',
  'disputeResolved',
  'lobbyGameEntered',
  'lobbyGameCorrected',
  'winnerSet',
  'staffAdded',
  'staffRemoved',
  'venueRequested',
  'venueApproved',
  'venueRefused',
  'venueWithdrawn',
] as const;
export type AuditKind = (typeof AUDIT_KINDS)[number];

/** Kinds only organisers and the admin read: a venue network's addresses are no guest's business. */
export const ORGANISERS_AUDIT_KINDS: readonly AuditKind[] = ['venueRequested', 'venueApproved', 'venueRefused', 'venueWithdrawn'];
