import type http from 'node:http';
import { localeOfCookie } from '../../lib/i18n/core.ts';
import { forwardedOverHttps, nodeArrival, nodeHeader, withTransportHeadersFlat, type TransportOptions } from '../transport.ts';
import { type AnswerCache, heldAt, type Leaving } from './answer-cache.ts';

/**
 * Answers a guest's read from a held copy the cache hands out (`AnswerCache.handOut`), or says it
 * did not (false): Astro's handler answers it then. At once when the copy in the reader's encoding
 * is made, else once it is.
 */
export type HeldReads = (req: http.IncomingMessage, res: http.ServerResponse) => boolean | Promise<boolean>;

/**
 * Guests' reads answered from the answer cache before Astro's handler and its read lines (decision
 * 048): a held copy made for this origin that the cache hands out (fresh, or out of date while it
 * is rendered again) is sent as it is, in the reader's encoding, with the transport's headers;
 * anything else (out of date with no render under way, not held, a token, another origin) goes on
 * to Astro, whose middleware renders it, or hands out the copy and renders it behind it (decision
 * 050), and holds it (src/middleware.ts). The key is made as the
 * middleware makes it (`heldAt`) from the address Astro's adapter builds: plain HTTP and the Host
 * the client sent. `siteOrigin` is SITE_URL's, when set. It is written from the request's own
 * headers straight to Node's response, with no fetch `Request` or `Response` between: a final's
 * viewers read the same copy thousands of times a second.
 */
export function heldReads(cache: AnswerCache, transport: TransportOptions, siteOrigin: string | null): HeldReads {
  const send = (req: http.IncomingMessage, res: http.ServerResponse, leaving: Leaving) => {
    res.writeHead(leaving.status, withTransportHeadersFlat(leaving.headers, forwardedOverHttps(nodeArrival(req), transport)));
    res.end(leaving.body);
    return true;
  };
  return (req, res) => {
    const host = req.headers.host;
    if (req.method !== 'GET' || req.headers.authorization !== undefined || !host) return false;
    const url = URL.parse(`http://${host}${req.url ?? ''}`);
    if (!url) return false;
    // Outside any request's language (src/server/locale.ts), a page's is the reader's cookie's or Ukrainian, as the middleware's.
    const at = heldAt(url, () => localeOfCookie(nodeHeader(req, 'cookie')), siteOrigin);
    const leaving = cache.handOut(at, { get: (name) => nodeHeader(req, name) });
    if (!leaving) return false;
    return leaving instanceof Promise ? leaving.then((made) => send(req, res, made)) : send(req, res, leaving);
  };
}
