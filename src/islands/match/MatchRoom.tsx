import { lazy, Suspense } from 'react';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $user } from '../../lib/stores/session.ts';

// The room, its texts and the API client load only for someone signed in; the panel hides when the
// server says the reader is not of the room (403).
const MatchRoomPanel = lazy(() => import('./MatchRoomPanel.tsx'));

import type { MatchRoomProps } from './MatchRoomPanel.tsx';

/**
 * The top of a match room (issue 58) for the people of its two sides and its organisers: the next
 * thing to do, the check-in with its timer, the lobby details. The page is the same HTML for
 * everyone; a guest gets nothing, nor anyone before hydration.
 */
export default function MatchRoom(props: MatchRoomProps) {
  const user = useHydratedStore($user, null);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <MatchRoomPanel key={user._id} {...props} />
    </Suspense>
  );
}
