import { useStore } from '@nanostores/react';
import { useMemo } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { nextPageHref } from '../../lib/api/paging.ts';
import type { Tournament } from '../../lib/api/tournaments.ts';
import { listTournaments } from '../../lib/api/tournament-list.ts';
import {
  ALL_GAMES,
  DEFAULT_PREFERENCES,
  listQuery,
  SORT_ORDERS,
  STATUS_FILTERS,
  TOURNAMENT_PAGE_SIZE,
  TYPE_FILTERS,
  type ListPreferences,
} from '../../lib/domain/tournament-list.ts';
import { t } from '../../lib/i18n/tournament-list.ts';
import { useHydrated } from '../../lib/hooks/hydration.ts';
import { useMyApplications } from '../../lib/hooks/my-applications.ts';
import { usePages, type PagesState } from '../../lib/hooks/pages.ts';
import { api } from '../../lib/stores/api.ts';
import { $sortOrder, $statusFilter, $typeFilter, resetPreferences } from './preferences.ts';
import { PlaceholderCard, TournamentCard } from './TournamentCard.tsx';

/** Placeholder cards while the list loads (SPEC §9). */
const PLACEHOLDERS = 6;

interface Props {
  /** A game's id, or `ALL_GAMES` for every game's tournaments. */
  gameId: string;
  /** The first page with the default choices, as the server rendered it. */
  initial: PagesState<Tournament>;
}

/**
 * The tournament list of one game: type buttons, status and sort selects, reset (SPEC §2), and a
 * "show more" button under each page. The server renders the first page with the defaults; after
 * hydration the stored choices apply, and each change of a choice loads the first page again, six
 * placeholder cards standing in meanwhile.
 */
export default function TournamentList({ gameId, initial }: Props) {
  // The server cannot read localStorage: the first paint uses the defaults, the stored choices come after.
  const hydrated = useHydrated();
  const storedType = useStore($typeFilter);
  const storedStatus = useStore($statusFilter);
  const storedSort = useStore($sortOrder);
  const prefs: ListPreferences = useMemo(
    () => (hydrated ? { type: storedType, status: storedStatus, sort: storedSort } : DEFAULT_PREFERENCES),
    [hydrated, storedType, storedStatus, storedSort],
  );
  const query = useMemo(() => listQuery(gameId, prefs), [gameId, prefs]);
  const { state, loading, loadMore, moreBusy, moreError } = usePages(
    JSON.stringify(query),
    (offset) => listTournaments(api, { ...query, limit: TOURNAMENT_PAGE_SIZE, offset }),
    { initial, errorText: t('tournaments.loadError'), invalidText: t('tournaments.invalidData') },
  );
  const unfiltered = prefs.type === 'all' && prefs.status === 'all';
  const applied = useMyApplications();

  return (
    <div className="flex flex-col gap-5">
      <div role="group" aria-label={t('tournaments.filtersLabel')} className="flex flex-col gap-3 md:flex-row md:flex-wrap md:items-end">
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium">{t('tournaments.typeLabel')}</legend>
          <div className="grid grid-cols-3 gap-1 rounded-lg bg-surface-2 p-1">
            {TYPE_FILTERS.map((type) => (
              <button
                key={type}
                type="button"
                aria-pressed={prefs.type === type}
                className={`btn px-3 ${prefs.type === type ? 'bg-primary text-primary-fg' : 'text-fg'}`}
                onClick={() => $typeFilter.set(type)}
                disabled={!hydrated}
              >
                {t(`tournaments.type.${type}`)}
              </button>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-3 md:flex md:items-end">
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t('tournaments.statusLabel')}
            <select className="field" value={prefs.status} disabled={!hydrated} onChange={(e) => $statusFilter.set(STATUS_FILTERS.find((s) => s === e.target.value) ?? 'all')}>
              {STATUS_FILTERS.map((status) => (
                <option key={status} value={status}>
                  {t(`tournaments.status.${status}`)}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm font-medium">
            {t('tournaments.sortLabel')}
            <select className="field" value={prefs.sort} disabled={!hydrated} onChange={(e) => $sortOrder.set(SORT_ORDERS.find((s) => s === e.target.value) ?? 'date_desc')}>
              {SORT_ORDERS.map((sort) => (
                <option key={sort} value={sort}>
                  {t(`tournaments.sort.${sort}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <button type="button" className="btn-ghost self-start md:self-end" onClick={resetPreferences} disabled={!hydrated}>
          {t('tournaments.reset')}
        </button>
      </div>

      {loading || !state ? (
        <>
          <p role="status" className="sr-only">
            {t('tournaments.loading')}
          </p>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy="true">
            {Array.from({ length: PLACEHOLDERS }, (_, i) => (
              <PlaceholderCard key={i} />
            ))}
          </ul>
        </>
      ) : state.kind === 'error' ? (
        <Notice tone="error">{state.message}</Notice>
      ) : state.items.length === 0 ? (
        <Notice>{unfiltered ? t('tournaments.empty') : t('tournaments.emptyFiltered')}</Notice>
      ) : (
        <>
          <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {state.items.map((tournament, index) => (
              <TournamentCard
                key={tournament._id}
                tournament={tournament}
                priority={index === 0}
                showGame={gameId === ALL_GAMES}
                applied={applied.get(tournament._id)}
              />
            ))}
          </ul>
          <ShowMore
            more={state.more}
            busy={moreBusy}
            error={moreError}
            onMore={() => void loadMore()}
            href={nextPageHref(`/games/${gameId}`, state.items.length, TOURNAMENT_PAGE_SIZE)}
          />
        </>
      )}
    </div>
  );
}
