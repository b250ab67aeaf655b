/**
 * The words drawn into the site's generated pictures (scripts/make-images.ts, and the share cards' brand). They live apart
 * from the drawing so a test can read them: a Latin letter inside a Ukrainian caption looks
 * right on screen and reads as another word (Latin «MOBA» is Cyrillic «МОВА», "language").
 */

/** The site's name on the logo and the Open Graph card, its two halves in two colours. */
export const BRAND_NAME = ['Кібер', 'арена'] as const;

/** The Open Graph card's line under the name. */
export const OG_TAGLINE = 'Турніри з кіберспорту';

export interface GameCaption {
  /** The game's own name, as its makers write it (Latin). */
  title: string;
  /** What kind of game it is, in Ukrainian; a name the game's makers use may stay Latin (`latin`). */
  subtitle: string;
  /** Latin words the subtitle may hold: the game's own name, nothing Ukrainian. */
  latin?: readonly string[];
}

/** The demo games' pictures, public/games/<id>.jpg. */
export const GAME_CAPTIONS = {
  cs2: { title: 'CS2', subtitle: 'COUNTER-STRIKE 2', latin: ['COUNTER-STRIKE'] },
  valorant: { title: 'VALORANT', subtitle: 'ТАКТИЧНИЙ ШУТЕР 5×5' },
  lol: { title: 'League of Legends', subtitle: 'КОМАНДНА МОБА 5×5' },
  dota2: { title: 'DOTA 2', subtitle: 'СТРАТЕГІЧНА МОБА 5×5' },
} as const satisfies Record<string, GameCaption>;

export type ShippedGame = keyof typeof GAME_CAPTIONS;
