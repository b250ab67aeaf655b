import { AsyncLocalStorage } from 'node:async_hooks';
import { defaultLocale, localeOfCookie, setLocaleResolver, type Locale } from '../lib/i18n/index.ts';

const requestLocale = new AsyncLocalStorage<Locale>();
setLocaleResolver(() => requestLocale.getStore() ?? defaultLocale);

/** The language a request asks for: the reader's saved choice (cookie), else Ukrainian. */
export const localeOf = (request: Request): Locale => localeOfCookie(request.headers.get('cookie'));

/** Runs `work` with `t()` answering in `locale` everywhere it awaits. */
export const withLocale = <T>(locale: Locale, work: () => T): T => requestLocale.run(locale, work);
