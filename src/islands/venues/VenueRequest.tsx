import type { VenueNetwork } from '../../lib/api/venue-networks.ts';
import { formatDateTime, readerTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';

/** A moment on the reader's clock, as the control room shows times. */
export const venueTime = (iso: string) => formatDateTime(iso, { timeZone: readerTimeZone() });

/** A request's state in a line: its status, and who asked and decided when. */
export function VenueRequestLines({ request }: { request: VenueNetwork }) {
  return (
    <>
      <p className="text-sm">
        <span className={`font-semibold ${request.status === 'approved' ? 'text-success' : request.status === 'refused' ? 'text-danger' : ''}`}>
          {t(`venues.status.${request.status}`)}
        </span>
        {request.inEffect && <span className="ml-2 font-semibold text-success">· {t('venues.inEffect')}</span>}
      </p>
      <p className="font-mono text-sm wrap-anywhere">{request.networks.join(', ')}</p>
      <p className="text-sm text-muted">{t('venues.window', { from: venueTime(request.window.from), until: venueTime(request.window.until) })}</p>
      {request.requestedBy && (
        <p className="text-xs text-muted">{t('venues.requestedBy', { name: request.requestedBy.username, time: venueTime(request.requestedAt) })}</p>
      )}
      {request.decidedBy && request.decidedAt && (
        <p className="text-xs text-muted">{t('venues.decidedBy', { name: request.decidedBy.username, time: venueTime(request.decidedAt) })}</p>
      )}
    </>
  );
}
