import { isSafeAddress } from './address.ts';

/** The picture shown for a game or tournament without one, or when its own fails to load (SPEC §2). */
export const DEFAULT_GAME_IMAGE = '/default_game.jpg';

/** The address to put in `<img src>`: the stored picture when usable, else the default one. */
export function gameImage(value: string | null | undefined): string {
  const trimmed = value?.trim();
  return trimmed && isSafeAddress(trimmed) ? trimmed : DEFAULT_GAME_IMAGE;
}

/** The game pictures the site ships, each also drawn 400 px wide (scripts/make-images.ts). */
const SHIPPED_GAME_IMAGE = /^\/games\/(cs2|valorant|lol|dota2|pubgm)\.jpg$/;

/** A `srcset` offering a phone-sized copy of a picture the site ships; undefined for any other picture. */
export function gameImageSrcset(src: string): string | undefined {
  return SHIPPED_GAME_IMAGE.test(src) ? `${src.replace(/\.jpg$/, '-400.jpg')} 400w, ${src} 640w` : undefined;
}
