import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { t, type MessageKey, type MessageParams } from '../lib/i18n/index.ts';

/** Stops the request with `{ message }` in Ukrainian; the one `onError` turns it into JSON. */
export function fail(status: ContentfulStatusCode, key: MessageKey, params?: MessageParams): never {
  throw new HTTPException(status, { message: t(key, params) });
}

/** Same as `fail`, for a message already composed. */
export function failWith(status: ContentfulStatusCode, message: string, headers?: Record<string, string>): never {
  throw new HTTPException(status, { message, ...(headers ? { res: new Response(null, { headers }) } : {}) });
}
