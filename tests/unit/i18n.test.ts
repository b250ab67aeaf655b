import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../src/lib/i18n/en.ts';
import { isMessageKey, localeOfCookie, needsEnglish, plural, t, translate } from '../../src/lib/i18n/index.ts';
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

describe('the reader\'s language', () => {
  it('comes from the lang cookie among others, and is Ukrainian when it is missing or unknown', () => {
    expect(localeOfCookie('theme=dark; lang=en; x=1')).toBe('en');
    expect(localeOfCookie('lang=uk')).toBe('uk');
    expect(localeOfCookie('slang=en')).toBe('uk');
    expect(localeOfCookie('lang=de')).toBe('uk');
    expect(localeOfCookie(undefined)).toBe('uk');
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

describe('the English catalog', () => {
  afterEach(() => {
    vi.doUnmock('../../src/lib/i18n/en.ts');
    vi.doUnmock('../../src/lib/i18n/en/common.ts');
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** The i18n module freshly evaluated in a browser whose page the server made in `lang`. */
  async function inBrowser(lang: string) {
    vi.resetModules();
    vi.stubGlobal('document', { documentElement: { lang } });
    const loaded = vi.fn();
    vi.doMock('../../src/lib/i18n/en.ts', async (importOriginal) => {
      loaded();
      return importOriginal();
    });
    const i18n = await import('../../src/lib/i18n/index.ts');
    return { i18n, loaded };
  }

  it('is needed on the server and on English pages only', () => {
    expect(needsEnglish(undefined)).toBe(true);
    expect(needsEnglish('en')).toBe(true);
    expect(needsEnglish('uk')).toBe(false);
    expect(needsEnglish('')).toBe(false);
  });

  it('is never loaded in a browser reading Ukrainian', async () => {
    const { i18n, loaded } = await inBrowser('uk');
    expect(loaded).not.toHaveBeenCalled();
    expect(i18n.t('nav.skip')).toBe(uk['nav.skip']);
    // A language the page is not in falls back to Ukrainian rather than failing.
    expect(i18n.translate('en', 'nav.skip')).toBe(uk['nav.skip']);
  });

  it('is in before anything can call t() in a browser reading English', async () => {
    const { i18n, loaded } = await inBrowser('en');
    expect(loaded).toHaveBeenCalledOnce();
    expect(i18n.currentLocale()).toBe('en');
    expect(i18n.t('nav.skip')).toBe(en['nav.skip']);
    expect(en['nav.skip']).not.toBe(uk['nav.skip']);
  });

  /** The layout's scope freshly evaluated in a browser reading `lang`: which English files it loaded. */
  async function layoutInBrowser(lang: string) {
    vi.resetModules();
    vi.stubGlobal('document', { documentElement: { lang } });
    const loaded = { full: vi.fn(), common: vi.fn() };
    vi.doMock('../../src/lib/i18n/en.ts', async (importOriginal) => {
      loaded.full();
      return importOriginal();
    });
    vi.doMock('../../src/lib/i18n/en/common.ts', async (importOriginal) => {
      loaded.common();
      return importOriginal();
    });
    const common = await import('../../src/lib/i18n/common.ts');
    return { common, loaded };
  }

  it('of the layout alone is all an English page with only layout islands loads', async () => {
    const { common, loaded } = await layoutInBrowser('en');
    expect(common.t('nav.skip')).toBe(en['nav.skip']);
    expect(loaded.common).toHaveBeenCalledOnce();
    expect(loaded.full).not.toHaveBeenCalled();
  });

  it('of the layout is not loaded for a Ukrainian page either', async () => {
    const { common, loaded } = await layoutInBrowser('uk');
    expect(common.t('nav.skip')).toBe(uk['nav.skip']);
    expect(loaded.common).not.toHaveBeenCalled();
  });

  it('of the tournament list gives an English page its own texts and the layout’s, without the full catalog', async () => {
    vi.resetModules();
    vi.stubGlobal('document', { documentElement: { lang: 'en' } });
    const full = vi.fn();
    vi.doMock('../../src/lib/i18n/en.ts', async (importOriginal) => {
      full();
      return importOriginal();
    });
    const list = await import('../../src/lib/i18n/tournament-list.ts');
    expect(list.t('tournaments.filtersLabel')).toBe(en['tournaments.filtersLabel']);
    expect(list.t('status.started')).toBe(en['status.started']);
    expect(list.t('nav.skip')).toBe(en['nav.skip']);
    expect(en['tournaments.filtersLabel']).not.toBe(uk['tournaments.filtersLabel']);
    expect(full).not.toHaveBeenCalled();
  });
});

describe('the language of a request on the server', () => {
  it('is its cookie’s; without one, the page’s that calls the API in-process; else Ukrainian', async () => {
    const { localeOf, withLocale } = await import('../../src/server/locale.ts');
    const i18n = await import('../../src/lib/i18n/index.ts');
    const bare = new Request('http://arena.test/api/statistics/leaderboard');
    const chosen = (lang: string) => new Request('http://arena.test/api/news', { headers: { cookie: `theme=dark; lang=${lang}` } });
    expect(localeOf(bare)).toBe('uk');
    expect(withLocale('en', () => localeOf(bare))).toBe('en');
    expect(withLocale('en', () => localeOf(chosen('uk')))).toBe('uk');
    expect(localeOf(chosen('en'))).toBe('en');
    expect(withLocale('en', () => withLocale(localeOf(bare), () => i18n.t('nav.home')))).toBe('Home');
  });
});
