import { TEAM_MAX_MEMBERS } from './team.ts';
import { isOpenForApplications } from './tournament-status.ts';

/** A team may apply with 5 to 7 members, captain included (SPEC §5, §9). */
export const TEAM_SIZE = { min: 5, max: TEAM_MAX_MEMBERS } as const;

export const isTeamSizeAllowed = (members: number) => members >= TEAM_SIZE.min && members <= TEAM_SIZE.max;

/**
 * An application's statuses (SPEC §3 Application): the schema, the zod schemas and the islands read them here.
 * `noShow` (issue 57): an approved participant who did not check in by the window's close; not rejected
 * by anyone, and an organiser may bring them back (their check-in for them restores the place).
 */
export const APPLICATION_STATUSES = ['pending', 'approved', 'rejected', 'waitlisted', 'noShow'] as const;
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/**
 * Pending, approved and waitlisted (issue 22) applications count as «already applied»; a rejected one does not (SPEC §4).
 * The database's one-live-application indexes and the services' queries are built from this list.
 */
export const LIVE_APPLICATION_STATUSES = ['pending', 'approved', 'waitlisted'] as const satisfies readonly ApplicationStatus[];
export type LiveApplicationStatus = (typeof LIVE_APPLICATION_STATUSES)[number];

export const isLiveApplication = (status: string): status is LiveApplicationStatus => (LIVE_APPLICATION_STATUSES as readonly string[]).includes(status);

/** The verdicts an admin gives an application (PATCH /applications/:id). */
export const APPLICATION_VERDICTS = ['approved', 'rejected'] as const satisfies readonly ApplicationStatus[];
export type ApplicationVerdict = (typeof APPLICATION_VERDICTS)[number];

/** Why an application cannot be made; each has a message in the catalog under `apply.refused.<reason>`. */
export const APPLY_REFUSALS = [
  'bracketDrawn',
  'notPending',
  'soloOnly',
  'teamOnly',
  'noTeam',
  'notCaptain',
  'teamSize',
  'alreadyApplied',
  'registrationNotOpen',
  'registrationClosed',
  'steamRequired',
  'teamSteamRequired',
] as const;
export type ApplyRefusal = (typeof APPLY_REFUSALS)[number];

/** What the rules need to know about one attempt to apply. */
export interface ApplyFacts {
  tournament: { status: string; soloOnly: boolean; bracketDrawn: boolean };
  /** The user's live application (solo) or the team's (team), if any. */
  alreadyApplied: boolean;
  /** Missing for a solo application. */
  team?: { isCaptain: boolean; members: number } | null;
  /** Whether the attempt is for a team (a team id was given, or the user acts for their team). */
  asTeam: boolean;
  /** Why the registration window refuses applications now (`registrationRefusal` of lib/domain/registration.ts), if it does. */
  registration?: 'registrationNotOpen' | 'registrationClosed' | null;
  /**
   * Of the people a tournament that requires Steam checks (the applicant, or every player of the
   * team), how many have no linked Steam account (issue 60); 0 or absent when it does not require it.
   */
  withoutSteam?: number;
}

/**
 * The first rule an application breaks, or null when it may be made (SPEC §4–§6): the type must
 * match the tournament, its bracket must not be drawn yet (the draw closes applications, whatever
 * the status says) and it must still be pending, within its registration window (issue 22), a team applies through its captain with 5–7
 * members, and nobody applies twice while an earlier application is pending or approved.
 */
export function applyRefusal(facts: ApplyFacts): ApplyRefusal | null {
  const { tournament, asTeam } = facts;
  if (asTeam && tournament.soloOnly) return 'soloOnly';
  if (!asTeam && !tournament.soloOnly) return 'teamOnly';
  if (tournament.bracketDrawn) return 'bracketDrawn';
  if (!isOpenForApplications(tournament.status)) return 'notPending';
  if (facts.registration) return facts.registration;
  if (asTeam) {
    if (!facts.team) return 'noTeam';
    if (!facts.team.isCaptain) return 'notCaptain';
    if (!isTeamSizeAllowed(facts.team.members)) return 'teamSize';
  }
  if (facts.alreadyApplied) return 'alreadyApplied';
  if (facts.withoutSteam) return asTeam ? 'teamSteamRequired' : 'steamRequired';
  return null;
}

/**
 * Whether a tournament takes applications now, and if not the reason its page gives: the drawn
 * bracket closes them (SPEC §4), and so does any status but pending.
 */
export function applicationsClosed(tournament: { status: string; bracketDrawn: boolean }): 'bracketDrawn' | 'notPending' | null {
  if (tournament.bracketDrawn) return 'bracketDrawn';
  return isOpenForApplications(tournament.status) ? null : 'notPending';
}

/** What an admin may do to an application: approve, reject, or delete it. */
export type Review = ApplicationVerdict | 'deleted';

/**
 * Why an admin may not approve, reject or delete an application now, or null. Once the bracket is
 * drawn its lineup is fixed: nobody joins the approved participants (they would not be in the
 * bracket) and none of them leaves (the bracket would name someone who no longer takes part, and
 * every later save of it would be refused). A pending or rejected application may still be
 * rejected or deleted; drawing the bracket again after clearing it reopens the lineup.
 */
export function reviewRefusal(facts: { bracketDrawn: boolean; from: ApplicationStatus; to: Review }): 'lineupFixed' | null {
  const { bracketDrawn, from, to } = facts;
  if (!bracketDrawn || from === to) return null;
  return from === 'approved' || to === 'approved' ? 'lineupFixed' : null;
}
