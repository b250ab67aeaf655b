import { useCallback, useEffect, useState } from 'react';
import { setCheckIn } from '../api/check-in.ts';
import { errorMessage } from '../api/client.ts';
import { getMyMatches, type MyMatches } from '../api/schedule.ts';
import { useUserEvents } from '../live/user-events.ts';
import { t } from '../i18n/index.ts';
import { api } from '../stores/api.ts';

export type MyMatchesState = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; data: MyMatches };

/**
 * «Мої матчі» for the signed-in user (`userId`; nothing is asked without one): the matches and open
 * check-ins from `GET /users/me/matches`, and `toggleCheckIn`, which checks in (or undoes it) and
 * reads the list again; it reads again on each of the reader's live events. The cabinet and the
 * team tab share it.
 */
export function useMyMatches(userId: string | null) {
  const [state, setState] = useState<MyMatchesState>({ kind: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setState({ kind: 'ready', data: await getMyMatches(api) });
    } catch (error) {
      setState({ kind: 'error', message: errorMessage(error, t('myMatches.error')) });
    }
  }, []);

  useEffect(() => {
    if (userId) void load();
  }, [userId, load]);
  // A match ready, a report to answer, a result, a team's change: each reaches the reader as a
  // notice or a team event, and the list reads again (the stream's fallback poll too).
  useUserEvents(userId, () => void load());

  /** Checks in for the tournament (or, with `checkedIn: false`, undoes it); the server's refusal is shown. */
  async function toggleCheckIn(tournamentId: string, checkedIn: boolean): Promise<void> {
    setBusy(tournamentId);
    setProblem(null);
    try {
      await setCheckIn(api, tournamentId, checkedIn);
      await load();
    } catch (error) {
      setProblem(errorMessage(error, t('myMatches.checkInError')));
    } finally {
      setBusy(null);
    }
  }

  return { state, busy, problem, toggleCheckIn, reload: load };
}
