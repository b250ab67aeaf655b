import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { ApplicationList, STATUS_TONE } from '../../components/ApplicationList.tsx';
import { listApplications, reviewApplication, type AdminApplication } from '../../lib/api/applications.ts';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { getTournament } from '../../lib/api/tournaments.ts';
import { reviewRefusal, type ApplicationStatus } from '../../lib/domain/application-rules.ts';
import { formatDay } from '../../lib/domain/tournament-dates.ts';
import { t } from '../../lib/i18n/index.ts';
import { usePages } from '../../lib/hooks/pages.ts';
import { api } from '../../lib/stores/api.ts';
import { addressNarrowedTo } from './applications-address.ts';

/** The list shows pending applications first of all, or every one. */
type Filter = Extract<ApplicationStatus, 'pending'> | 'all';

/** Applications per page of the list. */
const APPLICATIONS_PAGE_SIZE = 20;

/** The one tournament the list shows; its title is read when the address named only its id. */
type Only = { id: string; title: string | null };

interface Props {
  /** The tournament the page's address narrows the list to (`?tournament=<id>`, see applications-address.ts). */
  tournament?: string | undefined;
}

/** Admin: applications with approve and reject (pending ones first), and delete after a confirmation (SPEC §2 Admin panel). */
export default function ApplicationsPanel({ tournament }: Props) {
  const [filter, setFilter] = useState<Filter>('pending');
  // One tournament's applications (issue 57), chosen from a row of it or named by the address.
  const [only, setOnly] = useState<Only | null>(tournament ? { id: tournament, title: null } : null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  // Bumped after every change, so the list is fetched again.
  const [version, setVersion] = useState(0);

  // The last answer stays up while a change reloads the list, so the rows do not blink.
  const { shown: list, loading, loadMore, moreBusy, moreError } = usePages(
    JSON.stringify([filter, only?.id, version]),
    (offset) =>
      listApplications(api, { ...(filter === 'pending' ? { status: 'pending' } : {}), ...(only ? { tournament: only.id } : {}), limit: APPLICATIONS_PAGE_SIZE, offset }),
    { errorText: t('applications.loadError') },
  );

  async function act(id: string, run: () => Promise<{ message: string }>, fallback: string) {
    setBusyId(id);
    setMessage(null);
    try {
      const done = await run();
      setMessage({ tone: 'success', text: t('manage.success', { message: done.message }) });
    } catch (error) {
      const text = isNetworkFailure(error) ? t('applications.networkError') : t('applications.failed', { message: errorMessage(error, fallback) });
      setMessage({ tone: 'error', text });
    } finally {
      setBusyId(null);
      setVersion((v) => v + 1);
    }
  }

  // Narrowed by the address: the title comes from the tournament (its list may be empty); failing that, the id stands for it.
  const untitled = only?.title === null ? only.id : null;
  useEffect(() => {
    if (!untitled) return;
    let current = true;
    const titled = (title: string) => {
      if (current) setOnly((shown) => (shown?.id === untitled ? { id: untitled, title } : shown));
    };
    getTournament(api, untitled).then(
      (detail) => titled(detail.title),
      () => titled(untitled),
    );
    return () => {
      current = false;
    };
  }, [untitled]);

  /** Narrows the list to one tournament, or to none; the address says so too, so a reload keeps it. */
  function narrow(next: Only | null) {
    setOnly(next);
    window.history.replaceState(window.history.state, '', addressNarrowedTo(window.location.href, next?.id ?? null));
  }

  const name = (a: AdminApplication) => (a.team ? t('applications.teamEntry', { team: a.team.name, user: a.user.username }) : t('applications.soloEntry', { user: a.user.username }));

  return (
    <section aria-labelledby="applications-panel-title" aria-busy={loading} className="card flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="applications-panel-title" className="text-xl font-bold">
          {t('applications.title')}
        </h2>
        <div className="flex gap-1 rounded-lg bg-surface-2 p-1" role="group" aria-label={t('applications.title')}>
          {(['pending', 'all'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={filter === value}
              className={`btn px-3 py-1 ${filter === value ? 'bg-primary text-primary-fg' : 'text-fg'}`}
              onClick={() => setFilter(value)}
            >
              {t(value === 'pending' ? 'applications.showPending' : 'applications.showAll')}
            </button>
          ))}
        </div>
      </div>
      {only && (
        <p className="flex flex-wrap items-center gap-2 text-sm">
          {only.title !== null && <span className="font-semibold wrap-anywhere">{t('applications.tournamentFilter', { title: only.title })}</span>}
          <button type="button" className="btn-ghost px-3 py-1 text-sm" onClick={() => narrow(null)}>
            {t('applications.clearFilter')}
          </button>
        </p>
      )}
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {list === null ? (
        <p className="text-sm text-muted">{t('manage.loading')}</p>
      ) : list.kind === 'error' ? (
        <Notice tone="error">{t('manage.error', { message: list.message })}</Notice>
      ) : list.items.length === 0 ? (
        <p className="text-sm text-muted">{t('applications.empty')}</p>
      ) : (
        <ApplicationList
          applications={list.items}
          label={name}
          allowed={(a, to) => a.status !== to && reviewRefusal({ bracketDrawn: a.tournamentDrawn, from: a.status, to }) === null}
          busy={busyId !== null}
          onReview={(a, to) => void act(a._id, () => reviewApplication(api, a._id, to), t(to === 'deleted' ? 'applications.deleteError' : 'applications.statusError'))}
          describe={(a) => (
            <div className="flex min-w-0 flex-col gap-0.5">
              <span className="flex min-w-0 flex-wrap items-baseline gap-x-2">
                <a href={`/tournaments/${a.tournament}`} className="truncate font-semibold">
                  {a.tournamentTitle}
                </a>
                {!only && (
                  <button type="button" className="text-xs text-primary underline" onClick={() => narrow({ id: a.tournament, title: a.tournamentTitle })}>
                    {t('applications.onlyTournament')}
                  </button>
                )}
              </span>
              <span className="text-sm">{name(a)}</span>
              <span className="text-xs text-muted">
                {formatDay(a.createdAt)} · <span className={STATUS_TONE[a.status]}>{t(`applications.state.${a.status}`)}</span>
                {a.checkedInAt && ` · ${t('applications.checkedIn')}`}
                {a.comment && ` · ${a.comment}`}
              </span>
            </div>
          )}
        />
      )}
      {list?.kind === 'loaded' && <ShowMore more={list.more} busy={moreBusy || loading} error={moreError} onMore={() => void loadMore()} />}
    </section>
  );
}
