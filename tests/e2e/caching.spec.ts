import { expect, test } from './fixtures.ts';

const A_YEAR = 'public, max-age=31536000, immutable';

/** The max-age of a Cache-Control header, in seconds (0 when it names none). */
const maxAge = (cacheControl: string | undefined) => Number(cacheControl?.match(/(?:^|[ ,])max-age=(\d+)/)?.[1] ?? 0);

test('the scripts and styles a page loads are fingerprinted and kept for a year; the page itself is revalidated', async ({ page }) => {
  const assets: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/_astro/')) assets.push(response.url());
  });
  const response = await page.goto('/tournaments');
  expect(response?.status()).toBe(200);
  // The page: a shared cache may keep it briefly, a browser asks again every time.
  const pageCache = response?.headers()['cache-control'];
  expect(pageCache).toContain('public');
  expect(maxAge(pageCache)).toBe(0);
  expect(pageCache).not.toContain('immutable');

  const html = await response!.text();
  const linked = [...html.matchAll(/\/_astro\/[^"'\s)]+\.(?:js|css)/g)].map((m) => m[0]);
  const urls = [...new Set([...linked, ...assets.map((url) => new URL(url).pathname)])];
  expect(urls.length).toBeGreaterThan(0);
  for (const url of urls) {
    // A file's name changes with its content, so a year is safe.
    expect(url).toMatch(/[.-][\w-]{8}\.(js|css|woff2?|svg|png|jpe?g|webp)$/);
    const asset = await page.request.get(url);
    expect(asset.status(), url).toBe(200);
    expect(asset.headers()['cache-control'], url).toBe(A_YEAR);
  }
});

test('files of public/ keep their names, so they are not kept for a year', async ({ request }) => {
  for (const path of ['/favicon.svg', '/logo.svg', '/games/cs2.jpg', '/manifest.webmanifest']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const cacheControl = response.headers()['cache-control'];
    expect(cacheControl ?? '', path).not.toContain('immutable');
    expect(maxAge(cacheControl), `${path}: ${cacheControl}`).toBeLessThanOrEqual(24 * 60 * 60);
  }
});

test('a public API read revalidates through the real server: an ETag, then 304 while nothing changed', async ({ request }) => {
  const first = await request.get('/api/tournaments');
  expect(first.status()).toBe(200);
  const etag = first.headers()['etag'];
  expect(etag).toBeTruthy();
  expect(first.headers()['cache-control']).toContain('public');
  const again = await request.get('/api/tournaments', { headers: { 'If-None-Match': etag! } });
  expect(again.status()).toBe(304);
  expect(again.headers()['etag']).toBe(etag);
});

test('pages, API answers and scripts travel compressed to a browser that takes brotli', async ({ page }) => {
  const response = await page.goto('/tournaments');
  expect(await response?.headerValue('content-encoding')).toBe('br');
  expect(await response?.headerValue('vary')).toContain('Accept-Encoding');
  const html = await response!.text();
  const scripts = [...new Set([...html.matchAll(/\/_astro\/[^"'\s)]+\.js/g)].map((m) => m[0]))];
  expect(scripts.length).toBeGreaterThan(0);
  let compressed = 0;
  for (const path of scripts) {
    const plain = await page.request.get(path, { headers: { 'accept-encoding': 'identity' } });
    const packed = await page.request.get(path, { headers: { 'accept-encoding': 'br' } });
    // Files under 1 KB are sent as they are: compressing them saves less than it costs.
    if ((await plain.body()).length < 1024) continue;
    expect(packed.headers()['content-encoding'], path).toBe('br');
    compressed++;
  }
  expect(compressed).toBeGreaterThan(0);
  const api = await page.request.get('/api/tournaments', { headers: { 'accept-encoding': 'br' } });
  expect(api.headers()['content-encoding']).toBe('br');
  expect(Array.isArray(await api.json())).toBe(true);
});

test('a live page’s regions are its marked parts alone, public for guests unless they name a change not heard of, never indexed; an unknown or malformed id is a 404', async ({ request }) => {
  const list = await (await request.get('/api/tournaments?status=started&limit=1')).json();
  const tournamentId = (list as { _id: string }[])[0]!._id;
  const stages = (await (await request.get(`/api/tournaments/${tournamentId}/stages`)).json()) as { stages: { matches: { _id: string }[] }[] };
  const matchId = stages.stages[0]!.matches[0]!._id;
  const cases: [string, string[]][] = [
    [`/tournaments/${tournamentId}/live`, ['status', 'winner', 'standing', 'organisers', 'history']],
    [`/tournament/${tournamentId}/bracket/live`, ['bracket']],
    [`/embed/tournaments/${tournamentId}/live?lang=en&theme=light`, ['bracket']],
    [`/matches/${matchId}/live`, ['match', 'veto', 'history']],
    [`/embed/matches/${matchId}/live?lang=en`, ['match']],
  ];
  for (const [path, regions] of cases) {
    const response = await request.get(`${path}${path.includes('?') ? '&' : '?'}v=made-up`);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    // A fragment: no document, no head, only the page's live regions.
    expect(html, path).not.toMatch(/<html|<head[\s>]|<!doctype/i);
    expect([...html.matchAll(/data-live-region="([a-z]+)"/g)].map((m) => m[1]), path).toEqual(regions);
    // A change this server never heard of: answered, but held by no cache.
    expect(response.headers()['cache-control'], path).toBe('no-store');
    expect(response.headers()['x-robots-tag'], path).toBe('noindex');
    // Without `v`, the regions as they are now: public like the page.
    expect((await request.get(path)).headers()['cache-control'], path).toContain('public');
  }
  for (const path of ['/tournaments/00000000-0000-4000-8000-000000000000/live', '/tournaments/not-an-id/live', '/matches/00000000-0000-4000-8000-000000000000/live', '/tournament/x/bracket/live']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()['cache-control'], path).toBe('no-store');
  }
});
