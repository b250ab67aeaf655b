import { lazy, Suspense } from 'react';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $user } from '../../lib/stores/session.ts';
import type { MatchEvidenceProps } from './EvidencePanel.tsx';

// The panel, its texts and the API client load only for a signed-in reader; the API then says
// whether they belong in the match's room (a guest never asks).
const EvidencePanel = lazy(() => import('./EvidencePanel.tsx'));

/**
 * The match's screenshots (issue 58): for its two sides and its organisers, the pictures that
 * back a report or a dispute, and a form to add more. Nothing for anyone else, nor until hydrated:
 * the server's HTML never holds them.
 */
export default function MatchEvidence(props: MatchEvidenceProps) {
  const user = useHydratedStore($user, null);
  if (!user) return null;
  return (
    <Suspense fallback={null}>
      <EvidencePanel key={user._id} {...props} />
    </Suspense>
  );
}
