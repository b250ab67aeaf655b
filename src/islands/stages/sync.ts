import type { ReadableAtom } from 'nanostores';
import type { ApiClient } from '../../lib/api/client.ts';
import { getStages, type StagesState } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { versionedCopy, type CopyState, type Notice } from '../../lib/live/versioned-copy.ts';

/** Issue 21 keeps SPEC §9's bracket poll for the stages: every 5000 ms while the modal is open. */

export type StagesNotice = Notice;

export type StagesSyncState = CopyState<StagesState>;

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
 * A tournament's stages as the admin's modal keeps them (lib/live/versioned-copy.ts): polled with
 * the ETag, re-read after each change of ours. Results are saved per match with its version, so two
 * admins never overwrite each other; the poll shows each the other's within seconds.
 */
export function createStagesSync(api: ApiClient, tournamentId: string): StagesSync {
  const copy = versionedCopy<StagesState>({
    tournamentId,
    read: (etag, fresh) => getStages(api, tournamentId, etag, fresh),
    changedByOther: () => t('stageAdmin.updatedByOther'),
    readAfterChange: true,
  });
  return {
    $state: copy.$state,
    poll: () => copy.refresh(true),
    change: (run) => copy.change(run),
    say: (notice) => copy.update({ notice }),
    watch: () => copy.watch(),
  };
}
