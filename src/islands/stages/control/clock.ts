import { formatDateTime, formatTime, pageTimeZone } from '../../../lib/i18n/format.ts';

/** A moment of match day on the screen's clock (the tournament's or the reader's): the time alone today, the day too otherwise. */
export function clock(iso: string, now = new Date()): string {
  const timeZone = pageTimeZone();
  const day = (d: Date | string) => new Date(d).toLocaleDateString('en-CA', { timeZone });
  return day(iso) === day(now) ? formatTime(iso, { timeZone }) : formatDateTime(iso, { timeZone, month: 'short' });
}
