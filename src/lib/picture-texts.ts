/**
 * The words drawn into the site's generated pictures (scripts/make-images.ts, and the share cards' brand). They live apart
 * from the drawing so a test can read them: a Latin letter inside a Ukrainian caption looks
 * right on screen and reads as another word (Latin «MOBA» is Cyrillic «МОВА», "language").
 */

/** The site's name on the logo and the Open Graph card, its two halves in two colours. */
export const BRAND_NAME = ['Кібер', 'арена'] as const;

/** The Open Graph card's line under the name. */
export const OG_TAGLINE = 'Турніри з кіберспорту';

/**
 * The name on each shipped game's picture (public/games/<id>.jpg), as the game's makers write it,
 * in Latin letters. Nothing else is written there: one picture serves readers of every language.
 */
export const GAME_TITLES = {
  cs2: 'CS2',
  valorant: 'VALORANT',
  lol: 'League of Legends',
  dota2: 'DOTA 2',
  pubgm: 'PUBG MOBILE',
} as const satisfies Record<string, string>;

export type ShippedGame = keyof typeof GAME_TITLES;
