import { SITE_TIME_ZONE } from '../i18n/format.ts';

type Parts = Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number>;

const partsFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: SITE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

function toDate(date: string | Date): Date | null {
  const value = typeof date === 'string' ? new Date(date) : date;
  return Number.isNaN(value.getTime()) ? null : value;
}

/** The wall-clock fields of a moment in Kyiv. */
function kyivParts(value: Date): Parts {
  const parts: Record<string, number> = {};
  for (const p of partsFormat.formatToParts(value)) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return parts as Parts;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as YYYY-MM-DD (Kyiv time), as the tournament cards show it; empty for an unreadable date. */
export function formatDay(date: string | Date): string {
  const value = toDate(date);
  if (!value) return '';
  const p = kyivParts(value);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}`;
}

/** The value of an `<input type="datetime-local">` showing a moment in Kyiv time. */
export function toLocalInputValue(date: string | Date): string {
  const value = toDate(date);
  if (!value) return '';
  const p = kyivParts(value);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/** How far Kyiv's wall clock is ahead of UTC at a moment, in milliseconds. */
function kyivOffset(moment: number): number {
  const p = kyivParts(new Date(moment));
  const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return wall - Math.floor(moment / 1000) * 1000;
}

/**
 * The ISO moment of a datetime-local value read as Kyiv time ("2026-05-01T19:00" → 16:00 UTC in
 * summer), or of a plain day at Kyiv midnight; null when the value is not one of those.
 */
export function fromLocalInputValue(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0'] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (Number.isNaN(wall)) return null;
  // Twice: the first guess may sit on the other side of a daylight-saving change.
  let moment = wall - kyivOffset(wall);
  moment = wall - kyivOffset(moment);
  return new Date(moment).toISOString();
}
