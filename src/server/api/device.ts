import { randomBytes } from 'node:crypto';
import { getCookie, setCookie } from 'hono/cookie';
import { servedOverHttps } from '../transport.ts';
import type { AppContext } from './context.ts';

/**
 * A browser's device id (issue 57, decision 035): 128 random bits in an HttpOnly cookie, so that
 * limits can tell one browser from the many a venue's shared address carries. The id is the
 * browser's own word (a script may drop it or make one up), so it only ever adds a limit: what stops
 * a flood from an address is still that address's limit, and a device's share keeps one browser from
 * spending the budget of everyone behind the address. Nothing else reads it, and it is kept nowhere
 * but in the limits' counter keys.
 */
export const DEVICE_COOKIE = 'kiberarena_device';

/** What a device id looks like: 16 bytes in base64url. Anything else is no id, and a new one is given. */
const DEVICE_ID = /^[A-Za-z0-9_-]{22}$/;

/** A year: a device keeps its id across visits, within the 400 days browsers allow a cookie. */
const DEVICE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The caller's device: the id its cookie carries, or a new one sent back with the answer (only under
 * `/api`, never with a page, so no held answer carries it). Secure when the visitor came over HTTPS.
 */
export function deviceOf(c: AppContext): string {
  const sent = getCookie(c, DEVICE_COOKIE);
  if (sent && DEVICE_ID.test(sent)) return sent;
  const id = randomBytes(16).toString('base64url');
  setCookie(c, DEVICE_COOKIE, id, {
    path: '/api',
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: DEVICE_COOKIE_SECONDS,
    secure: servedOverHttps(c.req.raw, c.env?.clientAddress, c.get('deps')),
  });
  return id;
}
