import { currentLocale, type Locale } from './core.ts';

/**
 * How dates, times, numbers and percentages are written, in the reader's language: the one owner
 * of `Intl` formatting on the site. Each function takes the language, or uses the current one
 * (the request's on the server, `<html lang>` in the browser), so a text rendered on the server
 * and again while hydrating comes out the same.
 */

/** The site's time zone: every date is shown as it is in Kyiv, on the server and in the browser alike. */
export const SITE_TIME_ZONE = 'Europe/Kyiv';

/**
 * The reader's own time zone, for what is drawn only in the browser (their matches, the admin's
 * schedule form); server-rendered HTML keeps Kyiv's and is rewritten by `components/match-time.ts`.
 */
export const readerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || SITE_TIME_ZONE;

/**
 * The zone of the screen a browser shows (issue 57: one zone on a screen): a tournament's own, which
 * its pages declare on an element with `data-time-zone`, else the reader's. Kyiv's where there is no
 * document (a server render, before a browser takes over).
 */
export function pageTimeZone(near?: Element | null): string {
  if (typeof document === 'undefined') return SITE_TIME_ZONE;
  const declared = (near?.closest<HTMLElement>('[data-time-zone]') ?? document.querySelector<HTMLElement>('[data-time-zone]'))?.dataset.timeZone;
  return declared || readerTimeZone();
}

/**
 * A zone as its readers name it (issue 57: a time is shown with its zone): «за центральноєвропейським
 * часом» / "Central European Time"; the full name where the generic one is only an offset (UTC).
 */
export function zoneName(timeZone: string, locale: Locale = currentLocale()): string {
  const name = (style: 'longGeneric' | 'long') =>
    new Intl.DateTimeFormat(INTL_LOCALE[locale], { timeZone, timeZoneName: style }).formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
  const generic = name('longGeneric');
  return /^GMT/.test(generic) ? name('long') : generic;
}

/**
 * The `Intl` locale of each language. English is British: the day comes before the month
 * ("25 October 2026"), so a date reads the same way as in Ukrainian and is never mistaken.
 */
export const INTL_LOCALE: Record<Locale, string> = { uk: 'uk-UA', en: 'en-GB' };

export interface FormatOptions {
  /** The language to write in; the current one when absent. */
  locale?: Locale;
}

export interface DateFormatOptions extends FormatOptions {
  /** `long`: «25 жовтня 2026 р.» / "25 October 2026"; `short`: «25 жовт. 2026 р.» / "25 Oct 2026". */
  month?: 'long' | 'short';
  /** An IANA time zone; Kyiv's when absent. */
  timeZone?: string;
}

// Building an Intl formatter costs far more than using one: each is made once per language and shape.
function memoised<F, O>(make: (locale: string, options: O) => F): (locale: Locale, options: O) => F {
  const made = new Map<string, F>();
  return (locale, options) => {
    const key = `${locale} ${JSON.stringify(options)}`;
    let format = made.get(key);
    if (!format) made.set(key, (format = make(INTL_LOCALE[locale], options)));
    return format;
  };
}

const dateFormat = memoised((locale, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options));
const numberFormat = memoised((locale, options: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options));

/** The moment a date or ISO string names, or null for one that is not a date. */
function moment(date: string | number | Date): Date | null {
  const value = date instanceof Date ? date : new Date(date);
  return Number.isNaN(value.getTime()) ? null : value;
}

const dayOptions = ({ month = 'long', timeZone = SITE_TIME_ZONE }: DateFormatOptions): Intl.DateTimeFormatOptions => ({
  timeZone,
  day: 'numeric',
  month,
  year: 'numeric',
});

const clockOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' } as const;

/** A day: «25 жовтня 2026 р.» / "25 October 2026"; empty for something that is not a date. */
export function formatDate(date: string | number | Date, options: DateFormatOptions = {}): string {
  const value = moment(date);
  return value ? dateFormat(options.locale ?? currentLocale(), dayOptions(options)).format(value) : '';
}

/** A day and its time: «25 жовтня 2026 р. о 19:00» / "25 October 2026 at 19:00"; empty for something that is not a date. */
export function formatDateTime(date: string | number | Date, options: DateFormatOptions = {}): string {
  const value = moment(date);
  return value ? dateFormat(options.locale ?? currentLocale(), { ...dayOptions(options), ...clockOptions }).format(value) : '';
}

/** A time of day on the 24-hour clock, «19:05» in both languages; empty for something that is not a date. */
export function formatTime(date: string | number | Date, options: Omit<DateFormatOptions, 'month'> = {}): string {
  const value = moment(date);
  return value ? dateFormat(options.locale ?? currentLocale(), { timeZone: options.timeZone ?? SITE_TIME_ZONE, ...clockOptions }).format(value) : '';
}

export interface NumberFormatOptions extends FormatOptions {
  /** Digits after the decimal separator, exactly this many; as many as needed (up to 3) when absent. */
  fractionDigits?: number;
}

const digits = (fractionDigits: number | undefined): Intl.NumberFormatOptions =>
  fractionDigits === undefined ? {} : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits };

/** A number with the language's separators: «12 345,5» / "12,345.5". */
export function formatNumber(value: number, options: NumberFormatOptions = {}): string {
  return numberFormat(options.locale ?? currentLocale(), digits(options.fractionDigits)).format(value);
}

/** A percentage given as 0–100 (not a fraction): «66,7%» / "66.7%". */
export function formatPercent(value: number, options: NumberFormatOptions = {}): string {
  return numberFormat(options.locale ?? currentLocale(), { style: 'unit', unit: 'percent', ...digits(options.fractionDigits) }).format(value);
}
