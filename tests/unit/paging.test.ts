import { describe, expect, it, vi } from 'vitest';
import { MAX_SHOWN_PAGES, nextPageHref, readFirst, shownPages, type Page } from '../../src/lib/api/paging.ts';

const search = (query: string) => new URLSearchParams(query);

describe('?page= of a server-rendered list', () => {
  it('asks for that many pages, from 1 to the most one address shows', () => {
    expect(shownPages(search(''))).toBe(1);
    expect(shownPages(search('page=2'))).toBe(2);
    expect(shownPages(search(`page=${MAX_SHOWN_PAGES}`))).toBe(MAX_SHOWN_PAGES);
  });

  it('falls back to one page for anything else', () => {
    for (const value of ['0', '-1', '1.5', 'abc', '', ' 2', '2e1', `${MAX_SHOWN_PAGES + 1}`, '999999999']) {
      expect(shownPages(search(`page=${encodeURIComponent(value)}`)), value).toBe(1);
    }
  });

  it('is where «show more» leads: the next page count, keeping the rest of the address', () => {
    expect(nextPageHref('/games/g1', 24, 24)).toBe('/games/g1?page=2');
    expect(nextPageHref('/games/g1', 48, 24)).toBe('/games/g1?page=3');
    // One deleted meanwhile: the next address still shows everything up to the next page.
    expect(nextPageHref('/games/g1', 47, 24)).toBe('/games/g1?page=2');
    expect(nextPageHref('/news?view=archive', 10, 10)).toBe('/news?view=archive&page=2');
  });

  it('stops past the last page an address can show (the island still appends)', () => {
    expect(nextPageHref('/news', (MAX_SHOWN_PAGES - 1) * 10, 10)).toBe(`/news?page=${MAX_SHOWN_PAGES}`);
    expect(nextPageHref('/news', MAX_SHOWN_PAGES * 10, 10)).toBeUndefined();
  });
});

describe('reading the first items of a list', () => {
  /** A list of `total` numbers served as the API does: at most 100 a page, `more` while any are left. */
  function list(total: number) {
    return vi.fn(async (offset: number, limit: number): Promise<Page<{ _id: string }>> => {
      expect(limit).toBeLessThanOrEqual(100);
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ _id: String(offset + i) }));
      return { items, more: offset + items.length < total };
    });
  }

  it('takes one request when one page holds them', async () => {
    const read = list(1000);
    const page = await readFirst(24, read);
    expect(page.items.map((item) => item._id)).toEqual(Array.from({ length: 24 }, (_, i) => String(i)));
    expect(page.more).toBe(true);
    expect(read).toHaveBeenCalledOnce();
  });

  it('reads past the 100-item limit a page at a time, in order', async () => {
    const read = list(1000);
    const page = await readFirst(240, read);
    expect(page.items).toHaveLength(240);
    expect(page.items[239]?._id).toBe('239');
    expect(read.mock.calls).toEqual([
      [0, 100],
      [100, 100],
      [200, 40],
    ]);
  });

  it('stops where the list ends and says there is no more', async () => {
    const read = list(130);
    const page = await readFirst(240, read);
    expect(page.items).toHaveLength(130);
    expect(page.more).toBe(false);
    expect(read).toHaveBeenCalledTimes(2);
  });

  it('hands back an answer that is not a list as it came', async () => {
    const odd = { items: 'nonsense', more: false } as unknown as Page<{ _id: string }>;
    expect(await readFirst(24, async () => odd)).toBe(odd);
  });
});
