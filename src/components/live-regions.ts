import type { LiveEvent } from '../lib/live/events.ts';
import { formatDateTime } from '../lib/i18n/format.ts';
import { localizeTimes } from './local-time.ts';
import { localizeMatchTimes } from './match-time.ts';

/**
 * The address of a page's regions after `event`: named by the event's change, so every viewer of
 * that event asks the same address, which one render serves (src/pages/_regions.ts). Anything else
 * (a poll, a reconnection, the reader's own action) names no change: its address is its own,
 * answered but held by nobody.
 */
export function regionsAddress(regions: string, event: LiveEvent, now = Date.now()): string {
  const url = new URL(regions, 'http://page');
  url.searchParams.set('v', event.change ?? `${event.kind}-${now}`);
  return url.pathname + url.search;
}

/**
 * Redraws the page's server-rendered parts marked `data-live-region="<name>"` from the page's
 * regions at `address`, as the server draws them now, so one renderer draws them. Regions the
 * answer lacks stay as they are.
 */
export async function refreshRegions(address: string): Promise<void> {
  const shown = document.querySelectorAll<HTMLElement>('[data-live-region]');
  if (shown.length === 0) return;
  const html = await fetch(address, { headers: { accept: 'text/html' } })
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);
  if (!html) return;
  const fresh = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  for (const region of shown) {
    const next = fresh.querySelector(`[data-live-region="${CSS.escape(region.dataset.liveRegion ?? '')}"]`);
    if (!next) continue;
    // Times as the page shows them: in the reader's zone, without their Kyiv marks (match-time.ts, local-time.ts).
    localizeMatchTimes(next);
    localizeTimes(next, (iso, timeZone) => formatDateTime(iso, timeZone ? { timeZone } : {}));
    if (next.innerHTML === region.innerHTML) continue;
    region.replaceWith(document.importNode(next, true));
  }
}
