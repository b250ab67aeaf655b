import { uk, type MessageKey } from './uk.ts';

export type { MessageKey };
export type Locale = 'uk' | 'en';
export const locales: readonly Locale[] = ['uk', 'en'];
export const defaultLocale: Locale = 'uk';

type Catalog = Record<MessageKey, string>;

/** Whether the English catalog must be loaded: on the server (`lang` undefined), or for a page in English. */
export function needsEnglish(lang: string | undefined): boolean {
  return lang === undefined || lang === 'en';
}

/**
 * Ukrainian, the default, is always here. English is a chunk of its own: the server (no `document`)
 * loads it before any page is made, a browser only when the server made the page in English
 * (`<html lang="en">`), so Ukrainian readers never download it. The top-level await holds back
 * every module that imports this one, islands included, until the catalog is in, so `t()` stays
 * synchronous.
 */
const catalogs: Partial<Record<Locale, Catalog>> = { uk };
if (needsEnglish(typeof document === 'undefined' ? undefined : document.documentElement.lang)) {
  catalogs.en = (await import('./en.ts')).en;
}

export type MessageParams = Record<string, string | number>;

/**
 * The text for `key` in `locale`, with `{name}` placeholders filled from `params`. A language whose
 * catalog this browser did not load (never the case for the page's own language) falls back to Ukrainian.
 */
export function translate(locale: Locale, key: MessageKey, params?: MessageParams): string {
  const template = (catalogs[locale] ?? uk)[key];
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export const isLocale = (value: unknown): value is Locale => value === 'uk' || value === 'en';

/**
 * Which language is current. In the browser it is the page's `<html lang>`, which the server set
 * from the reader's choice; on the server, `setLocaleResolver` plugs in the request's language.
 */
let resolveLocale = (): Locale => {
  const lang = typeof document === 'undefined' ? undefined : document.documentElement.lang;
  return isLocale(lang) ? lang : defaultLocale;
};

/** Server only: how to find the current request's language. */
export function setLocaleResolver(resolver: () => Locale): void {
  resolveLocale = resolver;
}

export const currentLocale = (): Locale => resolveLocale();

/** The text for `key` in the current language (Ukrainian unless the reader chose English). */
export const t = (key: MessageKey, params?: MessageParams) => translate(currentLocale(), key, params);

/** Name of the cookie (and localStorage key) that keeps the reader's language. */
export const LOCALE_COOKIE = 'lang';

/** Whether the catalog has `key`: lets callers build keys from data (field names) safely. */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(uk, key);

/** Catalog families with the four plural forms of Intl.PluralRules: `<base>.one|few|many|other`. */
export type PluralBase = {
  [K in MessageKey]: K extends `${infer Base}.one` ? (`${Base}.few` extends MessageKey ? Base : never) : never;
}[MessageKey];

/** "{count} <noun>" in the right plural form for the language (1 символу, 5 символів). */
export function plural(locale: Locale, base: PluralBase, count: number): string {
  const form = new Intl.PluralRules(locale).select(count) as 'one' | 'few' | 'many' | 'other';
  const key = `${base}.${form}`;
  return translate(locale, isMessageKey(key) ? key : (`${base}.other` as MessageKey), { count });
}
