import { lazy, Suspense } from 'react';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $user } from '../../lib/stores/session.ts';

// The chat, its texts and the API client load only for someone signed in; the panel itself hides
// when the server says the reader is not of the room (403).
const MatchChatPanel = lazy(() => import('./MatchChatPanel.tsx'));

export interface MatchChatProps {
  matchId: string;
  /** The sides' names as the page shows them: each message of a side is marked with its name. */
  sides: { a: string; b: string };
}

/**
 * The match room's chat (issue 58): for the people of the match's two sides and the tournament's
 * organisers. The page is the same HTML for everyone; a guest gets nothing, nor anyone before hydration.
 */
export default function MatchChat({ matchId, sides }: MatchChatProps) {
  const user = useHydratedStore($user, null);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <MatchChatPanel key={user._id} matchId={matchId} sides={sides} userId={user._id} />
    </Suspense>
  );
}
