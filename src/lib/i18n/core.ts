/**
 * What every catalog shares: the languages, which one is current, and how a text is looked up and
 * filled. The catalogs themselves come in scopes: `index.ts` has every text of the site (the server
 * and most islands), `common.ts` only the layout's and `notifications.ts` the bell's, so the islands
 * on every page carry no more.
 */
export type Locale = 'uk' | 'en';
export const locales: readonly Locale[] = ['uk', 'en'];
export const defaultLocale: Locale = 'uk';

export type MessageParams = Record<string, string | number>;

export const isLocale = (value: unknown): value is Locale => value === 'uk' || value === 'en';

/** The `<html lang>` the server gave this page, or undefined on the server. */
const pageLanguage = (): string | undefined => (typeof document === 'undefined' ? undefined : document.documentElement.lang);

/** Whether the English catalog must be loaded: on the server (`lang` undefined), or for a page in English. */
export function needsEnglish(lang: string | undefined): boolean {
  return lang === undefined || lang === 'en';
}

/**
 * Which language is current. In the browser it is the page's `<html lang>`, which the server set
 * from the reader's choice; on the server, `setLocaleResolver` plugs in the request's language.
 */
let resolveLocale = (): Locale => {
  const lang = pageLanguage();
  return isLocale(lang) ? lang : defaultLocale;
};

/** Server only: how to find the current request's language. */
export function setLocaleResolver(resolver: () => Locale): void {
  resolveLocale = resolver;
}

export const currentLocale = (): Locale => resolveLocale();

/** Name of the cookie (and localStorage key) that keeps the reader's language. */
export const LOCALE_COOKIE = 'lang';

const LOCALE_IN_COOKIE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`);

/** The language the reader saved in a raw `Cookie` header, or undefined when none is there. */
export function chosenLocale(cookie: string | null | undefined): Locale | undefined {
  const value = cookie?.match(LOCALE_IN_COOKIE)?.[1];
  return isLocale(value) ? value : undefined;
}

/** The language a request's raw `Cookie` header asks for: the reader's saved choice, else Ukrainian. */
export const localeOfCookie = (cookie: string | null | undefined): Locale => chosenLocale(cookie) ?? defaultLocale;

export interface Translator<K extends string> {
  /** The text for `key` in `locale`, with `{name}` placeholders filled from `params`. */
  translate(locale: Locale, key: K, params?: MessageParams): string;
  /** The text for `key` in the current language. */
  t(key: K, params?: MessageParams): string;
}

/**
 * Lookup over one scope's catalogs. `en` is undefined where this browser did not load English
 * (never the case for the page's own language): such a lookup falls back to Ukrainian.
 */
function translator<K extends string>(uk: Readonly<Record<K, string>>, en: Readonly<Record<K, string>> | undefined): Translator<K> {
  const translate = (locale: Locale, key: K, params?: MessageParams) => {
    const template = (locale === 'en' && en ? en : uk)[key];
    if (!params) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };
  return { translate, t: (key, params) => translate(currentLocale(), key, params) };
}

/**
 * A scope's lookup, its English loaded first where it is read: on the server (no `document`) and
 * on pages in English. Awaited at the top of the scope's module, so every module importing the
 * scope, islands included, waits for it and `t()` stays synchronous; Ukrainian readers never
 * download the English chunk.
 */
export async function scope<K extends string>(
  uk: Readonly<Record<K, string>>,
  loadEnglish: () => Promise<Readonly<Record<K, string>>>,
): Promise<Translator<K>> {
  return translator(uk, await englishWhereRead(loadEnglish));
}

/**
 * English texts kept outside the catalogs, loaded as `scope` loads a catalog's: on the server and
 * on pages in English; undefined in a browser reading Ukrainian, which then downloads nothing.
 */
export async function englishWhereRead<T>(load: () => Promise<T>): Promise<T | undefined> {
  return needsEnglish(pageLanguage()) ? await load() : undefined;
}

