import type { KyResponse } from 'ky';
import { z } from 'zod';

/** Most items one page of a list holds, and how many it holds when `limit` is not given. */
export const PAGE_MAX_LIMIT = 100;
/** Deeper than any list goes; stops a request from making the database skip millions of rows. */
const PAGE_MAX_OFFSET = 100_000;

/**
 * The `limit` and `offset` query fields of a paged list. Add them with `.extend(pageQuery)`, not by
 * spreading: a spread may run getters, so the browser build would keep it, and zod with it.
 */
export const pageQuery = {
  limit: z.coerce.number().int().min(1).max(PAGE_MAX_LIMIT).optional(),
  offset: z.coerce.number().int().min(0).max(PAGE_MAX_OFFSET).optional(),
};

/** One page of a list, and whether the server has another after it. */
export interface Page<T> {
  items: T[];
  more: boolean;
}

/** Where a page starts and how long it is, as query values (the defaults left out). */
export function pageParams(page: { limit?: number | undefined; offset?: number | undefined }): Record<string, string> {
  return {
    ...(page.limit === undefined ? {} : { limit: String(page.limit) }),
    ...(page.offset ? { offset: String(page.offset) } : {}),
  };
}

/** A paged answer: its items, and whether its `Link` header points to a next page. */
export async function readPage<T>(response: KyResponse): Promise<Page<T>> {
  return { items: await response.json<T[]>(), more: /\brel="?next"?/.test(response.headers.get('link') ?? '') };
}

/**
 * Most pages of a list one address shows at once: `?page=N` is where «Показати ще» leads a reader
 * whose browser has not run the island (no JavaScript, or a tap before it loaded), and it shows the
 * first N pages, as the island would after N − 1 taps.
 */
export const MAX_SHOWN_PAGES = 10;

/** How many pages `?page=` asks for: 1 unless it is a whole number from 2 to MAX_SHOWN_PAGES. */
export function shownPages(search: URLSearchParams): number {
  const value = search.get('page');
  const pages = value !== null && /^\d{1,3}$/.test(value) ? Number(value) : 1;
  return pages >= 1 && pages <= MAX_SHOWN_PAGES ? pages : 1;
}

/** Where «Показати ще» leads without JavaScript: `href` with the next page count, or nothing past the last. */
export function nextPageHref(href: string, shownItems: number, pageSize: number): string | undefined {
  const next = Math.floor(shownItems / pageSize) + 1;
  if (next > MAX_SHOWN_PAGES) return undefined;
  const url = new URL(href, 'http://x');
  url.searchParams.set('page', String(next));
  return `${url.pathname}${url.search}`;
}

/** The first `count` items of a list, read at most PAGE_MAX_LIMIT at a time. */
export async function readFirst<T>(count: number, read: (offset: number, limit: number) => Promise<Page<T>>): Promise<Page<T>> {
  const items: T[] = [];
  for (;;) {
    const page = await read(items.length, Math.min(PAGE_MAX_LIMIT, count - items.length));
    // Not a list: the caller tells the reader so, as for a single page.
    if (!Array.isArray(page.items)) return page;
    items.push(...page.items);
    if (!page.more || items.length >= count || page.items.length === 0) return { items, more: page.more };
  }
}
