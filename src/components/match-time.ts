import { formatDateTime, pageTimeZone, SITE_TIME_ZONE, zoneName } from '../lib/i18n/format.ts';
import { localizeTimes } from './local-time.ts';

/**
 * A match's time as cards write it: «1 черв. 2031 р. о 18:00» / "1 Jun 2031 at 18:00", Kyiv's unless
 * a zone is given; `long` writes the month in full, as the tournament's date is. The one format of
 * `ZonedTime` on the server and of its rewrite in the browser.
 */
export const formatMatchTime = (iso: string, timeZone?: string, long = false): string =>
  formatDateTime(iso, { month: long ? 'long' : 'short', ...(timeZone ? { timeZone } : {}) });

/**
 * Rewrites the server's Kyiv times (`ZonedTime`) under `root` in the zone of their screen (the
 * tournament's own its page declares, else the reader's clock), and their «(за Києвом)» marks with
 * that zone's name (issue 57: one zone on a screen, named). A screen in Kyiv's zone stays as it is.
 * Idempotent: a time already rewritten no longer holds its Kyiv text. `zoneOf` is for tests.
 */
export function localizeMatchTimes(root: ParentNode = document, zoneOf: (node: Element) => string = pageTimeZone): void {
  for (const long of [false, true]) localizeTimes(root, (iso, zone) => formatMatchTime(iso, zone, long), zoneOf);
  for (const mark of root.querySelectorAll('[data-site-zone]')) {
    const zone = zoneOf(mark);
    if (zone !== SITE_TIME_ZONE) mark.textContent = ` (${zoneName(zone)})`;
  }
}
