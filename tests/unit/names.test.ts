import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasInvisibleCharacters, nameSkeletons, normalizeName } from '../../src/lib/domain/names.ts';

const lookAlike = (a: string, b: string) => {
  const x = nameSkeletons(a);
  const y = nameSkeletons(b);
  return x.lower === y.lower || x.upper === y.upper;
};

/** Characters nobody sees, one of each kind the rule names. */
const INVISIBLES = [
  '\u200B', // zero-width space (Cf)
  '\u200D', // zero-width joiner (Cf)
  '\u202E', // right-to-left override (Cf)
  '\u2066', // left-to-right isolate (Cf)
  '\u00AD', // soft hyphen (Cf)
  '\uFEFF', // zero-width no-break space (Cf)
  '\u0007', // bell (Cc)
  '\u2028', // line separator (Zl)
  '\u2029', // paragraph separator (Zp)
  '\u3164', // Hangul filler
  '\u115F', // Hangul choseong filler
  '\u1160', // Hangul jungseong filler
  '\uFFA0', // halfwidth Hangul filler
  '\u2800', // Braille pattern blank
  '\uFE0F', // variation selector (default ignorable)
  '\u034F', // combining grapheme joiner (default ignorable)
  '\u{E0041}', // tag letter A (default ignorable)
];

describe('normalizeName', () => {
  it('turns fullwidth and compatibility letters into plain ones and trims', () => {
    expect(normalizeName('  ａｄｍｉｎ ')).toBe('admin');
    expect(normalizeName('ﬁre')).toBe('fire');
    // A letter typed as base and accent is stored as one character.
    expect(normalizeName('Ї\u0301жак'.normalize('NFD'))).toBe('Ї\u0301жак'.normalize('NFC'));
    expect(normalizeName('Андрии\u0306')).toBe('Андрий');
  });
});

describe('hasInvisibleCharacters', () => {
  it('finds every kind of invisible or format character, alone or inside a name', () => {
    for (const c of INVISIBLES) {
      expect(hasInvisibleCharacters(c), `U+${c.codePointAt(0)!.toString(16)}`).toBe(true);
      expect(hasInvisibleCharacters(`ad${c}min`)).toBe(true);
    }
    expect(hasInvisibleCharacters('ㅤㅤㅤ')).toBe(true);
  });

  it('leaves ordinary names alone: Latin, Cyrillic, Greek, digits, spaces and punctuation', () => {
    for (const name of ['admin', 'Кіберкіт_2024', 'Їжак', 'Ω-team', 'Team Alpha', 'Vasyl.K', 'Ґандзя']) {
      expect(hasInvisibleCharacters(name)).toBe(false);
    }
  });

  it('refuses every string that holds an invisible character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.constantFrom(...INVISIBLES), fc.string({ unit: 'grapheme' }), (before, hidden, after) => {
        expect(hasInvisibleCharacters(before + hidden + after)).toBe(true);
      }),
    );
  });
});

describe('nameSkeletons', () => {
  it('catches the look-alikes of the report', () => {
    expect(lookAlike('аdmin', 'admin')).toBe(true); // Cyrillic а
    expect(lookAlike('ΚozakSniper', 'KozakSniper')).toBe(true); // Greek Κ
    expect(lookAlike('КozakSniper', 'KozakSniper')).toBe(true); // Cyrillic К
    expect(lookAlike('ΚOZAKSNIPER', 'KozakSniper')).toBe(true); // the same in capitals
    expect(lookAlike('ａｄｍｉｎ', 'admin')).toBe(true); // fullwidth
    expect(lookAlike('ad\u200Bmin', 'admin')).toBe(true); // zero-width space, were it ever stored
    expect(lookAlike('Garner', 'Gamer')).toBe(true); // rn and m
    expect(lookAlike('Player1', 'Playerl')).toBe(true); // 1 and l
    expect(lookAlike('Teаm Alpha', 'Team Alpha')).toBe(true);
    expect(lookAlike('КОТ', 'KOT')).toBe(true);
  });

  it('keeps different names apart, in Ukrainian too', () => {
    expect(lookAlike('abc', 'abd')).toBe(false);
    expect(lookAlike('Віктор', 'Виктор')).toBe(false);
    expect(lookAlike('Їжак', 'Іжак')).toBe(false);
    expect(lookAlike('BILI', 'BILL')).toBe(false);
    expect(lookAlike('Олег', 'Ольга')).toBe(false);
  });

  it('is the same whatever the case and the normal form of the name (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 12 }), (name) => {
        const skeletons = nameSkeletons(name);
        expect(nameSkeletons(name.toUpperCase())).toEqual(skeletons);
        expect(nameSkeletons(name.toLowerCase())).toEqual(skeletons);
        expect(nameSkeletons(name.normalize('NFKC'))).toEqual(skeletons);
        expect(nameSkeletons(name.normalize('NFD'))).toEqual(skeletons);
      }),
      { numRuns: 2000 },
    );
  });

  it('sees a name and the same name with any letter swapped for its TR39 look-alike as alike (property)', () => {
    const swaps: Record<string, string[]> = { a: ['а', 'ɑ'], e: ['е'], o: ['о', 'ο', '0'], p: ['р'], c: ['с'], x: ['х'], i: ['і'], K: ['К', 'Κ'], H: ['Н', 'Η'], T: ['Т', 'Τ'], B: ['В', 'Β'], M: ['М', 'Μ'] };
    const letter = fc.constantFrom(...'aeopcxiKHTBMnrstuvwz');
    fc.assert(
      fc.property(fc.array(letter, { minLength: 1, maxLength: 10 }), fc.nat(), (letters, pick) => {
        const name = letters.join('');
        const swapped = letters.map((c, i) => (swaps[c] && i === pick % letters.length ? swaps[c][pick % swaps[c].length]! : c)).join('');
        expect(lookAlike(name, swapped)).toBe(true);
      }),
    );
  });
});
