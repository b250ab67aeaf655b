import { t } from '../lib/i18n/index.ts';
import { formatMatchTime } from './match-time.ts';

/**
 * A moment on a server-rendered page in the reader's zone. The server does not know that zone, so
 * it writes Kyiv's time marked «(за Києвом)»; `LocalTimes.astro` rewrites it in the browser and
 * drops the mark. Readers without JavaScript keep the marked Kyiv time.
 */
export function ZonedTime({ iso, long = false }: { iso: string; long?: boolean }) {
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
export function MatchTime({ iso, className = '' }: { iso: string; className?: string }) {
  return (
    <p className={`text-xs text-muted ${className}`}>
      <ZonedTime iso={iso} />
    </p>
  );
}
