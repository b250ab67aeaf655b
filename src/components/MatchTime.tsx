import { t } from '../lib/i18n/index.ts';
import { zoneMark } from '../lib/i18n/zone-mark.ts';
import { formatMatchTime } from './match-time.ts';

/**
 * A moment on a server-rendered page, named with its zone. In a tournament's own zone (`zone`) it is
 * written once and stays. Otherwise it belongs in the reader's zone, which the server does not know:
 * it writes Kyiv's time marked «(за Києвом)», and `LocalTimes.astro` rewrites both in the browser
 * (in the zone a `data-time-zone` around it declares, else the reader's). Readers without
 * JavaScript keep the marked Kyiv time.
 */
export function ZonedTime({ iso, long = false, zone }: { iso: string; long?: boolean; zone?: string | null | undefined }) {
  if (zone) {
    return (
      <>
        <time dateTime={iso}>{formatMatchTime(iso, zone, long)}</time>
        <span> {zoneMark(zone)}</span>
      </>
    );
  }
  return (
    <>
      <time dateTime={iso} data-local-time>
        {formatMatchTime(iso, undefined, long)}
      </time>
      <span data-site-zone> {t('schedule.kyivTime')}</span>
    </>
  );
}

/** A match's scheduled time under its card. */
export function MatchTime({ iso, className = '', zone }: { iso: string; className?: string; zone?: string | null | undefined }) {
  return (
    <p className={`text-xs text-muted ${className}`}>
      <ZonedTime iso={iso} zone={zone} />
    </p>
  );
}
