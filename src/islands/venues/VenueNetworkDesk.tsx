import { useCallback, useEffect, useState, type SubmitEvent } from 'react';
import { Field } from '../../components/Field.tsx';
import { Notice, type NoticeTone } from '../../components/Notice.tsx';
import { errorMessage, HTTPError, isNetworkFailure } from '../../lib/api/client.ts';
import { askForVenue, getTournamentVenue, withdrawVenue, type TournamentVenue } from '../../lib/api/venue-networks.ts';
import { MAX_VENUE_NETWORKS, VENUE_NOTE_MAX, venueEntries } from '../../lib/domain/venue-networks.ts';
import { useHydratedStore } from '../../lib/hooks/hydration.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';
import { VenueRequestLines, venueTime } from './VenueRequest.tsx';

/**
 * The control room's venue network (issue 57, decision 035): its organisers ask the site's admin to
 * leave their hall's addresses out of the per-address limits for the tournament's window, see
 * whether it was approved, and withdraw it. Nothing for a reader who organises nothing here (the
 * server answers 401/403, and the control room says so itself).
 */
export default function VenueNetworkDesk({ tournamentId }: { tournamentId: string }) {
  const user = useHydratedStore($user, null);
  const [venue, setVenue] = useState<TournamentVenue | null>(null);
  const [hidden, setHidden] = useState(false);
  const [notice, setNotice] = useState<{ tone: NoticeTone; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(
    () =>
      getTournamentVenue(api, tournamentId).then(setVenue, (error: unknown) => {
        if (error instanceof HTTPError && [401, 403, 404].includes(error.response.status)) setHidden(true);
        else setNotice({ tone: 'error', text: errorMessage(error, t('venues.loadError')) });
      }),
    [tournamentId],
  );

  useEffect(() => {
    if (user) void load();
  }, [user, load]);

  if (!user || hidden || (!venue && !notice)) return null;

  async function run(change: () => Promise<{ message: string }>, onDone?: () => void) {
    setBusy(true);
    setNotice(null);
    try {
      const done = await change();
      setNotice({ tone: 'success', text: done.message });
      onDone?.();
    } catch (caught) {
      setNotice({
        tone: 'error',
        text: isNetworkFailure(caught) ? t('error.connection') : t('venues.failed', { message: errorMessage(caught, t('venues.loadError')) }),
      });
    } finally {
      setBusy(false);
      await load();
    }
  }

  function onAsk(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const body = { networks: venueEntries(String(data.get('networks') ?? '')), note: String(data.get('note') ?? '').trim() };
    void run(
      () => askForVenue(api, tournamentId, body),
      () => form.reset(),
    );
  }

  const request = venue?.request ?? null;
  const live = request && (request.status === 'pending' || request.status === 'approved');
  return (
    <section aria-labelledby="venue-network-title" className="card flex flex-col gap-3">
      <h2 id="venue-network-title" className="text-lg font-bold">
        {t('venues.title')}
      </h2>
      {venue && <p className="text-sm text-muted">{t('venues.hint', { from: venueTime(venue.window.from), until: venueTime(venue.window.until) })}</p>}
      {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      {request && (
        <div className="flex flex-col gap-1 rounded-lg bg-surface-2 px-3 py-2">
          <p className="font-semibold wrap-anywhere">{request.note}</p>
          <VenueRequestLines request={request} />
          {live && (
            <button
              type="button"
              className="btn-ghost mt-1 min-h-11 self-start px-3 text-sm text-danger"
              disabled={busy}
              onClick={() => {
                if (window.confirm(t('venues.withdrawConfirm', { note: request.note }))) void run(() => withdrawVenue(api, tournamentId));
              }}
            >
              {t('venues.withdraw')}
            </button>
          )}
          {request.status === 'refused' && <p className="text-sm text-muted">{t('venues.askAgain')}</p>}
        </div>
      )}
      {venue && !venue.open && !live && <p className="text-sm text-muted">{t('venues.closed')}</p>}
      {venue?.open && !live && (
        <form onSubmit={onAsk} noValidate className="flex flex-col gap-3">
          <Field
            label={t('venues.networks', { max: MAX_VENUE_NETWORKS })}
            id="venue-networks"
            name="networks"
            placeholder={t('venues.networksHint')}
            autoComplete="off"
            spellCheck={false}
            limit={MAX_VENUE_NETWORKS * 45}
          />
          <Field label={t('venues.note')} id="venue-note" name="note" limit={VENUE_NOTE_MAX} autoComplete="off" />
          <button type="submit" className="btn-primary self-start" disabled={busy}>
            {busy ? t('venues.asking') : t('venues.ask')}
          </button>
        </form>
      )}
    </section>
  );
}
