import type { ReactNode } from 'react';
import { formatDateTime } from '../../lib/i18n/format.ts';
import type { OrganisationEvent } from '../../lib/domain/organisation-events.ts';
import { t } from '../../lib/i18n/index.ts';

export interface LoggedDelivery {
  _id: string;
  event: string;
  tournament: string;
  state: 'pending' | 'sent' | 'failed';
  attempts: number;
  lastStatus: number | null;
  createdAt: string;
  sentAt: string | null;
}

const STATE_TONE: Record<LoggedDelivery['state'], string> = {
  pending: 'border-warning text-warning',
  sent: 'border-success text-success',
  failed: 'border-danger text-danger',
};

/**
 * The latest deliveries of an organisation's endpoint (issue 60), as its manage page shows them:
 * each one's state, event, tournament and time, and for one not sent its attempts and the last HTTP
 * status. `event` says how an event is named (Discord's in words, a webhook's by its type).
 */
export function DeliveryLog({ log, event, dense = false }: { log: readonly LoggedDelivery[]; event: (name: string) => ReactNode; dense?: boolean }) {
  return (
    <ul className={`flex flex-col text-sm ${dense ? 'gap-1' : 'gap-2'}`}>
      {log.map((delivery) => (
        <li key={delivery._id} className={`flex flex-wrap items-center gap-x-3 gap-y-1 ${dense ? '' : 'rounded-lg bg-surface-2 px-3 py-2'}`}>
          <span className={`rounded-full border px-2 py-0.5 text-xs font-semibold ${STATE_TONE[delivery.state]}`}>
            {t(`integrations.log.state.${delivery.state}`)}
          </span>
          {event(delivery.event)}
          <span className="min-w-0 truncate">{delivery.tournament}</span>
          <time className="ml-auto text-muted" dateTime={delivery.sentAt ?? delivery.createdAt}>
            {formatDateTime(delivery.sentAt ?? delivery.createdAt, { month: 'short' })}
          </time>
          {delivery.state !== 'sent' && delivery.attempts > 0 && (
            <span className="w-full text-xs text-muted">
              {t('integrations.log.attempts', { count: delivery.attempts })}
              {delivery.lastStatus ? ` · HTTP ${delivery.lastStatus}` : ''}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** A channel's log (Discord's, Telegram's) under its heading: its events named in words, or a line saying none was sent yet. */
export function ChannelLog({ log }: { log: readonly LoggedDelivery[] }) {
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-semibold">{t('integrations.log.title')}</h3>
      {log.length === 0 ? (
        <p className="text-sm text-muted">{t('integrations.log.empty')}</p>
      ) : (
        <DeliveryLog log={log} event={(event) => <span className="font-semibold">{t(`integrations.log.event.${event as OrganisationEvent}`)}</span>} />
      )}
    </div>
  );
}
