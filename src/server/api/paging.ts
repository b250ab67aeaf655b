import type { AppContext } from './context.ts';

/**
 * Points to the page after this one with `Link: <…>; rel="next"` (RFC 8288) when there is one:
 * the same address, the same filters, `offset` moved on by `limit`.
 */
export function linkToNext(c: AppContext, page: { offset: number; limit: number; more: boolean }): void {
  if (!page.more) return;
  const next = new URL(c.req.url);
  next.searchParams.set('offset', String(page.offset + page.limit));
  c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
}
