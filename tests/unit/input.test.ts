import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeText, isSupportedMoment, unsafeTextAt } from '../../src/lib/api/input.ts';

describe('isSafeText', () => {
  it('accepts any well-formed text without a NUL: Cyrillic, emoji, other controls', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }).filter((s) => !s.includes('\u0000')), (s) => isSafeText(s)));
    expect(isSafeText('Кіберарена 🏆\t\n')).toBe(true);
  });

  it('refuses a NUL and half a surrogate pair wherever it stands', () => {
    const bad = fc.constantFrom('\u0000', '\uD800', '\uDBFF', '\uDC00', '\uDFFF');
    fc.assert(fc.property(fc.string(), bad, fc.string(), (before, char, after) => {
      // A high half right before a low half makes a whole character: keep the bad one alone.
      const text = `${before.replace(/[\uD800-\uDBFF]$/, '')}${char}${after.replace(/^[\uDC00-\uDFFF]/, '')}`;
      return !isSafeText(text);
    }));
  });
});

describe('unsafeTextAt', () => {
  it('names the path of the first bad string, keys included', () => {
    expect(unsafeTextAt({ a: 'ok', b: [{ c: 'x\u0000' }] })).toEqual(['b', '0', 'c']);
    expect(unsafeTextAt({ ['k\uD800']: 1 })).toEqual(['k\uD800']);
    expect(unsafeTextAt({ a: ['ok', 1, null, true] })).toBeNull();
  });
});

describe('isSupportedMoment', () => {
  it.each(['1900-01-01', '2026-11-24', '2026-11-24T10:00:00Z', '2026-11-24T10:00:00+02:00', '9999-12-31'])('takes %s', (value) => {
    expect(isSupportedMoment(value)).toBe(true);
  });
  it.each(['0000-01-01', '0099-12-31', '1899-12-31', '2026-13-01', '2026-11-24Tnonsense', 'завтра', '+010000-01-01'])('refuses %s', (value) => {
    expect(isSupportedMoment(value)).toBe(false);
  });
  it('agrees with the year written at the start of any date in range', () => {
    fc.assert(fc.property(fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (date) => isSupportedMoment(date.toISOString())));
  });
});
