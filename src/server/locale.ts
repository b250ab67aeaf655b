import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultLocale, isLocale, LOCALE_COOKIE, localeOfCookie, setLocaleResolver, type Locale } from '../lib/i18n/index.ts';

const requestLocale = new AsyncLocalStorage<Locale>();
setLocaleResolver(() => requestLocale.getStore() ?? defaultLocale);

const CHOSEN = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=`);

/**
 * The language a request asks for: the reader's saved choice (cookie); without one, the language
 * already current, so the API a page calls in-process (src/middleware.ts, no cookie on that
 * request) answers in the page's language; else Ukrainian.
 */
export function localeOf(request: Request): Locale {
  const cookie = request.headers.get('cookie');
  if (cookie && CHOSEN.test(cookie)) return localeOfCookie(cookie);
  const current = requestLocale.getStore();
  return isLocale(current) ? current : defaultLocale;
}

/** Runs `work` with `t()` answering in `locale` everywhere it awaits. */
export const withLocale = <T>(locale: Locale, work: () => T): T => requestLocale.run(locale, work);
