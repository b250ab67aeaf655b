import { atom, type ReadableAtom } from 'nanostores';
import type { ApiClient } from '../../lib/api/client.ts';
import { getStages, type StagesState } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { pollWhileVisible } from '../../lib/hooks/poll-while-visible.ts';
import { onPageEvent } from '../../lib/live/events.ts';

/** Issue 21 keeps SPEC §9's bracket poll for the stages: every 5000 ms while the modal is open. */

export interface StagesNotice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

export interface StagesSyncState {
  status: 'loading' | 'ready' | 'error';
  data: StagesState | null;
  /** A change of ours is under way. */
  busy: boolean;
  notice: StagesNotice | null;
}

export interface StagesSync {
  $state: ReadableAtom<StagesSyncState>;
  /** Asks for news (a 304 when none); announces another admin's change. */
  poll(): Promise<void>;
  /**
   * Runs a change of ours (a stage, a result): no poll lands meanwhile, and afterwards the
   * stages are read again without announcing our own change as someone else's.
   */
  change<T>(run: () => Promise<T>): Promise<T>;
  say(notice: StagesNotice | null): void;
  /** Loads at once and polls every POLL_MS while the tab is visible; returns the stop function. */
  watch(): () => void;
}

/**
 * A tournament's stages as the admin's modal keeps them: polled with the ETag (a 304 costs no
 * body), re-read after each change of ours. Results are saved per match with its version, so two
 * admins never overwrite each other; the poll shows each the other's within seconds.
 */
export function createStagesSync(api: ApiClient, tournamentId: string): StagesSync {
  const $state = atom<StagesSyncState>({ status: 'loading', data: null, busy: false, notice: null });
  const update = (changes: Partial<StagesSyncState>) => $state.set({ ...$state.get(), ...changes });
  let etag: string | undefined;
  let epoch = 0;
  let changing = 0;
  /** Reads of the stages as our own change left them, under way: what they find is ours, not another admin's. */
  let settling = 0;

  /** `fresh` when a live event said the server's copy changed: the held copy may not show it yet. */
  async function refresh(announce: boolean, fresh = false): Promise<void> {
    const started = epoch;
    // Our own save's live event may start a read before the read after the save has landed.
    const ours = settling > 0;
    const held = $state.get().data;
    let answer: Awaited<ReturnType<typeof getStages>>;
    try {
      answer = await getStages(api, tournamentId, held ? etag : undefined, fresh);
    } catch (error) {
      // As the bracket modal: a failed poll is only logged; what is on screen stays.
      console.error(error);
      if (!held) update({ status: 'error' });
      return;
    }
    if (started !== epoch || changing > 0) return;
    if (answer.etag) etag = answer.etag;
    if (!answer.state) return;
    const changed = announce && !ours && held !== null && answer.state.version !== held.version;
    update({ status: 'ready', data: answer.state, ...(changed ? { notice: { tone: 'info', text: t('stageAdmin.updatedByOther') } } : {}) });
  }

  return {
    $state,
    poll: () => refresh(true),

    async change(run) {
      epoch++;
      changing++;
      update({ busy: true });
      try {
        return await run();
      } finally {
        changing--;
        epoch++;
        // Busy until the stages as they are after the change are on screen.
        if (changing === 0) {
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

    say: (notice) => update({ notice }),

    watch() {
      update({ notice: null });
      void refresh(false);
      const stopPolling = pollWhileVisible((background) => void refresh(background));
      // A live event (issue 22) reads at once instead of at the next poll; the poll stays as the fallback.
      const stopHearing = onPageEvent(tournamentId, (event) => void (event.kind === 'poll' ? undefined : refresh(true, true)));
      return () => {
        stopPolling();
        stopHearing();
      };
    },
  };
}
