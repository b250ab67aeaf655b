import { lazy, Suspense } from 'react';
import type { LobbyState } from '../../lib/api/stages.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { isFinished } from '../../lib/domain/tournament-status.ts';
import { $user } from '../../lib/stores/session.ts';

// The form, its texts and the API client load only for someone signed in; the panel hides when the
// server says the reader is neither of the lobby's players nor its organisers (403).
const LobbyRoomPanel = lazy(() => import('./LobbyRoomPanel.tsx'));

/**
 * A free-for-all lobby's form on its page (issue 59): its players propose a game's result, its
 * organisers enter one. The page is the same HTML for everyone; a guest gets nothing, nor anyone
 * before hydration, nor anyone once the lobby's round is over or the tournament finished.
 */
export default function LobbyRoom({ initial }: { initial: LobbyState }) {
  const user = useHydratedStore($user, null);
  if (!user || !initial.stage.current || isFinished(initial.tournament.status)) return null;
  return (
    <Suspense fallback={null}>
      <LobbyRoomPanel key={user._id} initial={initial} />
    </Suspense>
  );
}
