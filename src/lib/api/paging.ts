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
