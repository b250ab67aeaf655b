import type { ReadableAtom } from 'nanostores';
import { useSyncExternalStore } from 'react';

/**
 * A store's value in an island that the server also rendered: during hydration it is
 * `serverValue` (what the server could know: no session, default theme), then the browser's own
 * value at once. Reading the store directly would make the first render disagree with the HTML.
 */
export function useHydratedStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  return useSyncExternalStore(
    (onChange) => store.listen(onChange),
    () => store.get(),
    () => serverValue,
  );
}

const noSubscription = () => () => {};

/** False while hydrating (and on the server), true once the island runs in the browser. */
export const useHydrated = () => useSyncExternalStore(noSubscription, () => true, () => false);
