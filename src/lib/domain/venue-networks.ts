/**
 * An organiser's venue network (issue 57, decision 035): the addresses of a tournament's hall,
 * asked for by its organisers and approved by the site's admin. While approved and inside its
 * window, clients inside are counted by no per-address limit, as inside TRUSTED_VENUE_NETWORKS.
 */

/** pending → approved or refused by the site's admin; withdrawn by an organiser (or the admin) at any time. */
export const VENUE_NETWORK_STATUSES = ['pending', 'approved', 'refused', 'withdrawn'] as const;
export type VenueNetworkStatus = (typeof VENUE_NETWORK_STATUSES)[number];

/** A hall's addresses at most in one request: its public address or two, the LAN, an IPv6 network. */
export const MAX_VENUE_NETWORKS = 4;

/** The venue's name (the request's note) at most, in characters. */
export const VENUE_NOTE_MAX = 100;

/**
 * The window a venue network works in, around the tournament's start: from the day before (players
 * register and ask for their letters at the hall) to two days after (an event that runs into the
 * night, or over a weekend). It follows the tournament's date; nothing else can stretch it.
 */
export const VENUE_WINDOW = { beforeHours: 24, afterHours: 48 } as const;

const HOUR = 3_600_000;

/** The moments a tournament starting at `date` has its venue network in effect: `from` included, `until` not. */
export function venueWindow(date: Date | string): { from: Date; until: Date } {
  const start = new Date(date).getTime();
  return { from: new Date(start - VENUE_WINDOW.beforeHours * HOUR), until: new Date(start + VENUE_WINDOW.afterHours * HOUR) };
}

/** Whether a window is over at `now`: a network asked for then could never work. */
export const venueWindowOver = (date: Date | string, now = Date.now()): boolean => venueWindow(date).until.getTime() <= now;

/** Whether `now` is inside the window. */
export function insideVenueWindow(date: Date | string, now = Date.now()): boolean {
  const { from, until } = venueWindow(date);
  return from.getTime() <= now && now < until.getTime();
}

/** The entries of a text an organiser typed: split at commas, semicolons and white space. */
export const venueEntries = (text: string): string[] =>
  text
    .split(/[\s,;]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
