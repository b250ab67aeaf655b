import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultLocale, isLocale, LOCALE_COOKIE, setLocaleResolver, type Locale } from '../lib/i18n/index.ts';

const requestLocale = new AsyncLocalStorage<Locale>();
setLocaleResolver(() => requestLocale.getStore() ?? defaultLocale);

/** The language a request asks for: the reader's saved choice (cookie), else Ukrainian. */
export function localeOf(request: Request): Locale {
  const cookie = request.headers.get('cookie') ?? '';
  const value = cookie.match(new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]+)`))?.[1];
  return isLocale(value) ? value : defaultLocale;
}

/** Runs `work` with `t()` answering in `locale` everywhere it awaits. */
export const withLocale = <T>(locale: Locale, work: () => T): T => requestLocale.run(locale, work);
