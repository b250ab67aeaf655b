import { scope, type Locale } from './core.ts';
import { uk, type MessageKey } from './uk.ts';

export {
  chosenLocale,
  currentLocale,
  defaultLocale,
  isLocale,
  LOCALE_COOKIE,
  localeOfCookie,
  locales,
  needsEnglish,
  setLocaleResolver,
  type Locale,
  type MessageParams,
} from './core.ts';
export type { MessageKey };

/**
 * Every text of the site: `t(key)` takes any MessageKey. Ukrainian, the default, is always here;
 * English is a chunk of its own, loaded only where it is read (`scope`). Importing this module
 * downloads the whole catalog, so the layout's islands and what they load (every page) import the
 * narrower `t` of `common.ts` or `notifications.ts` instead; eslint.config.js keeps them to it.
 */
export const { translate, t } = await scope<MessageKey>(uk, async () => (await import('./en.ts')).en);

/** Whether the catalog has `key`: lets callers build keys from data (field names) safely. */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(uk, key);

/** Catalog families with the four plural forms of Intl.PluralRules: `<base>.one|few|many|other`. */
export type PluralBase = {
  [K in MessageKey]: K extends `${infer Base}.one` ? (`${Base}.few` extends MessageKey ? Base : never) : never;
}[MessageKey];

/** Made once per language: building Intl.PluralRules cost 1 % of a tournament page's render, once per count shown. */
const pluralRules = new Map<Locale, Intl.PluralRules>();

/** "{count} <noun>" in the right plural form for the language (1 символу, 5 символів). */
export function plural(locale: Locale, base: PluralBase, count: number): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const form = rules.select(count) as 'one' | 'few' | 'many' | 'other';
  const key = `${base}.${form}`;
  return translate(locale, isMessageKey(key) ? key : (`${base}.other` as MessageKey), { count });
}
