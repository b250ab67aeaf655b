import { describe, expect, it } from 'vitest';
import { en } from '../../src/lib/i18n/en.ts';
import { isMessageKey, plural, t, translate } from '../../src/lib/i18n/index.ts';
import { uk } from '../../src/lib/i18n/uk.ts';

describe('message catalogs', () => {
  it('have exactly the same keys in Ukrainian and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(uk).sort());
  });

  it('have no empty texts', () => {
    for (const [key, text] of [...Object.entries(uk), ...Object.entries(en)]) {
      expect(text.trim(), key).not.toBe('');
    }
  });

  it('use the same placeholders in both languages', () => {
    const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const key of Object.keys(uk) as (keyof typeof uk)[]) {
      expect(names(en[key]), key).toEqual(names(uk[key]));
    }
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(t('validation.tooLong', { field: 'Нікнейм', max: '32 символів' })).toBe('Поле «Нікнейм» задовге (не більше 32 символів)');
    expect(translate('en', 'validation.required', {})).toBe('The field "{field}" is required');
  });

  it('tells catalog keys from other strings', () => {
    expect(isMessageKey('field.email')).toBe(true);
    expect(isMessageKey('field.constructor')).toBe(false);
    expect(isMessageKey('__proto__')).toBe(false);
  });
});

describe('plural forms', () => {
  it('follow Ukrainian rules', () => {
    expect([1, 2, 5, 11, 21, 22, 25].map((n) => plural('uk', 'count.characters', n))).toEqual([
      '1 символу',
      '2 символів',
      '5 символів',
      '11 символів',
      '21 символу',
      '22 символів',
      '25 символів',
    ]);
  });

  it('count participants the Ukrainian way', () => {
    expect([1, 2, 5, 21, 22, 25, 111].map((n) => plural('uk', 'count.participants', n))).toEqual([
      '1 учасник',
      '2 учасники',
      '5 учасників',
      '21 учасник',
      '22 учасники',
      '25 учасників',
      '111 учасників',
    ]);
  });

  it('follow English rules', () => {
    expect([1, 2].map((n) => plural('en', 'count.characters', n))).toEqual(['1 character', '2 characters']);
  });
});
