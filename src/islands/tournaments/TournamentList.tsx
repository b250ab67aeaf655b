import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { listTournaments, type Tournament } from '../../lib/api/tournaments.ts';
import {
  arrangeTournaments,
  DEFAULT_PREFERENCES,
  SORT_ORDERS,
  soloOnlyQuery,
  STATUS_FILTERS,
  TYPE_FILTERS,
  type ListPreferences,
  type TypeFilter,
} from '../../lib/domain/tournament-list.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/session.ts';
import { $sortOrder, $statusFilter, $typeFilter, resetPreferences } from './preferences.ts';
import { PlaceholderCard, TournamentCard } from './TournamentCard.tsx';
import { useHydrated } from '../../lib/stores/hydration.ts';

/** Placeholder cards while the list loads (SPEC §9). */
const PLACEHOLDERS = 6;

interface Props {
  gameId: string;
  /** The game's tournaments of every type, as the server rendered them; null when that failed. */
  initial: Tournament[] | null;
  initialError?: string | null;
}

type Load = { state: 'loaded'; list: Tournament[]; type: TypeFilter } | { state: 'error'; message: string; type: TypeFilter };

/**
 * The tournament list of one game: type buttons, status and sort selects, reset (SPEC §2). The
 * server renders it with the defaults; after hydration the stored choices apply, and each change
 * of type loads the list again, six placeholder cards standing in meanwhile.
 */
export default function TournamentList({ gameId, initial, initialError = null }: Props) {
  // The server cannot read localStorage: the first paint uses the defaults, the stored choices come after.
  const hydrated = useHydrated();
  const storedType = useStore($typeFilter);
  const storedStatus = useStore($statusFilter);
  const storedSort = useStore($sortOrder);
  const prefs: ListPreferences = useMemo(
    () => (hydrated ? { type: storedType, status: storedStatus, sort: storedSort } : DEFAULT_PREFERENCES),
    [hydrated, storedType, storedStatus, storedSort],
  );

  const [load, setLoad] = useState<Load>(
    initial ? { state: 'loaded', list: initial, type: 'all' } : { state: 'error', message: initialError ?? t('tournaments.loadError'), type: 'all' },
  );
  const request = useRef(0);

  useEffect(() => {
    if (!hydrated || load.type === prefs.type) return;
    const ticket = ++request.current;
    const type = prefs.type;
    const soloOnly = soloOnlyQuery(type);
    listTournaments(api, { game: gameId, ...(soloOnly === undefined ? {} : { soloOnly }) })
      .then((list) => {
        if (ticket !== request.current) return;
        setLoad(Array.isArray(list) ? { state: 'loaded', list, type } : { state: 'error', message: t('tournaments.invalidData'), type });
      })
      .catch((error: unknown) => {
        if (ticket === request.current) setLoad({ state: 'error', message: errorMessage(error, t('tournaments.loadError')), type });
      });
  }, [hydrated, prefs.type, load.type, gameId]);

  const loading = hydrated && load.type !== prefs.type;
  const shown = useMemo(() => (load.state === 'loaded' ? arrangeTournaments(load.list, prefs) : []), [load, prefs]);

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

      {loading ? (
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
      ) : load.state === 'error' ? (
        <Notice tone="error">{load.message}</Notice>
      ) : load.list.length === 0 && prefs.type === 'all' ? (
        <Notice>{t('tournaments.empty')}</Notice>
      ) : shown.length === 0 ? (
        <Notice>{t('tournaments.emptyFiltered')}</Notice>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {shown.map((tournament, index) => (
            <TournamentCard key={tournament._id} tournament={tournament} priority={index === 0} />
          ))}
        </ul>
      )}
    </div>
  );
}
