/**
 * A tournament's participant (SPEC §3 Tournament, Application): a player in solo tournaments, a
 * team in team ones, taking part once their application of that kind is approved. The server's
 * one query for them is `approvedParticipants` (src/server/services/match-day/participants.ts); pages and
 * islands, which hold the tournament's applications already, use `approvedOf`.
 */
import type { ApplicationStatus } from './application-rules.ts';

export const PARTICIPANT_TYPES = ['user', 'team'] as const;
export type ParticipantType = (typeof PARTICIPANT_TYPES)[number];

/** The participant type a tournament takes: a player for solo, a team for team tournaments. */
export const participantTypeOf = (soloOnly: boolean): ParticipantType => (soloOnly ? 'user' : 'team');

/** The status that makes an applicant a participant. */
export const PARTICIPANT_STATUS = 'approved' satisfies ApplicationStatus;

/**
 * The participants among a tournament's applications, in the order given: approved applications
 * of the tournament's type (solo ones without a team, team ones with one).
 */
export function approvedOf<A extends { status: string; team: unknown }>(applications: readonly A[], soloOnly: boolean): A[] {
  return applications.filter((a) => a.status === PARTICIPANT_STATUS && (a.team != null) === !soloOnly);
}

/** The name an application, and so a participant, goes by: the team's, or the player's for solo. */
export const applicantName = (application: { user: { username: string }; team: { name: string } | null }): string =>
  application.team?.name ?? application.user.username;

/** The ids of the participants among a tournament's applications: players for solo, teams for team ones. */
export function participantIdsOf(applications: readonly { status: string; user: { _id: string }; team: { _id: string } | null }[], soloOnly: boolean): string[] {
  return approvedOf(applications, soloOnly).map((a) => (soloOnly ? a.user._id : a.team!._id));
}

/** The public profile page of a player (`/players/{id}`) or a team (`/teams/{id}`), issue 23: every participant name links here. */
export const profilePath = (type: ParticipantType, id: string): string => (type === 'user' ? `/players/${id}` : `/teams/${id}`);
