import { Notice } from '../../components/Notice.tsx';
import { ShowMore } from '../../components/ShowMore.tsx';
import { listSuspended } from '../../lib/api/organisations.ts';
import { usePages } from '../../lib/hooks/pages.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

/**
 * The admin page's organisations section (issue 56): the suspended ones, the latest first, with
 * why and since when, each linked to its manage page, where the suspension is lifted. The public
 * directory no longer lists them, so this is where the platform's admin finds them again.
 */
export default function SuspendedOrganisations() {
  const { state, loading, loadMore, moreBusy, moreError } = usePages('suspended', (offset) => listSuspended(api, { offset }), {
    errorText: t('org.directory.loadError'),
  });

  return (
    <section className="card flex flex-col gap-3" aria-labelledby="suspended-organisations">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="suspended-organisations" className="text-lg font-bold">
          {t('org.suspendedList.title')}
        </h2>
        <a className="btn-ghost" href="/organisations">
          {t('org.directory.title')}
        </a>
      </div>
      <p className="text-sm text-muted">{t('org.suspendedList.hint')}</p>
      {state?.kind === 'error' && <Notice tone="error">{state.message}</Notice>}
      {loading && <p className="text-muted">{t('org.manage.loading')}</p>}
      {state?.kind === 'loaded' && state.items.length === 0 && <p className="text-muted">{t('org.suspendedList.none')}</p>}
      {state?.kind === 'loaded' && state.items.length > 0 && (
        <ul className="flex flex-col gap-2">
          {state.items.map((organisation) => (
            <li key={organisation._id} className="flex flex-col gap-1 rounded-lg bg-surface-2 px-3 py-2">
              <a href={`/org/${organisation.slug}/manage`} className="font-semibold wrap-anywhere">
                {organisation.name}
              </a>
              <p className="text-sm wrap-anywhere">
                {t('org.suspendedList.since', { date: formatDateTime(organisation.suspended.at) })} {organisation.suspended.reason}
              </p>
            </li>
          ))}
        </ul>
      )}
      {state?.kind === 'loaded' && <ShowMore more={state.more} busy={moreBusy || loading} error={moreError} onMore={() => void loadMore()} />}
    </section>
  );
}
