import { isEmbedPath } from '../../lib/domain/embed.ts';

/**
 * Who may show a page inside a frame (issue 23). Every page refuses framing (`X-Frame-Options:
 * DENY` and the CSP's `frame-ancestors 'none'`, astro.config.mjs), so no other site can dress one
 * up for clickjacking; the embeds (`/embed/*`), made to be framed and holding nothing of a
 * session, may be framed by any site. Their CSP stays the site's in every other directive.
 */

/** The embeds' `frame-ancestors`: any site. */
export const EMBED_FRAME_ANCESTORS = '*';

/** `csp` with its `frame-ancestors` directive set to `sources` (added when it had none). */
export function withFrameAncestors(csp: string, sources: string): string {
  const directives = csp
    .split(';')
    .map((directive) => directive.trim())
    .filter(Boolean);
  const framing = `frame-ancestors ${sources}`;
  const at = directives.findIndex((directive) => /^frame-ancestors(\s|$)/i.test(directive));
  if (at === -1) directives.push(framing);
  else directives[at] = framing;
  return directives.join('; ');
}

/** Sets a page answer's framing headers for its path: embeds open to any site, everything else refused. */
export function applyFramingPolicy(pathname: string, headers: Headers): void {
  if (!isEmbedPath(pathname)) {
    headers.set('X-Frame-Options', 'DENY');
    return;
  }
  // X-Frame-Options has no «anyone» value: an embed sends none, and the CSP says who may frame it.
  headers.delete('X-Frame-Options');
  const csp = headers.get('content-security-policy');
  if (csp) headers.set('content-security-policy', withFrameAncestors(csp, EMBED_FRAME_ANCESTORS));
}
