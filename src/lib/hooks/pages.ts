import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../api/client.ts';
import type { Page } from '../api/paging.ts';

/** What a paged list shows: its pages so far, or why the first one failed. */
export type PagesState<T> = { kind: 'loaded'; items: T[]; more: boolean } | { kind: 'error'; message: string };

/** What the server rendered, as a list's first state: the page, or the message of its failure. */
export function initialPages<T>(page: Page<T> | null, error: string): PagesState<T> {
  return page && Array.isArray(page.items) ? { kind: 'loaded', items: page.items, more: page.more } : { kind: 'error', message: error };
}

interface Options<T> {
  /** What the server rendered for the first `key`; without it the first page is fetched. */
  initial?: PagesState<T> | null;
  /** Shown when a page fails without a message from the server. */
  errorText: string;
  /** Shown when the answer is not a list. */
  invalidText?: string;
}

/**
 * A list read a page at a time. `key` names what is listed (its filters, order, a reload counter):
 * when it changes, the first page loads again — `loading` is true meanwhile, and answers for an
 * older key are dropped. `loadMore` appends the next page; `update` edits what is shown in place
 * (after a delete, say). `shown` keeps the previous key's list (`shownKey`) up while a new one loads.
 */
export function usePages<T extends { _id: string }>(key: string, fetchPage: (offset: number) => Promise<Page<T>>, options: Options<T>) {
  const [held, setHeld] = useState<{ key: string; state: PagesState<T> } | null>(() => (options.initial ? { key, state: options.initial } : null));
  const [moreBusy, setMoreBusy] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  // Read when a request starts or ends, not during render: the latest key, fetcher and texts.
  const latest = useRef({ key, fetchPage, options });
  useEffect(() => {
    latest.current = { key, fetchPage, options };
  });

  const read = useCallback(async (offset: number): Promise<PagesState<T>> => {
    const { fetchPage: fetcher, options: texts } = latest.current;
    try {
      const page = await fetcher(offset);
      if (!Array.isArray(page.items)) return { kind: 'error', message: texts.invalidText ?? texts.errorText };
      return { kind: 'loaded', items: page.items, more: page.more };
    } catch (error) {
      return { kind: 'error', message: errorMessage(error, texts.errorText) };
    }
  }, []);

  const loaded = held?.key === key;
  useEffect(() => {
    if (loaded) return;
    setMoreError(null);
    void read(0).then((state) => {
      if (latest.current.key === key) setHeld({ key, state });
    });
  }, [key, loaded, read]);

  const state = loaded ? held.state : null;
  const loadMore = useCallback(async () => {
    if (state?.kind !== 'loaded') return;
    setMoreBusy(true);
    setMoreError(null);
    const next = await read(state.items.length);
    setMoreBusy(false);
    if (latest.current.key !== key) return;
    if (next.kind === 'error') return setMoreError(next.message);
    // An item added meanwhile shifts the pages by one: skip what is already shown.
    const shownIds = new Set(state.items.map((item) => item._id));
    setHeld({ key, state: { kind: 'loaded', items: [...state.items, ...next.items.filter((item) => !shownIds.has(item._id))], more: next.more } });
  }, [key, state, read]);

  const update = useCallback((edit: (items: T[]) => T[]) => {
    setHeld((current) => (current?.state.kind === 'loaded' ? { ...current, state: { ...current.state, items: edit(current.state.items) } } : current));
  }, []);

  return { state, shown: held?.state ?? null, shownKey: held?.key ?? null, loading: !loaded, loadMore, moreBusy, moreError, update };
}
