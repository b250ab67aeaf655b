import { atom, type ReadableAtom } from 'nanostores';
import { pollWhileVisible } from '../hooks/poll-while-visible.ts';
import { onPageEvent } from './events.ts';

/**
 * A tournament's copy of something its organisers edit in a modal (the bracket, the stages), kept
 * as both islands keep theirs: read with its ETag (an unchanged copy costs a bodiless 304), every
 * POLL_MS while the tab is visible and at once when the page's live script hears a change; a read
 * begun before a change of ours, or landing during one, is dropped, so our own change is never
 * announced as another organiser's. A read after a live event asks past the server's copies known to
 * be out of date (`fresh`).
 */

export interface Notice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

export interface CopyState<T> {
  status: 'loading' | 'ready' | 'error';
  /** What is shown: the server's copy, or an edit on its way there. */
  data: T | null;
  /** A change of ours is under way. */
  busy: boolean;
  notice: Notice | null;
}

export interface CopyOptions<T> {
  tournamentId: string;
  /** Reads the server's copy: null when it answered 304 to `etag`. */
  read(etag: string | undefined, fresh: boolean): Promise<{ state: T | null; etag: string | null }>;
  /** What the notice says when another organiser changed the copy. */
  changedByOther(): string;
  /** Read the copy again once our change is done (the stages: a change does not answer with them). */
  readAfterChange?: boolean;
}

export interface VersionedCopy<T> {
  $state: ReadableAtom<CopyState<T>>;
  update(changes: Partial<CopyState<T>>): void;
  /** The last copy the server confirmed: what a failed change reverts to and what changes are based on. */
  server(): T | null;
  /** Takes `copy` as the server's (an answer to a change of ours), saying `notice`. */
  adopt(copy: T, notice: Notice | null): void;
  /** Asks for news; announces another organiser's change when `announce`. */
  refresh(announce: boolean, fresh?: boolean): Promise<void>;
  /** Runs a change of ours: no read lands while it is under way. */
  change<R>(run: () => Promise<R>): Promise<R>;
  /** Loads at once, polls every POLL_MS while the tab is visible and reads on a live event; returns the stop function. */
  watch(): () => void;
}

export function versionedCopy<T extends { version: number }>(options: CopyOptions<T>): VersionedCopy<T> {
  const $state = atom<CopyState<T>>({ status: 'loading', data: null, busy: false, notice: null });
  const update = (changes: Partial<CopyState<T>>) => $state.set({ ...$state.get(), ...changes });
  let server: T | null = null;
  let etag: string | undefined;
  /** Bumped when a change of ours starts or ends: a read begun before it is stale. */
  let epoch = 0;
  let changing = 0;
  /** Reads of the copy as our own change left it, under way: what they find is ours. */
  let settling = 0;

  async function refresh(announce: boolean, fresh = false): Promise<void> {
    if (changing > 0) return;
    const started = epoch;
    // Our own change's live event may start a read before the read after the change has landed.
    const ours = settling > 0;
    let answer: Awaited<ReturnType<CopyOptions<T>['read']>>;
    try {
      answer = await options.read(server ? etag : undefined, fresh);
    } catch (error) {
      // SPEC §8: a failed load is only logged; the copy on screen stays.
      console.error(error);
      if (!server) update({ status: 'error' });
      return;
    }
    if (started !== epoch || changing > 0) return;
    if (answer.etag) etag = answer.etag;
    if (!answer.state) return;
    const changed = announce && !ours && server !== null && answer.state.version !== server.version;
    server = answer.state;
    update({ status: 'ready', data: server, ...(changed ? { notice: { tone: 'info', text: options.changedByOther() } } : {}) });
  }

  return {
    $state,
    update,
    server: () => server,
    adopt(copy, notice) {
      server = copy;
      update({ status: 'ready', data: copy, notice });
    },
    refresh,
    async change(run) {
      epoch++;
      changing++;
      update({ busy: true });
      try {
        return await run();
      } finally {
        changing--;
        epoch++;
        // Busy until the copy as it is after the change is on screen.
        if (changing === 0 && options.readAfterChange) {
          settling++;
          try {
            await refresh(false);
          } finally {
            settling--;
          }
        }
        update({ busy: changing > 0 });
      }
    },
    watch() {
      update({ notice: null });
      // Opening (again) shows the current copy without announcing what changed while closed.
      void refresh(false);
      const stopPolling = pollWhileVisible((background) => void refresh(background));
      // A live event (issue 22) reads at once instead of at the next poll; the poll stays as the fallback.
      const stopHearing = onPageEvent(options.tournamentId, (event) => void (event.kind === 'poll' ? undefined : refresh(true, true)));
      return () => {
        stopPolling();
        stopHearing();
      };
    },
  };
}
