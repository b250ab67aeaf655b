import { SITE_TIME_ZONE, zoneName } from './format.ts';
import { currentLocale, translate, type Locale } from './index.ts';

/**
 * How a time says its zone after it (issue 57): «(за Києвом)» for Kyiv's, as the site has always
 * written it, else the zone's name, «(за центральноєвропейським часом)». Apart from format.ts so
 * the browser's rewrite of times (guests' pages) does not load the catalog.
 */
export const zoneMark = (timeZone: string, locale: Locale = currentLocale()): string =>
  timeZone === SITE_TIME_ZONE ? translate(locale, 'schedule.kyivTime') : `(${zoneName(timeZone, locale)})`;
