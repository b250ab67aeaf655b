import { formatDateTime, readerTimeZone, SITE_TIME_ZONE, zoneName } from '../lib/i18n/format.ts';
import { localizeTimes } from './local-time.ts';

/**
 * A match's time as cards write it: «1 черв. 2031 р. о 18:00» / "1 Jun 2031 at 18:00", Kyiv's unless
 * a zone is given; `long` writes the month in full, as the tournament's date is. The one format of
 * `ZonedTime` on the server and of its rewrite in the browser.
 */
export const formatMatchTime = (iso: string, timeZone?: string, long = false): string =>
  formatDateTime(iso, { month: long ? 'long' : 'short', ...(timeZone ? { timeZone } : {}) });

/**
 * Rewrites the server's Kyiv times (`ZonedTime`) under `root` as the reader's clock reads them, and
 * their «(за Києвом)» marks with the reader's zone (issue 57: one zone on a screen, named). A reader
 * in Kyiv's zone keeps the page as it is. Idempotent: a time already rewritten no longer holds its
 * Kyiv text. `timeZone` is for tests; the reader's own by default.
 */
export function localizeMatchTimes(root: ParentNode = document, timeZone = readerTimeZone()): void {
  if (timeZone === SITE_TIME_ZONE) return;
  for (const long of [false, true]) localizeTimes(root, (iso, zone) => formatMatchTime(iso, zone === undefined ? undefined : timeZone, long));
  const name = ` (${zoneName(timeZone)})`;
  for (const mark of root.querySelectorAll('[data-site-zone]')) mark.textContent = name;
}
