import { useCallback, useEffect, useState } from 'react';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, isNetworkFailure } from '../../lib/api/client.ts';
import { decideVenue, listVenueNetworks, withdrawVenue, type VenueDecision, type VenueNetwork } from '../../lib/api/venue-networks.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { VenueRequestLines, venueTime } from './VenueRequest.tsx';

/**
 * The admin page's venue networks section (issue 57, decision 035): what organisers asked for,
 * waiting ones first with «Схвалити» and «Відхилити», then the approved ones of tournaments not over,
 * which the admin may withdraw as their organisers may.
 */
export default function VenueNetworksPanel() {
  const [list, setList] = useState<VenueNetwork[] | null>(null);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(
    () =>
      listVenueNetworks(api).then(setList, (error: unknown) => {
        setNotice({ tone: 'error', text: errorMessage(error, t('venues.loadError')) });
      }),
    [],
  );

  useEffect(() => {
    void load();
  }, [load]);

  async function run(key: string, change: () => Promise<{ message: string }>) {
    setBusy(key);
    setNotice(null);
    try {
      setNotice({ tone: 'success', text: (await change()).message });
    } catch (caught) {
      setNotice({
        tone: 'error',
        text: isNetworkFailure(caught) ? t('error.connection') : t('venues.failed', { message: errorMessage(caught, t('venues.loadError')) }),
      });
    } finally {
      setBusy(null);
      await load();
    }
  }

  const decide = (request: VenueNetwork, status: VenueDecision) => void run(request._id, () => decideVenue(api, request._id, status));
  const withdraw = (request: VenueNetwork) => {
    if (window.confirm(t('venues.withdrawConfirm', { note: request.note }))) void run(request._id, () => withdrawVenue(api, request.tournament._id));
  };

  const pending = list?.filter((r) => r.status === 'pending') ?? [];
  const approved = list?.filter((r) => r.status === 'approved') ?? [];
  const item = (request: VenueNetwork) => (
    <li key={request._id} className="flex flex-col gap-1 rounded-lg bg-surface-2 px-3 py-2" data-venue-request={request._id}>
      <p className="font-semibold wrap-anywhere">{request.note}</p>
      <a href={`/tournaments/${request.tournament._id}`} className="text-sm wrap-anywhere">
        {t('venues.tournament', { title: request.tournament.title, date: venueTime(request.tournament.date) })}
      </a>
      <VenueRequestLines request={request} />
      <div className="mt-1 flex flex-wrap gap-2">
        {request.status === 'pending' ? (
          <>
            <button type="button" className="btn-primary min-h-11 px-3 text-sm" disabled={busy !== null} onClick={() => decide(request, 'approved')}>
              {t('venues.approve')}
            </button>
            <button type="button" className="btn-ghost min-h-11 px-3 text-sm text-danger" disabled={busy !== null} onClick={() => decide(request, 'refused')}>
              {t('venues.refuse')}
            </button>
          </>
        ) : (
          <button type="button" className="btn-ghost min-h-11 px-3 text-sm text-danger" disabled={busy !== null} onClick={() => withdraw(request)}>
            {t('venues.withdraw')}
          </button>
        )}
      </div>
    </li>
  );

  return (
    <section className="card flex flex-col gap-4" aria-labelledby="venue-networks-title">
      <div className="flex flex-col gap-1">
        <h2 id="venue-networks-title" className="text-lg font-bold">
          {t('venues.adminTitle')}
        </h2>
        <p className="text-sm text-muted">{t('venues.adminIntro')}</p>
      </div>
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {list && (
        <>
          <section aria-labelledby="venue-networks-pending" className="flex flex-col gap-2">
            <h3 id="venue-networks-pending" className="font-bold">
              {t('venues.pendingTitle')} <span className="text-muted">· {pending.length}</span>
            </h3>
            {pending.length === 0 ? (
              <p className="text-sm text-muted">{t('venues.nonePending')}</p>
            ) : (
              <ul className="flex flex-col gap-2">{pending.map(item)}</ul>
            )}
          </section>
          <section aria-labelledby="venue-networks-approved" className="flex flex-col gap-2">
            <h3 id="venue-networks-approved" className="font-bold">
              {t('venues.approvedTitle')} <span className="text-muted">· {approved.length}</span>
            </h3>
            {approved.length === 0 ? (
              <p className="text-sm text-muted">{t('venues.noneApproved')}</p>
            ) : (
              <ul className="flex flex-col gap-2">{approved.map(item)}</ul>
            )}
          </section>
        </>
      )}
    </section>
  );
}
