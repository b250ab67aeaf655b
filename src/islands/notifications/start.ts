import { onSession } from '../../lib/stores/signed-in.ts';
import type * as Mount from './mount.tsx';

/**
 * Draws the React bell into the layout's `#notification-bell` (NotificationBell.astro) once someone
 * is signed in, and takes it away when they sign out: guests download no React for it. Started by
 * the layout's script (Base.astro).
 */
export function startBell(): void {
  const container = document.getElementById('notification-bell');
  if (!container) return;
  let bell: Promise<typeof Mount> | undefined;
  onSession((user) => {
    if (!user && !bell) return;
    bell ??= import('./mount.tsx');
    void bell.then(({ showBell }) => showBell(container, user?._id ?? null));
  });
}
