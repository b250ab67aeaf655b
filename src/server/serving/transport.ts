import type { IncomingMessage } from 'node:http';

/** Strict-Transport-Security: a year, subdomains included, so a browser that met the site over HTTPS never tries HTTP again. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** A header of a request Node's own server took, a repeated one joined as Fetch's Headers joins it. */
export function nodeHeader(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? null);
}

/**
 * What the outermost of our `hops` proxies wrote into a forwarded header (X-Forwarded-For,
 * X-Forwarded-Proto). Each proxy appends what it saw, so that entry stands `hops` from the right;
 * anything left of it was written by the client and is not believed. Undefined with no proxy of
 * ours, or when the header is shorter than our proxies would have made it.
 */
export function forwardedBy(header: string | null | undefined, hops: number): string | undefined {
  if (hops <= 0 || !header) return undefined;
  const entries = header.split(',').map((entry) => entry.trim());
  const entry = entries[entries.length - hops];
  return entry || undefined;
}

interface TransportOptions {
  /** How many proxies of ours stand in front (TRUST_PROXY); X-Forwarded-Proto is believed only from them. */
  trustProxy: number;
  /** The public address (SITE_URL): an https one means every visitor arrives over HTTPS. */
  siteUrl?: string | undefined;
}

/**
 * Whether the visitor reached the site over HTTPS. The Node server itself speaks plain HTTP, so
 * this is true behind a TLS-terminating proxy (its header, when trusted) or when the site's
 * public address is https.
 */
export function servedOverHttps(request: Request, options: TransportOptions): boolean {
  return new URL(request.url).protocol === 'https:' || forwardedOverHttps(request.headers.get('x-forwarded-proto'), options);
}

/**
 * The same for a request Node's own plain-HTTP server took (an event stream served on the socket):
 * only the public address or our proxies' X-Forwarded-Proto can say it came over HTTPS.
 */
export function forwardedOverHttps(forwardedProto: string | null | undefined, options: TransportOptions): boolean {
  if (options.siteUrl?.startsWith('https://')) return true;
  return forwardedBy(forwardedProto, options.trustProxy)?.toLowerCase() === 'https';
}

/** A host name or IPv4 address, or an IPv6 address in brackets, with an optional port: nothing else. */
const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9.])?)(?::[0-9]{1,5})?$/;

/**
 * Whether a Host header names a host. The app builds its own address from it (links, the answer
 * cache's key), so anything else — `a@b`, `[::1`, empty, spaces — is refused with 400 before it
 * gets there, instead of ending in a 500 or some other page.
 */
export function validHost(host: string | null | undefined): boolean {
  return typeof host === 'string' && host.length <= 255 && HOST.test(host) && URL.canParse(`http://${host}/`);
}
