import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../src/lib/api/client.ts';
import { GUEST_PAGE_CACHE } from '../../src/pages/_cache.ts';
import { loadById } from '../../src/pages/_load.ts';

/*
 * The answer every guest page of one thing (a player, a team, a match, its embed, a tournament's
 * history) gives: the thing, or 404 for an id that cannot be one or is unknown, or 503.
 */
const ID = '0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c';
const messages = { notFound: 'Гравця не знайдено', invalid: 'Посилання некоректне', failed: 'Помилка завантаження' };

function page(id: string | undefined) {
  return { params: { id }, response: { status: 200, headers: new Headers() } };
}

/** A loader through a real API client whose server answers `answer` (or cannot be reached). */
function loaderAnswering(answer: () => Response) {
  const fetch = vi.fn(async () => answer());
  const api = createApiClient({ baseUrl: 'http://test.local/api', fetch });
  return { fetch, load: (id: string) => api.get(`players/${id}`).json<{ name: string }>() };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('a guest page of one thing', () => {
  it('shows what it loaded, and lets caches hold it', async () => {
    const { load } = loaderAnswering(() => json(200, { name: 'Олена' }));
    const target = page(ID);
    expect(await loadById(target, load, messages)).toEqual({ value: { name: 'Олена' }, problem: null });
    expect(target.response.status).toBe(200);
    expect(target.response.headers.get('cache-control')).toBe(GUEST_PAGE_CACHE);
  });

  it('answers 404 without asking the API when the path cannot be an id', async () => {
    for (const id of [undefined, 'not-an-id', `${ID}x`, ID.toUpperCase().replace('A', 'G')]) {
      const { fetch, load } = loaderAnswering(() => json(200, {}));
      const target = page(id);
      expect(await loadById(target, load, messages), String(id)).toEqual({ value: null, problem: 'Посилання некоректне' });
      expect(target.response.status).toBe(404);
      expect(target.response.headers.get('cache-control')).toBe('no-store');
      expect(fetch).not.toHaveBeenCalled();
    }
    const { load } = loaderAnswering(() => json(200, {}));
    expect(await loadById(page('x'), load, { notFound: 'Немає' })).toEqual({ value: null, problem: 'Немає' });
  });

  it('answers 404 for an id the API does not know', async () => {
    for (const status of [404, 400]) {
      const { load } = loaderAnswering(() => json(status, { message: 'Не знайдено' }));
      const target = page(ID);
      expect(await loadById(target, load, messages)).toEqual({ value: null, problem: 'Гравця не знайдено' });
      expect(target.response.status).toBe(404);
      expect(target.response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 503 with the API’s own words when it gave some, else the page’s, and is never held', async () => {
    const busy = loaderAnswering(() => json(503, { message: 'Сервер перевантажений' }));
    const target = page(ID);
    expect(await loadById(target, busy.load, messages)).toEqual({ value: null, problem: 'Сервер перевантажений' });
    expect(target.response.status).toBe(503);
    expect(target.response.headers.get('cache-control')).toBe('no-store');

    const unreachable = loaderAnswering(() => {
      throw new TypeError('fetch failed');
    });
    expect(await loadById(page(ID), unreachable.load, messages)).toEqual({ value: null, problem: 'Помилка завантаження' });
    expect(await loadById(page(ID), unreachable.load, { notFound: 'Немає' })).toEqual({ value: null, problem: 'Немає' });
  });
});
