import { SITE_TIME_ZONE } from '../i18n/format.ts';

/**
 * A tournament's own time zone (issue 57): an IANA name its page, its matches and its notices are
 * shown in. Without one, every reader sees the tournament in their own zone.
 */

/** The longest zone name taken («America/Argentina/ComodRivadavia» is 32). */
export const TIME_ZONE_MAX = 64;

const resolve = (zone: string): string => new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;

/**
 * The zone's IANA name as stored («europe/warsaw» → «Europe/Warsaw»), or null when `Intl` does not
 * know it. Only names are taken, not offsets («+02:00»). Every alias of Kyiv's zone is stored as
 * the site's «Europe/Kyiv» (ICU's data still calls it «Europe/Kiev»), so a tournament in Kyiv reads
 * «за Києвом» as the rest of the site.
 */
export function canonicalTimeZone(value: string): string | null {
  const text = value.trim();
  if (!text || text.length > TIME_ZONE_MAX || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(text)) return null;
  let resolved: string;
  try {
    resolved = resolve(text);
  } catch {
    return null;
  }
  if (resolved === resolve(SITE_TIME_ZONE)) return SITE_TIME_ZONE;
  return spelled().get(text.toLowerCase()) ?? resolved;
}

let names: Map<string, string> | undefined;
/** Every zone name `Intl` lists, by its lower case: how a name typed in any case is stored. */
const spelled = (): Map<string, string> =>
  (names ??= new Map([...Intl.supportedValuesOf('timeZone'), ...OFFERED_TIME_ZONES].map((zone) => [zone.toLowerCase(), zone])));

/**
 * The zones the tournament form offers, nearest first: Ukraine's, its neighbours' and the
 * diaspora's, then universal time. The API takes any IANA zone; a tournament set to another keeps
 * it in the form.
 */
export const OFFERED_TIME_ZONES = [
  'Europe/Kyiv',
  'Europe/Warsaw',
  'Europe/Bucharest',
  'Europe/Chisinau',
  'Europe/Berlin',
  'Europe/Prague',
  'Europe/London',
  'Europe/Lisbon',
  'Asia/Tbilisi',
  'America/New_York',
  'America/Toronto',
  'UTC',
] as const;
