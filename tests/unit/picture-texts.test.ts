import { describe, expect, it } from 'vitest';
import { BRAND_NAME, GAME_CAPTIONS, OG_TAGLINE } from '../../src/lib/picture-texts.ts';

const LATIN = /\p{Script=Latin}/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/** The words of a Ukrainian line that hold a Latin letter, apart from the names it may keep in Latin. */
const latinWords = (line: string, allowed: readonly string[] = []) =>
  line.split(/\s+/).filter((word) => LATIN.test(word) && !allowed.includes(word));

describe('the words in the generated pictures', () => {
  it('write Ukrainian in Cyrillic only: a Latin look-alike reads as another word («MOBA» is «МОВА»)', () => {
    const ukrainian = [BRAND_NAME.join(''), OG_TAGLINE, ...Object.values(GAME_CAPTIONS).map((caption) => caption.subtitle)];
    for (const line of ukrainian) {
      const allowed = Object.values(GAME_CAPTIONS).find((caption) => caption.subtitle === line);
      expect(latinWords(line, allowed && 'latin' in allowed ? allowed.latin : []), line).toEqual([]);
    }
  });

  it('mix no scripts inside a word', () => {
    const lines = [BRAND_NAME.join(''), OG_TAGLINE, ...Object.values(GAME_CAPTIONS).flatMap((caption) => [caption.title, caption.subtitle])];
    for (const word of lines.flatMap((line) => line.split(/\s+/))) expect(LATIN.test(word) && CYRILLIC.test(word), word).toBe(false);
  });

  it('call Dota 2 and League of Legends МОБА, in Ukrainian', () => {
    expect(GAME_CAPTIONS.dota2.subtitle).toBe('СТРАТЕГІЧНА МОБА 5×5');
    expect(GAME_CAPTIONS.lol.subtitle).toBe('КОМАНДНА МОБА 5×5');
  });
});
