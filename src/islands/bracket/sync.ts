import type { ReadableAtom } from 'nanostores';
import { createTournamentBracket, getBracket, saveBracket, type BracketState } from '../../lib/api/bracket.ts';
import { errorMessage, HTTPError, type ApiClient } from '../../lib/api/client.ts';
import type { Bracket, Seeding } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import { versionedCopy, type CopyState, type Notice } from '../../lib/live/versioned-copy.ts';

export type BracketNotice = Notice;

/** What is shown: the server's copy, or an edit on its way there; `busy` while a save or a creation is under way. */
export type BracketSyncState = CopyState<BracketState>;

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
 * with the version it was based on (lib/live/versioned-copy.ts). A save answered 409 shows the
 * server's newer bracket; any other failed save goes back to the last server copy. A poll that raced
 * a save of ours is dropped, so our own save is never announced as another admin's.
 */
export function createBracketSync(api: ApiClient, tournamentId: string): BracketSync {
  const copy = versionedCopy<BracketState>({
    tournamentId,
    read: async (etag, fresh) => {
      const answer = await getBracket(api, tournamentId, etag, fresh);
      return { state: answer.state && asState(answer.state), etag: answer.etag };
    },
    changedByOther: () => t('bracket.updatedByOther'),
  });
  const { update } = copy;

  return {
    $state: copy.$state,
    poll: () => copy.refresh(true),

    save(next) {
      const base = copy.server();
      if (!base) return Promise.resolve(false);
      return copy.change(async () => {
        update({ data: { ...base, bracket: next }, notice: null });
        try {
          const saved = await saveBracket(api, tournamentId, { bracket: next, version: base.version });
          copy.adopt(asState(saved), { tone: 'success', text: saved.message });
          return true;
        } catch (error) {
          if (error instanceof HTTPError && error.response.status === 409 && isBracketAnswer(error.data)) {
            copy.adopt(asState(error.data), { tone: 'error', text: error.data.message });
          } else {
            update({ data: copy.server(), notice: { tone: 'error', text: errorMessage(error, t('bracket.saveError')) } });
          }
          return false;
        }
      });
    },

    create(seeding, replace) {
      return copy.change(async (): Promise<CreateOutcome> => {
        update({ notice: null });
        try {
          const created = await createTournamentBracket(api, tournamentId, { seeding, replace });
          copy.adopt(asState(created), { tone: 'success', text: created.message });
          return 'created';
        } catch (error) {
          update({ notice: { tone: 'error', text: errorMessage(error, t('bracket.createError')) } });
          return error instanceof HTTPError && error.response.status === 409 ? 'needsReplace' : 'failed';
        }
      });
    },

    watch: () => copy.watch(),
    dismiss: () => update({ notice: null }),
  };
}
