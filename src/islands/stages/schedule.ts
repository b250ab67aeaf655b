import { fromLocalInputValue, toLocalInputValue } from '../../lib/domain/tournament-dates.ts';

/**
 * A match's time in the editor: `<input type="datetime-local">` holds Kyiv wall time (as every date
 * on the site is shown in Kyiv), the API takes an ISO moment with its offset.
 */

/** The input's value for a stored moment; empty when the match has no time. */
export const scheduleInputValue = (iso: string | null): string => (iso ? toLocalInputValue(iso) : '');

/**
 * The ISO moment, with Kyiv's offset at that moment («2030-05-01T18:00:00+03:00»), of an input
 * value read as Kyiv time; null for an empty input (no time), undefined for an unreadable one.
 */
export function scheduleToIso(value: string): string | null | undefined {
  const text = value.trim();
  if (text === '') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(text);
  const moment = match ? fromLocalInputValue(text) : null;
  if (!match || !moment) return undefined;
  const [, y, mo, d, h, mi] = match;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  // The input may name a wall time that does not exist (a day-saving gap) or rolls over (31 June): refuse it.
  if (toLocalInputValue(moment) !== text) return undefined;
  const offset = Math.round((wall - Date.parse(moment)) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${text}:00${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
