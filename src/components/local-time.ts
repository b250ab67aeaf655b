import { pageTimeZone, SITE_TIME_ZONE } from '../lib/i18n/format.ts';

/**
 * Times on server-rendered pages are written as Kyiv reads them (the site's zone, the same for every
 * reader so the HTML can be shared); this rewrites each `time[data-local-time]` under `root` in the
 * zone of its screen: the tournament's own where the page declares one (`data-time-zone`), else the
 * reader's clock. `format` is the page's date formatter, taking an optional zone.
 */
export function localizeTimes(root: ParentNode, format: (iso: string, timeZone?: string) => string, zoneOf: (node: Element) => string = pageTimeZone): void {
  for (const node of root.querySelectorAll<HTMLTimeElement>('time[data-local-time]')) {
    const zone = zoneOf(node);
    if (zone === SITE_TIME_ZONE) continue;
    const label = node.textContent ?? '';
    node.textContent = label.replace(format(node.dateTime), format(node.dateTime, zone));
  }
}
