import { atom, type ReadableAtom } from 'nanostores';
import { createTournamentBracket, getBracket, saveBracket, type BracketState } from '../../lib/api/bracket.ts';
import { errorMessage, HTTPError, type ApiClient } from '../../lib/api/client.ts';
import type { Bracket, Seeding } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import { pollWhileVisible } from '../../lib/hooks/poll-while-visible.ts';
import { onPageEvent } from '../../lib/live/events.ts';

export interface BracketNotice {
  tone: 'info' | 'success' | 'error';
  text: string;
}

export interface BracketSyncState {
  status: 'loading' | 'ready' | 'error';
  /** What is shown: the server's copy, or an edit on its way there. */
  data: BracketState | null;
  /** A save or a creation is under way. */
  busy: boolean;
  notice: BracketNotice | null;
}

/** created; needsReplace when the server refused to draw over results (409); failed otherwise. */
export type CreateOutcome = 'created' | 'needsReplace' | 'failed';

export interface BracketSync {
  $state: ReadableAtom<BracketSyncState>;
  /** Asks the server for news (a 304 when none); replaces our copy when the server's differs. */
  poll(): Promise<void>;
  /** Saves an edited bracket based on the last server copy; false when it was refused and reverted. */
  save(next: Bracket): Promise<boolean>;
  create(seeding: Seeding, replace: boolean): Promise<CreateOutcome>;
  /** Loads at once and polls every POLL_MS while the tab is visible; returns the stop function. */
  watch(): () => void;
  dismiss(): void;
}

const asState = ({ tournament, bracket, version, participants, soloOnly }: BracketState): BracketState => ({
  tournament,
  bracket,
  version,
  participants,
  soloOnly,
});

const isBracketAnswer = (data: unknown): data is BracketState & { message: string } =>
  typeof data === 'object' && data !== null && 'bracket' in data && 'version' in data && 'participants' in data && 'message' in data;

/**
 * The bracket of one tournament as the modal keeps it (SPEC §4, §8): polled with its ETag, saved
 * with the version it was based on. A save answered 409 shows the server's newer bracket; any
 * other failed save goes back to the last server copy. A poll that raced a save of ours is
 * dropped, so our own save is never announced as another admin's.
 */
export function createBracketSync(api: ApiClient, tournamentId: string): BracketSync {
  const $state = atom<BracketSyncState>({ status: 'loading', data: null, busy: false, notice: null });
  const update = (changes: Partial<BracketSyncState>) => $state.set({ ...$state.get(), ...changes });

  /** The last copy the server confirmed: what a failed save reverts to and what saves are based on. */
  let server: BracketState | null = null;
  let etag: string | undefined;
  /** Bumped when a change of ours starts or ends: a poll begun before it is stale. */
  let epoch = 0;
  let changing = 0;

  /** `fresh` when a live event said the server's copy changed: the held copy may not show it yet. */
  async function refresh(announce: boolean, fresh = false): Promise<void> {
    if (changing > 0) return;
    const started = epoch;
    let answer: Awaited<ReturnType<typeof getBracket>>;
    try {
      answer = await getBracket(api, tournamentId, server ? etag : undefined, fresh);
    } catch (error) {
      // SPEC §8: a failed bracket load is only logged; the copy on screen stays.
      console.error(error);
      if (!server) update({ status: 'error' });
      return;
    }
    if (started !== epoch || changing > 0) return;
    if (answer.etag) etag = answer.etag;
    if (!answer.state) return;
    const changed = announce && server !== null && answer.state.version !== server.version;
    server = asState(answer.state);
    update({ status: 'ready', data: server, ...(changed ? { notice: { tone: 'info', text: t('bracket.updatedByOther') } } : {}) });
  }

  /** Runs a change of ours: no poll result lands while it is under way. */
  async function change<T>(run: () => Promise<T>): Promise<T> {
    epoch++;
    changing++;
    update({ busy: true });
    try {
      return await run();
    } finally {
      changing--;
      epoch++;
      // Our saves make the ETag we hold out of date: the next poll answers 200 with our own version.
      update({ busy: changing > 0 });
    }
  }

  function adopt(answer: BracketState, notice: BracketNotice) {
    server = asState(answer);
    update({ status: 'ready', data: server, notice });
  }

  return {
    $state,
    poll: () => refresh(true),

    save(next) {
      const base = server;
      if (!base) return Promise.resolve(false);
      return change(async () => {
        update({ data: { ...base, bracket: next }, notice: null });
        try {
          const saved = await saveBracket(api, tournamentId, { bracket: next, version: base.version });
          adopt(saved, { tone: 'success', text: saved.message });
          return true;
        } catch (error) {
          if (error instanceof HTTPError && error.response.status === 409 && isBracketAnswer(error.data)) {
            adopt(error.data, { tone: 'error', text: error.data.message });
          } else {
            update({ data: server, notice: { tone: 'error', text: errorMessage(error, t('bracket.saveError')) } });
          }
          return false;
        }
      });
    },

    create(seeding, replace) {
      return change(async (): Promise<CreateOutcome> => {
        update({ notice: null });
        try {
          const created = await createTournamentBracket(api, tournamentId, { seeding, replace });
          adopt(created, { tone: 'success', text: created.message });
          return 'created';
        } catch (error) {
          update({ notice: { tone: 'error', text: errorMessage(error, t('bracket.createError')) } });
          return error instanceof HTTPError && error.response.status === 409 ? 'needsReplace' : 'failed';
        }
      });
    },

    watch() {
      update({ notice: null });
      // Opening (again) shows the current bracket without announcing what changed while closed.
      void refresh(false);
      const stopPolling = pollWhileVisible((background) => void refresh(background));
      // A live event (issue 22) reads at once instead of at the next poll; the poll stays as the fallback.
      const stopHearing = onPageEvent(tournamentId, (event) => void (event.kind === 'poll' ? undefined : refresh(true, true)));
      return () => {
        stopPolling();
        stopHearing();
      };
    },

    dismiss: () => update({ notice: null }),
  };
}
