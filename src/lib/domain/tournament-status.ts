/** The three statuses a tournament is stored with (SPEC §4 Tournament status). */
export const TOURNAMENT_STATUSES = ['pending', 'started', 'finished'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

/** Older spellings the spec's list filter tolerates; each means one of the stored three. */
const SPELLINGS: Record<string, TournamentStatus> = {
  pending: 'pending',
  scheduled: 'pending',
  started: 'started',
  in_progress: 'started',
  'in-progress': 'started',
  finished: 'finished',
  completed: 'finished',
  done: 'finished',
};

/** Every spelling accepted on input: the stored three and the legacy ones. */
export const STATUS_SPELLINGS = Object.keys(SPELLINGS) as [string, ...string[]];

/** The stored status a spelling means, or null for an unknown word. */
export function normalizeStatus(value: string | null | undefined): TournamentStatus | null {
  if (!value) return null;
  return SPELLINGS[value.trim().toLowerCase()] ?? null;
}

/** Catalog key of a status label: Очікує, Розпочато, Завершено. */
export function statusLabelKey(status: string): 'status.pending' | 'status.started' | 'status.finished' | 'status.unknown' {
  const normalized = normalizeStatus(status);
  return normalized ? `status.${normalized}` : 'status.unknown';
}

/** Whether a tournament still takes applications: only while it waits to start (SPEC §4). */
export const isOpenForApplications = (status: string) => normalizeStatus(status) === 'pending';

/** Whether a tournament is over, whichever spelling its status has: nothing in it changes any more, and the control room has nothing to offer. */
export const isFinished = (status: string | null | undefined) => normalizeStatus(status) === 'finished';
