import { lazy, Suspense, useEffect, useState } from 'react';
import type { VetoView } from '../../lib/api/veto.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { $user } from '../../lib/stores/session.ts';

// The buttons, their texts and the API client load only for the side whose turn it is.
const VetoPanel = lazy(() => import('./VetoPanel.tsx'));

const apiBase = import.meta.env.PUBLIC_API_URL ?? '/api';

/** The veto as anyone reads it, fresh past held copies; null when the match has none. */
export const readVeto = (matchId: string): Promise<VetoView | null> =>
  fetch(`${apiBase}/matches/${matchId}/veto`, { cache: 'no-cache' })
    .then((r) => (r.ok ? (r.json() as Promise<VetoView>) : null))
    .catch(() => null);

interface Props {
  matchId: string;
  tournamentId: string;
  /** Who acts for each side: the player's, or the team captain's, user id. */
  actors: { a: string | null; b: string | null };
}

/**
 * The match's veto controls (issue 58): for the side whose turn it is, the choice the veto awaits
 * from it; nothing for anyone else. The veto itself is drawn by the page (`_Veto.astro`) and
 * redrawn by its live region; this reads it again on every move of the match.
 */
export default function VetoControls({ matchId, tournamentId, actors }: Props) {
  const user = useHydratedStore($user, null);
  const side = !user ? null : actors.a === user._id ? 'a' : actors.b === user._id ? 'b' : null;
  const [veto, setVeto] = useState<VetoView | null>(null);
  useEffect(() => {
    if (!side) return;
    let live = true;
    const read = () => void readVeto(matchId).then((fresh) => live && setVeto(fresh));
    read();
    const stop = onPageEvent(tournamentId, (event) => {
      if (event.matchId === undefined || event.matchId === matchId) read();
    });
    return () => {
      live = false;
      stop();
    };
  }, [side, matchId, tournamentId]);
  if (!side || !veto?.next || veto.next.slot !== side) return null;
  return (
    <Suspense fallback={null}>
      <VetoPanel matchId={matchId} veto={veto} onMoved={setVeto} />
    </Suspense>
  );
}
