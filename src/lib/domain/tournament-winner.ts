import { normalizeStatus } from './tournament-status.ts';

export type WinnerType = 'user' | 'team';

/** Why a winner cannot be set; each has a message in the catalog under `winner.refused.<reason>`. */
export type WinnerRefusal = 'notStarted' | 'notFinished' | 'hasWinner' | 'noParticipants' | 'wrongType' | 'notParticipant';

/** The winner type a tournament takes: a player for solo, a team for team tournaments. */
export const winnerTypeOf = (soloOnly: boolean): WinnerType => (soloOnly ? 'user' : 'team');

export interface WinnerFacts {
  tournament: { status: string; soloOnly: boolean; hasWinner: boolean };
  /** Ids of approved participants of the tournament's type (users for solo, teams for team). */
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
