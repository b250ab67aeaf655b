import { AsyncLocalStorage } from 'node:async_hooks';
import { chosenLocale, defaultLocale, setLocaleResolver, type Locale } from '../lib/i18n/index.ts';

const requestLocale = new AsyncLocalStorage<Locale>();
setLocaleResolver(() => requestLocale.getStore() ?? defaultLocale);

/**
 * The language a request asks for: the reader's saved choice (cookie); without one, the language
 * already current, so the API a page calls in-process (src/middleware.ts, no cookie on that
 * request) answers in the page's language; else Ukrainian.
 */
export const localeOf = (request: Request): Locale => chosenLocale(request.headers.get('cookie')) ?? requestLocale.getStore() ?? defaultLocale;

/** Runs `work` with `t()` answering in `locale` everywhere it awaits. */
export const withLocale = <T>(locale: Locale, work: () => T): T => requestLocale.run(locale, work);
