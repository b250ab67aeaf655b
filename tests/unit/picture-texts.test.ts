import { describe, expect, it } from 'vitest';
import { BRAND_NAME, GAME_TITLES, OG_TAGLINE } from '../../src/lib/picture-texts.ts';

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

describe('the words in the generated pictures', () => {
  it('write Ukrainian in Cyrillic only: a Latin look-alike reads as another word («MOBA» is «МОВА»)', () => {
    for (const line of [BRAND_NAME.join(''), OG_TAGLINE]) {
      expect(line.split(/\s+/).filter((word) => LATIN.test(word)), line).toEqual([]);
    }
  });

  it('mix no scripts inside a word', () => {
    const lines = [BRAND_NAME.join(''), OG_TAGLINE, ...Object.values(GAME_TITLES)];
    for (const word of lines.flatMap((line) => line.split(/\s+/))) expect(LATIN.test(word) && CYRILLIC.test(word), word).toBe(false);
  });

  it('give a game’s picture only the game’s own name, in its makers’ Latin letters: one picture serves readers of both languages', () => {
    for (const title of Object.values(GAME_TITLES)) expect(title).toMatch(/^[A-Za-z0-9 ]+$/);
  });
});
