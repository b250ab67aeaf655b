import { SITE_TIME_ZONE } from '../i18n/format.ts';

type Parts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
const partsFormat = (timeZone: string): Intl.DateTimeFormat => {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    partsFormats.set(timeZone, format);
  }
  return format;
};

function toDate(date: string | Date): Date | null {
  const value = typeof date === 'string' ? new Date(date) : date;
  return Number.isNaN(value.getTime()) ? null : value;
}

/** The wall-clock fields of a moment in a zone. */
function wallParts(value: Date, timeZone: string): Parts {
  const parts: Record<string, number> = {};
  for (const p of partsFormat(timeZone).formatToParts(value)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as Parts;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as YYYY-MM-DD (Kyiv time unless a zone is given), as the tournament cards show it; empty for an unreadable date. */
export function formatDay(date: string | Date, timeZone: string = SITE_TIME_ZONE): string {
  const value = toDate(date);
  if (!value) return '';
  const p = wallParts(value, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The value of an `<input type="datetime-local">` showing a moment in Kyiv time, or in the zone given. */
export function toLocalInputValue(date: string | Date, timeZone: string = SITE_TIME_ZONE): string {
  const value = toDate(date);
  if (!value) return '';
  const p = wallParts(value, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** How far a zone's wall clock is ahead of UTC at a moment, in milliseconds. */
function zoneOffset(moment: number, timeZone: string): number {
  const p = wallParts(new Date(moment), timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(moment / 1000) * 1000;
}

/**
 * The ISO moment of a datetime-local value read as Kyiv time ("2026-05-01T19:00" → 16:00 UTC in
 * summer), or in the zone given, or of a plain day at that zone's midnight; null when the value is
 * not one of those.
 */
export function fromLocalInputValue(value: string, timeZone: string = SITE_TIME_ZONE): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0'] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (Number.isNaN(wall)) return null;
  // Twice: the first guess may sit on the other side of a daylight-saving change.
  let moment = wall - zoneOffset(wall, timeZone);
  moment = wall - zoneOffset(moment, timeZone);
  return new Date(moment).toISOString();
}
