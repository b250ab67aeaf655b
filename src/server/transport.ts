/** Strict-Transport-Security: a year, subdomains included, so a browser that met the site over HTTPS never tries HTTP again. */
export const HSTS = 'max-age=31536000; includeSubDomains';

interface TransportOptions {
  /** X-Forwarded-Proto is believed only from a proxy we run (TRUST_PROXY). */
  trustProxy: boolean;
  /** The public address (SITE_URL): an https one means every visitor arrives over HTTPS. */
  siteUrl?: string | undefined;
}

/**
 * Whether the visitor reached the site over HTTPS. The Node server itself speaks plain HTTP, so
 * this is true behind a TLS-terminating proxy (its header, when trusted) or when the site's
 * public address is https.
 */
export function servedOverHttps(request: Request, options: TransportOptions): boolean {
  if (new URL(request.url).protocol === 'https:') return true;
  if (options.siteUrl?.startsWith('https://')) return true;
  if (!options.trustProxy) return false;
  return request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase() === 'https';
}
