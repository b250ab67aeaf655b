import { atom, computed, onMount } from 'nanostores';
import { getMe, logout, type Me, type User } from '../api/auth.ts';
import { $token } from './token.ts';

export { $token };
/** The signed-in user; `staffOf` is known once `/users/me` answered (a fresh sign-in's answer lacks it until the next page). */
export const $user = atom<User | Me | null>(null);
/** True until the first check of the stored token has finished. */
export const $sessionLoading = atom(true);
export const $isAdmin = computed($user, (user) => user?.role === 'admin');

/**
 * Fetches the current user for the stored token. A refusal from the server signs out silently and
 * forgets the token (SPEC §4). A request that got no answer (offline, or cut short by leaving the
 * page) leaves the reader signed out on this page only: the token is kept for the next one.
 */
export async function loadSession(): Promise<void> {
  const token = $token.get();
  if (!token) {
    $user.set(null);
    $sessionLoading.set(false);
    return;
  }
  try {
    // The client is fetched only when there is a session to check: guests never download it.
    const { api, HTTPError } = await import('./api.ts');
    const user = await getMe(api).catch((error: unknown) => {
      if (error instanceof HTTPError) $token.set('');
      return null;
    });
    $user.set(user);
  } catch {
    // The client itself did not load: like no answer, the token is kept.
    $user.set(null);
  } finally {
    $sessionLoading.set(false);
  }
}

onMount($user, () => {
  void loadSession();
});

export function signIn(user: User, token: string): void {
  $token.set(token);
  $user.set(user);
  $sessionLoading.set(false);
}

/**
 * This device stops taking the account's pushes (issue 60): forgotten on the server while the token
 * still works, then unsubscribed, so the next person on a shared device is not shown them.
 */
async function forgetThisDevice(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const subscription = await (await navigator.serviceWorker.getRegistration('/'))?.pushManager?.getSubscription();
  if (!subscription) return;
  await import('./api.ts').then(({ api }) => api.delete('push/subscriptions', { json: { endpoint: subscription.endpoint } }));
  await subscription.unsubscribe();
}

/** Ends the session on the server (best effort) and forgets it here, with this device's pushes. */
export async function signOut(): Promise<void> {
  if ($token.get()) await forgetThisDevice().catch(() => undefined);
  if ($token.get()) await import('./api.ts').then(({ api }) => logout(api)).catch(() => undefined);
  $token.set('');
  $user.set(null);
}
