import type { Me, User } from '../api/auth.ts';
import { $token } from './token.ts';

/**
 * Calls `show` with the signed-in user, and again whenever that changes (`null`: nobody). For the
 * layout's plain scripts (navigation, bell): the session store, and through it the API client, is
 * fetched only when a token exists, or once someone signs in on this page; a guest fetches neither
 * and `show` is never called.
 */
export function onSession(show: (user: User | Me | null) => void): void {
  const watch = () => void import('./session.ts').then(({ $user }) => $user.subscribe(show));
  if ($token.get()) {
    watch();
    return;
  }
  const stop = $token.listen((token) => {
    if (!token) return;
    stop();
    watch();
  });
}
