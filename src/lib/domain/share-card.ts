/**
 * Share cards (issue 23): the Open Graph picture (PNG, 1200×630) of a shared page, drawn by the
 * server from the page's data in the reader's language. Pages name it through `shareCardPath`;
 * the API's route that draws it reads the same words.
 */
import type { Locale } from '../i18n/core.ts';

export const SHARE_CARD_KINDS = ['tournament', 'match', 'news', 'player', 'organisation'] as const;
export type ShareCardKind = (typeof SHARE_CARD_KINDS)[number];

export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

/**
 * The card's address under the site (a page makes it absolute for og:image). `version`, when the
 * page knows one that changes with what the card shows (a tournament's bracket version, a match's),
 * makes a new address for crawlers that keep a picture by its address for days.
 */
export const shareCardPath = (kind: ShareCardKind, id: string, locale: Locale, version?: string | number): string =>
  `/api/og/${kind}/${id}.png?lang=${locale}${version === undefined ? '' : `&v=${encodeURIComponent(String(version))}`}`;

/**
 * A short version for `shareCardPath` made from what a page knows the card draws (a title, a
 * status, a score): when any of them changes, the address changes and crawlers fetch the new card.
 * FNV-1a, as it need not be secret, only change with its input.
 */
export function shareCardVersion(...parts: readonly (string | number | null | undefined)[]): string {
  let hash = 0x811c9dc5;
  for (const char of JSON.stringify(parts)) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/** The card's size, as pages announce it (og:image:width and height). */
export const SHARE_CARD_SIZE = { width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT } as const;
