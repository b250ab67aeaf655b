import type { AstroGlobal } from 'astro';
import { isRecentChange } from '../server/services/live/live.ts';
import { GUEST_PAGE_CACHE } from './_cache.ts';

/** How many entries of its history a tournament's page shows (and its regions redraw). */
export const HISTORY_SHOWN = 10;

/**
 * What a page's live regions address (`<page>/live?v=<change>`, decision 033) answers with: the
 * page's `data-live-region` parts alone, for a live page to redraw after an event. `?v=` names the
 * event, so every viewer of it asks the same address and one render serves them all (here and in
 * nginx); a change this instance has not heard of is answered but held by nobody, so made-up
 * addresses fill no cache. `also`: the query parameters the page itself takes (an embed's);
 * `cacheable` false: what it drew stood in for what could not be read, not to be held.
 */
export function regionsAnswer(
  page: Pick<AstroGlobal, 'url' | 'locals' | 'response'>,
  tournamentId: string | null,
  { cacheable = true, also = [] }: { cacheable?: boolean; also?: readonly string[] } = {},
): void {
  const change = page.url.searchParams.get('v') ?? '';
  const known = tournamentId !== null && isRecentChange(tournamentId, change);
  page.locals.acceptsQuery = known ? [...also, 'v'] : also;
  // A change not heard of here is answered for its reader alone: no cache (nginx's either) keeps it,
  // nor what an instance the change has not reached yet drew for it.
  const shared = tournamentId !== null && cacheable && (known || !page.url.searchParams.has('v'));
  page.response.headers.set('Cache-Control', shared ? GUEST_PAGE_CACHE : 'no-store');
  if (tournamentId === null && page.response.status === 200) page.response.status = 404;
  // Search engines have the page itself.
  page.response.headers.set('X-Robots-Tag', 'noindex');
}
