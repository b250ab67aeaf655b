/**
 * A `Retry-After` header as milliseconds from `now`: delay-seconds or an HTTP date (RFC 9110
 * §10.2.3); null when absent or unreadable. A date in the past is 0.
 */
export function retryAfterMs(header: string | null | undefined, now: Date): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Every HTTP-date form begins with the day's name: anything else is not one, however Date.parse reads it.
  if (!/^[A-Za-z]{3}/.test(value)) return null;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}
