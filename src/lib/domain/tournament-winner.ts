import { participantTypeOf, type ParticipantType } from './participant.ts';
import { normalizeStatus } from './tournament-status.ts';

/** A winner is one of the tournament's participants, so of its participant type. */
export type WinnerType = ParticipantType;

/** Why a winner cannot be set; each has a message in the catalog under `winner.refused.<reason>`. */
export type WinnerRefusal = 'notStarted' | 'notFinished' | 'hasWinner' | 'noParticipants' | 'wrongType' | 'notParticipant';

/** The winner type a tournament takes: its participant type. */
export const winnerTypeOf = participantTypeOf;

export interface WinnerFacts {
  tournament: { status: string; soloOnly: boolean; hasWinner: boolean };
  /** Ids of the tournament's participants (`approvedParticipants`): users for solo, teams for team ones. */
  participants: readonly string[];
}

/**
 * The first rule a winner choice breaks, or null when it may be saved (SPEC §4 Winner): only for a
 * finished tournament without a winner, and only one of its approved participants of the right type.
 * Without a choice (`winner` omitted) it answers whether the choose-winner control should show.
 * With `finish` the tournament is to be marked finished in the same step (its bracket's final is
 * played): a started one may be, a pending one may not — it has not been played yet.
 */
export function winnerRefusal(facts: WinnerFacts, winner?: { type: WinnerType; id: string }, options: { finish?: boolean } = {}): WinnerRefusal | null {
  const { tournament, participants } = facts;
  const status = normalizeStatus(tournament.status);
  if (options.finish && status !== 'started' && status !== 'finished') return 'notStarted';
  if (status !== 'finished' && !(options.finish && status === 'started')) return 'notFinished';
  if (tournament.hasWinner) return 'hasWinner';
  if (participants.length === 0) return 'noParticipants';
  if (!winner) return null;
  if (winner.type !== winnerTypeOf(tournament.soloOnly)) return 'wrongType';
  if (!participants.includes(winner.id)) return 'notParticipant';
  return null;
}
