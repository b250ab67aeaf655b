import { localizeMatchTimes } from '../../components/match-time.ts';
import { announceOnPage, watchTournament, type LiveEvent } from '../../lib/live/events.ts';

/** Events that come in a burst (a result resets later matches, a stage draws many) are read once. */
const SETTLE_MS = 150;

/**
 * Redraws the page's server-rendered parts marked `data-live-region="<name>"` from the page as the
 * server renders it now, so one renderer draws them. Regions the fresh page lacks stay as they are.
 */
export async function refreshRegions(): Promise<void> {
  const shown = document.querySelectorAll<HTMLElement>('[data-live-region]');
  if (shown.length === 0) return;
  const html = await fetch(location.pathname + location.search, { cache: 'no-store', headers: { accept: 'text/html' } })
    .then((r) => (r.ok ? r.text() : null))
    .catch(() => null);
  if (!html) return;
  const fresh = new DOMParser().parseFromString(html, 'text/html');
  for (const region of shown) {
    const next = fresh.querySelector(`[data-live-region="${CSS.escape(region.dataset.liveRegion ?? '')}"]`);
    if (!next) continue;
    // Times as the page shows them: in the reader's zone, without their Kyiv marks (match-time.ts).
    localizeMatchTimes(next);
    if (next.innerHTML === region.innerHTML) continue;
    region.replaceWith(document.importNode(next, true));
  }
}

/**
 * The live part of a tournament's pages (issue 22): listens to the tournament's events and redraws
 * the marked regions, and tells the page's islands (`onPageEvent`: features never import each
 * other). While the stream is down, SPEC's 5 s poll does the same. A plain script (LiveTournament.astro),
 * since it draws nothing: a page that has no other island loads no React. Returns the stop function.
 */
export function liveTournament(tournamentId: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = watchTournament(tournamentId, (event: LiveEvent) => {
    announceOnPage(event);
    clearTimeout(timer);
    timer = setTimeout(() => void refreshRegions(), SETTLE_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}
