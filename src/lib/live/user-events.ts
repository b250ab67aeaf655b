/**
 * The signed-in user's event stream (issue 22): `GET /api/users/me/events`, read with the bearer
 * token. Apart from `events.ts`, which it builds on, so the tournament's stream alone (the embeds of
 * issue 23, which must load nothing of a session) never loads the token's store.
 */
import { useEffect, useRef } from 'react';
import { $token } from '../stores/token.ts';
import { watchEvents, type LiveEvent, type WatchOptions } from './events.ts';

/**
 * Who listens to the page's one user stream; `polls`: whether it also hears the fallback's `poll`;
 * `kinds`: which of the OWN_KINDS it hears besides the rest.
 */
const userListeners = new Set<{ onChange: (event: LiveEvent) => void; polls: boolean; kinds: readonly string[] }>();
let stopUserStream: (() => void) | null = null;

/**
 * Kinds only a watcher that asks for them hears: a match chat's message (`matchChat`) concerns the
 * open room of that match, not the bell, the team tab or the match lists, which would read again.
 */
const OWN_KINDS: readonly string[] = ['matchChat'];

const hears = (listener: { polls: boolean; kinds: readonly string[] }, kind: string) =>
  kind === 'poll' ? listener.polls : !OWN_KINDS.includes(kind) || listener.kinds.includes(kind);

/**
 * The signed-in user's changes (`GET /api/users/me/events`: `notification`, `team`, and `matchChat`
 * for a watcher that asks for it in `kinds`); nothing
 * without a token. Every caller on a page shares one stream (a browser keeps six connections per
 * site: the bell, the team tab and the match lists must not take them all); it opens with the
 * first caller and closes with the last. `pollMs: null`: the caller keeps its own clock and does
 * not hear the fallback's `poll`.
 */
export function watchUser(
  onChange: (event: LiveEvent) => void,
  options: Pick<WatchOptions, 'pollMs' | 'fetch'> & { kinds?: readonly string[] } = {},
): () => void {
  if (!$token.get()) return () => {};
  const entry = { onChange, polls: options.pollMs !== null, kinds: options.kinds ?? [] };
  userListeners.add(entry);
  stopUserStream ??= watchEvents(
    '/users/me/events',
    (event) => {
      for (const listener of [...userListeners]) if (hears(listener, event.kind)) listener.onChange(event);
    },
    { token: () => $token.get(), ...(options.fetch ? { fetch: options.fetch } : {}) },
  );
  return () => {
    userListeners.delete(entry);
    if (userListeners.size === 0) {
      stopUserStream?.();
      stopUserStream = null;
    }
  };
}

/** React: `watchUser` while mounted and signed in (`userId` set, so it reopens for another user). */
export function useUserEvents(userId: string | null | undefined, onChange: (event: LiveEvent) => void): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  useEffect(() => (userId ? watchUser((event) => latest.current(event)) : undefined), [userId]);
}
