/**
 * The admin's list of applications narrowed to one tournament is an address,
 * `/admin-tournaments?tournament=<id>` (or `/admin?section=applications&tournament=<id>`): a link
 * opens the list narrowed, a reload keeps it, and it does not depend on which page of the whole
 * list (newest first) holds that tournament's rows.
 */
export const TOURNAMENT_PARAM = 'tournament';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tournament a query narrows the list to, when its value is an id; anything else narrows nothing. */
export function narrowedTournament(params: URLSearchParams): string | undefined {
  const value = params.get(TOURNAMENT_PARAM);
  return value !== null && UUID.test(value) ? value : undefined;
}

/** The same address narrowed to the tournament `id`, or to none (`null`); its other parameters stay. */
export function addressNarrowedTo(href: string, id: string | null): string {
  const url = new URL(href);
  if (id) url.searchParams.set(TOURNAMENT_PARAM, id);
  else url.searchParams.delete(TOURNAMENT_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}
