/**
 * Times on server-rendered pages are written as Kyiv reads them (the site's zone, the same for every
 * reader so the HTML can be shared); this rewrites each `time[data-local-time]` under `root` as the
 * reader's own clock reads it. `format` is the page's date formatter, taking an optional zone.
 */
export function localizeTimes(root: ParentNode, format: (iso: string, timeZone?: string) => string): void {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  for (const node of root.querySelectorAll<HTMLTimeElement>('time[data-local-time]')) {
    const label = node.textContent ?? '';
    node.textContent = label.replace(format(node.dateTime), format(node.dateTime, zone));
  }
}
