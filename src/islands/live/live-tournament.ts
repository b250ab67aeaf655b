import { refreshRegions, regionsAddress } from '../../components/live-regions.ts';
import { announceOnPage, watchTournament, type LiveEvent } from '../../lib/live/events.ts';

/** Events that come in a burst (a result resets later matches, a stage draws many) are read once. */
const SETTLE_MS = 150;

/**
 * Viewers read what an event changed at random moments over this long, not all at once: the
 * thousands watching a final then ask the server (or nginx) in a stream instead of a wall.
 */
export const JITTER_MS = 1000;

/**
 * The live part of a tournament's pages (issue 22): listens to the tournament's events, redraws the
 * page's marked regions from `regions` (the page's regions address, src/pages/_regions.ts), and
 * tells the page's islands (`onPageEvent`: features never import each other). While the stream is
 * down, SPEC's 5 s poll does the same. A plain script (LiveTournament.astro), since it draws
 * nothing: a page that has no other island loads no React. Returns the stop function.
 */
export function liveTournament(tournamentId: string, regions: string, random: () => number = Math.random): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = watchTournament(tournamentId, (event: LiveEvent) => {
    announceOnPage(event);
    clearTimeout(timer);
    // The last event of a burst names the state after all of it.
    timer = setTimeout(() => void refreshRegions(regionsAddress(regions, event)), SETTLE_MS + random() * JITTER_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}
