/*
 * The one owner of "which address may we put in a page": pictures (games, tournaments, news,
 * avatars, logos) and links (news, links found in text). Two meanings, two rules:
 * - isSafeAddress: a path on this site or an absolute http(s) address, for anything the site
 *   itself may serve too (a game's or a news item's picture, a news link);
 * - isHttpAddress: an absolute http(s) address only, for what always lives elsewhere (a team's
 *   logo link, a link found in text).
 * Nothing else (`javascript:`, `data:`, `//host`, backslashes) ever reaches `src` or `href`.
 */

/** The longest address accepted anywhere: a longer one is refused, and a longer link in text stays text. */
export const ADDRESS_MAX = 2048;

/** Whether `value` is an absolute http(s) address with a host, its scheme written out (`https:host` is not). */
export function isHttpAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * Whether a picture or link address is allowed: an absolute http(s) address or a path on this
 * site (`/news/1.jpg`), at most ADDRESS_MAX long. Refuses `javascript:`, `data:`,
 * protocol-relative `//host`, backslashes, spaces and control characters.
 */
export function isSafeAddress(value: string): boolean {
  if (value === '' || value.length > ADDRESS_MAX) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/u.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  return isHttpAddress(value);
}

/** Whether an allowed address leads away from this site (a link to it then opens in a new tab). */
export const isExternalAddress = (value: string): boolean => /^https?:\/\//i.test(value);

/**
 * A stored picture address as it may go into `src`: what either rule let be saved (a team's logo
 * link is checked by `isHttpAddress`, other pictures by `isSafeAddress`), otherwise null, so one
 * test decides what every page and island shows.
 */
export const pictureSrc = (value: string | null | undefined): string | null =>
  value && (isSafeAddress(value) || isHttpAddress(value)) ? value : null;

/** The query parameter of /login and /register that names where to go once signed in. */
export const RETURN_PARAM = 'next';

/**
 * Where a sign-in may send the reader back to: a path on this site (`/tournaments/1#apply`), as the
 * address's `next` gave it; anything else (another site, `//host`, `javascript:`, a backslash) is
 * null, so the sign-in goes home instead.
 */
export function returnPath(value: string | null | undefined): string | null {
  return value && value.startsWith('/') && isSafeAddress(value) ? value : null;
}

/** The sign-in (or `/register`) page's address that comes back to `path` afterwards. */
export const signInPath = (path: string, page: '/login' | '/register' = '/login'): string => `${page}?${RETURN_PARAM}=${encodeURIComponent(path)}`;
