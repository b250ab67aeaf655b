import { lazy, Suspense, useEffect } from 'react';
import { useStore } from '@nanostores/react';
import type { MatchState } from '../../lib/api/stages.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $user } from '../../lib/stores/session.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { $checkInPending, $match, refresh } from './refresh.ts';

// The controls, their texts and the API client load only for the match's two sides.
const ReportPanel = lazy(() => import('./ReportPanel.tsx'));

/**
 * The match page's report controls (issue 22): report, confirm or dispute, shown only to the
 * match's sides (the players, or the teams' captains); nothing for anyone else, nor until hydrated.
 */
export default function MatchReport({ initial }: { initial: MatchState }) {
  const user = useHydratedStore($user, null);
  const current = useStore($match) ?? initial;
  const checkInPending = useStore($checkInPending);
  useEffect(() => {
    if (!$match.get()) $match.set(initial);
  }, [initial]);
  // Issue 22: the page's live script (LiveTournament) hears the tournament and redraws the page's
  // live part for everyone; the controls of the match's sides read the match again when it changes,
  // or when a change may reach it (a bracket save, a disqualification).
  useEffect(
    () =>
      onPageEvent(initial.tournament._id, (event) => {
        const me = $user.get()?._id;
        const actors = ($match.get() ?? initial).actors;
        if (me && (actors.a === me || actors.b === me) && (event.matchId === undefined || event.matchId === initial.match._id)) void refresh(initial.match._id);
      }),
    [initial],
  );
  const side = !user ? null : current.actors.a === user._id ? 'a' : current.actors.b === user._id ? 'b' : null;
  if (!side || checkInPending) return null;
  return (
    <Suspense fallback={null}>
      <ReportPanel state={current} side={side} />
    </Suspense>
  );
}
