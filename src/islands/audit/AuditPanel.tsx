import { useEffect, useRef, useState } from 'react';
import { auditText } from '../../components/audit-words.ts';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { getAuditLog, type AdminAuditEntry } from '../../lib/api/audit-calls.ts';
import { HISTORY_PAGE, type AuditQuery } from '../../lib/api/audit-query.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { listTournaments } from '../../lib/api/tournament-list.ts';
import { AUDIT_KINDS, type AuditKind } from '../../lib/domain/organisers.ts';
import { formatDateTime, readerTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

interface Filters {
  tournament: string;
  kind: AuditKind | '';
  actor: { id: string; name: string } | null;
  /** Days as the date inputs give them (YYYY-MM-DD), in the reader's zone; `to` included. */
  from: string;
  to: string;
}

const NO_FILTERS: Filters = { tournament: '', kind: '', actor: null, from: '', to: '' };

/** A day's start in the reader's zone, as the API's ISO moment; `next` for the day after (the range's end, not included). */
function dayStart(day: string, next = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + (next ? 1 : 0)).toISOString();
}

const queryOf = (f: Filters): AuditQuery => ({
  limit: HISTORY_PAGE,
  tournament: f.tournament || undefined,
  kind: f.kind || undefined,
  actor: f.actor?.id,
  from: dayStart(f.from),
  to: dayStart(f.to, true),
});

type Shown = { kind: 'loaded'; items: AdminAuditEntry[]; more: boolean } | { kind: 'error'; message: string };

/**
 * Admin: the whole audit log (issue 23), newest first — who, when, what, before → after — filtered
 * by tournament, kind, actor (a name in a row narrows the log to that person) and days. The log is
 * only read: nothing here changes an entry.
 */
export default function AuditPanel() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [shown, setShown] = useState<Shown | null>(null);
  const [moreBusy, setMoreBusy] = useState(false);
  const [moreError, setMoreError] = useState<string | null>(null);
  const [tournaments, setTournaments] = useState<{ _id: string; title: string }[]>([]);
  // The filters the latest request was for: an answer to older ones is dropped.
  const asked = useRef(filters);

  useEffect(() => {
    listTournaments(api, { limit: 100 })
      .then((page) => setTournaments(page.items.map(({ _id, title }) => ({ _id, title }))))
      // The list is a convenience: without it the other filters still work.
      .catch(() => undefined);
  }, []);

  useEffect(() => {
    asked.current = filters;
    getAuditLog(api, queryOf(filters))
      .then((page) => asked.current === filters && setShown({ kind: 'loaded', items: page.items, more: page.more }))
      .catch((error: unknown) => asked.current === filters && setShown({ kind: 'error', message: errorMessage(error, t('audit.loadError')) }));
  }, [filters]);

  async function loadMore() {
    if (shown?.kind !== 'loaded') return;
    const at = filters;
    setMoreBusy(true);
    setMoreError(null);
    try {
      const page = await getAuditLog(api, { ...queryOf(at), before: shown.items.at(-1)?._id });
      if (asked.current === at) setShown({ kind: 'loaded', items: [...shown.items, ...page.items], more: page.more });
    } catch (error) {
      if (asked.current === at) setMoreError(errorMessage(error, t('audit.loadError')));
    } finally {
      setMoreBusy(false);
    }
  }

  // A new filter starts a new list: the last one's «show more» failure no longer applies.
  const choose = (next: (current: Filters) => Filters) => {
    setMoreError(null);
    setFilters(next);
  };
  const set = (change: Partial<Filters>) => choose((current) => ({ ...current, ...change }));
  const filtered = JSON.stringify(filters) !== JSON.stringify(NO_FILTERS);

  return (
    <section aria-labelledby="audit-panel-title" className="card flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="audit-panel-title" className="text-xl font-bold">
          {t('audit.title')}
        </h2>
        <p className="text-sm text-muted">{t('audit.intro')}</p>
      </div>
      <form className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label={t('audit.filters')} onSubmit={(event) => event.preventDefault()}>
        <label className="flex flex-col gap-1 text-sm">
          {t('audit.tournament')}
          <select className="field min-h-11" value={filters.tournament} onChange={(event) => set({ tournament: event.target.value })}>
            <option value="">{t('audit.allTournaments')}</option>
            {tournaments.map((each) => (
              <option key={each._id} value={each._id}>
                {each.title}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('audit.kind')}
          <select className="field min-h-11" value={filters.kind} onChange={(event) => set({ kind: event.target.value as AuditKind | '' })}>
            <option value="">{t('audit.allKinds')}</option>
            {AUDIT_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`audit.kind.${kind}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('audit.from')}
          <input type="date" className="field min-h-11" value={filters.from} max={filters.to || undefined} onChange={(event) => set({ from: event.target.value })} />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          {t('audit.to')}
          <input type="date" className="field min-h-11" value={filters.to} min={filters.from || undefined} onChange={(event) => set({ to: event.target.value })} />
        </label>
      </form>
      {filtered && (
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {filters.actor && (
            <span className="flex items-center gap-2 rounded-full bg-surface-2 py-1 pr-1 pl-3">
              {t('audit.actorOnly', { name: filters.actor.name })}
              <button type="button" className="btn-ghost px-2 py-0.5" onClick={() => set({ actor: null })}>
                {t('audit.allActors')}
              </button>
            </span>
          )}
          {filtered && (
            <button type="button" className="btn-ghost px-3 py-1" onClick={() => choose(() => NO_FILTERS)}>
              {t('audit.reset')}
            </button>
          )}
        </div>
      )}
      {shown === null ? (
        <p className="text-sm text-muted">{t('audit.loading')}</p>
      ) : shown.kind === 'error' ? (
        <Notice tone="error">{shown.message}</Notice>
      ) : shown.items.length === 0 ? (
        <p className="text-sm text-muted">{t('audit.empty')}</p>
      ) : (
        <ol className="flex flex-col divide-y divide-line" aria-label={t('audit.title')}>
          {shown.items.map((entry) => (
            <li key={entry._id} className="flex flex-col gap-1 py-2 text-sm">
              <span className="wrap-anywhere">{entry.match ? <a href={`/matches/${entry.match}`}>{auditText(entry)}</a> : auditText(entry)}</span>
              <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
                <time dateTime={entry.at}>{formatDateTime(entry.at, { timeZone: readerTimeZone() })}</time>
                <span className="rounded bg-surface-2 px-1.5 py-0.5">{t(`audit.kind.${entry.kind}`)}</span>
                {entry.tournament &&
                  (entry.tournamentTitle !== null ? (
                    <a href={`/tournaments/${entry.tournament}`} className="wrap-anywhere">
                      {entry.tournamentTitle}
                    </a>
                  ) : (
                    <span>{t('audit.deletedTournament')}</span>
                  ))}
                {entry.actor?._id ? (
                  <button
                    type="button"
                    className="underline decoration-dotted underline-offset-2 hover:text-fg"
                    title={t('audit.filterByActor', { name: entry.actor.username })}
                    onClick={() => set({ actor: { id: entry.actor!._id!, name: entry.actor!.username } })}
                  >
                    {t('history.by', { name: entry.actor.username || t('history.unknown') })}
                  </button>
                ) : (
                  <span>{t('audit.server')}</span>
                )}
              </span>
            </li>
          ))}
        </ol>
      )}
      {shown?.kind === 'loaded' && <ShowMore more={shown.more} busy={moreBusy} error={moreError} onMore={() => void loadMore()} />}
    </section>
  );
}
