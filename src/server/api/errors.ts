import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { currentLocale, plural, t, type MessageKey, type MessageParams } from '../../lib/i18n/index.ts';

/** Stops the request with `{ message }` in Ukrainian; the one `onError` turns it into JSON. */
export function fail(status: ContentfulStatusCode, key: MessageKey, params?: MessageParams): never {
  throw new HTTPException(status, { message: t(key, params) });
}

/** Same as `fail`, for a message already composed. */
export function failWith(status: ContentfulStatusCode, message: string, headers?: Record<string, string>): never {
  throw new HTTPException(status, { message, ...(headers ? { res: new Response(null, { headers }) } : {}) });
}

/** How long to wait, as a person reads it: seconds under a minute, whole minutes (rounded up) after. */
export const waitText = (seconds: number): string =>
  seconds < 60 ? plural(currentLocale(), 'count.seconds', seconds) : plural(currentLocale(), 'count.minutes', Math.ceil(seconds / 60));

/** A rate limit's refusal: 429 (or `status`), the message `key` saying when to try again (`{wait}`, beside `params`), and Retry-After. */
export function failTooMany(key: MessageKey, retryAfter: number, status: 409 | 429 = 429, params: MessageParams = {}): never {
  failWith(status, t(key, { ...params, wait: waitText(retryAfter) }), { 'Retry-After': String(retryAfter) });
}
