import { lazy, Suspense } from 'react';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { $user } from '../../lib/stores/session.ts';

/** Guests never download the bell: it is a chunk of its own, fetched once someone is signed in. */
const Bell = lazy(() => import('./Bell.tsx'));

/**
 * The bell in the layout (SPEC §2 Notification bell). Renders nothing without a session; another
 * user signing in gets a fresh bell.
 */
export default function NotificationBell() {
  // The server renders no bell; hydrate with that, then show the signed-in user's.
  const userId = useHydratedStore($user, null)?._id;
  return userId ? (
    <Suspense fallback={null}>
      <Bell key={userId} />
    </Suspense>
  ) : null;
}
