import type http from 'node:http';
import { fetchHeaders, sendWhole } from '../node-response.ts';
import { servedOverHttps, withTransportHeaders, type TransportOptions } from '../transport.ts';
import { type AnswerCache, askedOf } from './answer-cache.ts';

/** Answers a guest's read from a fresh held copy, or says it did not (false): Astro's handler answers it then. */
export type HeldReads = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>;

/**
 * Guests' reads answered from the answer cache before Astro's handler (decision 048): a held copy
 * that is fresh and was made for this origin is sent as it is, in the reader's encoding, with the
 * transport's headers; anything else (out of date, not held, a token, another origin) goes on to
 * Astro, whose middleware renders it and holds it (src/middleware.ts). The key is made the way the
 * middleware makes it (`askedOf`) from the address Astro's adapter builds: plain HTTP and the Host
 * the client sent. `siteOrigin` is SITE_URL's, when set.
 */
export function heldReads(cache: AnswerCache, transport: TransportOptions, siteOrigin: string | null): HeldReads {
  return async (req, res) => {
    const host = req.headers.host;
    if (req.method !== 'GET' || req.headers.authorization !== undefined || !host) return false;
    const address = `http://${host}${req.url ?? ''}`;
    if (!URL.canParse(address)) return false;
    const url = new URL(address);
    const request = new Request(url, { headers: fetchHeaders(req) });
    const answer = await cache.fresh(askedOf(request, url, siteOrigin));
    if (!answer) return false;
    await sendWhole(res, withTransportHeaders(answer, servedOverHttps(request, req.socket.remoteAddress, transport)));
    return true;
  };
}
