import type { Context } from 'hono';

/**
 * Points to the page after this one with `Link: <…>; rel="next"` (RFC 8288) when there is one:
 * the same address, the same filters, `offset` moved on by `limit`.
 */
export function linkToNext(c: Context, page: { offset: number; limit: number; more: boolean }): void {
  if (!page.more) return;
  const next = new URL(c.req.url);
  next.searchParams.set('offset', String(page.offset + page.limit));
  c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
}

/**
 * Points to the page after this one of a list paged by a cursor (the audit log): the same address
 * and filters, `before` set to the last item's id.
 */
export function linkToNextBefore(c: Context, page: { last: string | undefined; more: boolean }): void {
  if (!page.more || page.last === undefined) return;
  const next = new URL(c.req.url);
  next.searchParams.set('before', page.last);
  c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
}
