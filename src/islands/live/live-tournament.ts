import { refreshRegions, regionsAddress } from '../../components/live-regions.ts';
import { announceOnPage, watchTournament, type LiveEvent } from '../../lib/live/events.ts';
import { JITTER_MS, SETTLE_MS } from '../../lib/live/timing.ts';

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
    // A call for the organisers is theirs (the control room), evidence the match room's: nothing on the public page changed.
    if (event.kind === 'call' || event.kind === 'evidence') return;
    clearTimeout(timer);
    // The last event of a burst names the state after all of it.
    timer = setTimeout(() => void refreshRegions(regionsAddress(regions, event)), SETTLE_MS + random() * JITTER_MS);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}
