/**
 * What every value the API takes in must be, whatever its field: the rules a new field cannot
 * forget, because `server/api/validation.ts` applies them to everything a route validates.
 */
import { MAX_YEAR, MIN_YEAR } from '../domain/moments.ts';

export { MAX_YEAR, MIN_YEAR };

/**
 * A NUL (PostgreSQL's text cannot hold one) or half of a UTF-16 surrogate pair (no character at
 * all: it cannot be written as UTF-8 and JSONB refuses its escape).
 */
// eslint-disable-next-line no-control-regex -- finding the NUL is the point
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isSafeText = (value: string): boolean => !UNSAFE_TEXT.test(value);

/**
 * The path to the first string inside `value` (object keys included) that `isSafeText` refuses,
 * or null when there is none.
 */
export function unsafeTextAt(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    if (!isSafeText(key)) return [...path, key];
    const found = unsafeTextAt(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Whether an ISO 8601 day or moment parses, and falls in the years the site keeps: the year as
 * written from MIN_YEAR, the moment in UTC up to MAX_YEAR (domain/moments.ts says why).
 */
export function isSupportedMoment(value: string): boolean {
  const year = /^(\d{4})-\d{2}-\d{2}/.exec(value)?.[1];
  if (year === undefined || Number(year) < MIN_YEAR) return false;
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).getUTCFullYear() <= MAX_YEAR;
}
