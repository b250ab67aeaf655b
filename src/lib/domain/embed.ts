/**
 * Embeds (issue 23): the chrome-less pages other sites may frame, `/embed/tournaments/{id}` (the
 * bracket or standings, live) and `/embed/matches/{id}`. Their language and theme come from the
 * address (`?lang=en&theme=light`), never from the reader's cookie or storage: a framed page has
 * no session of ours and is the same for every visitor of the framing site.
 */
import { defaultLocale, isLocale, type Locale } from '../i18n/core.ts';

export const EMBED_THEMES = ['dark', 'light'] as const;
export type EmbedTheme = (typeof EMBED_THEMES)[number];

/** Every embed lives under this path; only these pages may be framed by other sites. */
export const EMBED_PREFIX = '/embed/';

export const isEmbedPath = (pathname: string): boolean => pathname.startsWith(EMBED_PREFIX);

/** The height the offered `<iframe>` starts with: a bracket of eight rounds or a table of a dozen rows. */
export const EMBED_HEIGHT = 600;

/** The query parameters an embed's address takes (`embedOptions`). */
export const EMBED_QUERY: readonly string[] = ['lang', 'theme'];

/** An embed's language and theme from its query: anything unknown falls back to Ukrainian and the dark theme. */
export function embedOptions(search: URLSearchParams): { locale: Locale; theme: EmbedTheme } {
  const lang = search.get('lang');
  const theme = search.get('theme');
  return { locale: isLocale(lang) ? lang : defaultLocale, theme: theme === 'light' ? 'light' : 'dark' };
}

/** A tournament's embed address under the site. */
export const tournamentEmbedPath = (tournamentId: string, locale: Locale): string => `${EMBED_PREFIX}tournaments/${tournamentId}?lang=${locale}`;

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `<iframe>` code a tournament page offers to copy: the embed at `origin`, titled for screen readers. */
export function tournamentEmbedCode(origin: string, tournamentId: string, locale: Locale, title: string): string {
  const src = new URL(tournamentEmbedPath(tournamentId, locale), origin).href;
  return `<iframe src="${escapeAttribute(src)}" title="${escapeAttribute(title)}" width="100%" height="${EMBED_HEIGHT}" style="border:0" loading="lazy"></iframe>`;
}
