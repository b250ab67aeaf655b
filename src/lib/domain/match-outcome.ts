import type { ParticipantType } from './participant.ts';

export type MatchOutcome = 'win' | 'draw' | 'loss' | 'unknown';

export interface OutcomeParticipant {
  id: string | null;
  type?: ParticipantType | undefined;
  isWinner: boolean;
}

export interface OutcomeMatch {
  status?: string | undefined;
  result?: { isDraw?: boolean | undefined } | undefined;
  participants: readonly OutcomeParticipant[];
}

/**
 * How a match ended for one participant (SPEC §3 Match history item): win, draw or loss when
 * the match is completed and the participant took part in it; unknown otherwise.
 */
export function matchOutcome(match: OutcomeMatch, viewer: { id: string; type?: ParticipantType | undefined }): MatchOutcome {
  if (match.status !== undefined && match.status !== 'completed') return 'unknown';
  const mine = match.participants.find((p) => p.id === viewer.id && (viewer.type === undefined || p.type === undefined || p.type === viewer.type));
  if (!mine) return 'unknown';
  if (match.result?.isDraw) return 'draw';
  if (mine.isWinner) return 'win';
  if (match.participants.some((p) => p !== mine && p.isWinner)) return 'loss';
  return 'unknown';
}
