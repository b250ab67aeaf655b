import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { type DataTag, tournamentData } from '../../src/server/services/live/changes.ts';
import type { Locale } from '../../src/lib/i18n/core.ts';
import {
  AnswerCache,
  askedOf,
  type Asked,
  EXPIRED_GRACE_MS,
  type Leaving,
  MAX_BACKGROUND_RENDERS,
  type Rendered,
  REFRESH_EVERY_MS,
  STALE_MAX_MS,
  WROTE_COOKIE,
} from '../../src/server/serving/answer-cache.ts';

/*
 * The answer cache (decision 033): answers held by the data they show, fresh until a write says it
 * changed that data, one render per burst, stale while revalidating, keyed by nothing a client sends
 * but the address and the language.
 */

const PUBLIC = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=0, s-maxage=30' };
const A = tournamentData('11111111-1111-4111-8111-111111111111');
const B = tournamentData('22222222-2222-4222-8222-222222222222');

function asked(path: string, options: { headers?: Record<string, string>; locale?: Locale; origin?: string } = {}): Asked {
  const url = new URL(path, options.origin ?? 'http://arena.test');
  return { request: new Request(url, { headers: options.headers ?? {} }), path: url.pathname + url.search, search: url.search, locale: options.locale ?? 'uk', origin: options.origin ?? 'http://arena.test' };
}

/** A render that counts itself, answers `body` and says it shows `shown`. */
function renderer(body: string, shown: DataTag[] = [], headers: Record<string, string> = PUBLIC, extra: Partial<Rendered> = {}) {
  const render = vi.fn(async (): Promise<Rendered> => ({ response: new Response(body, { headers }), shown: new Set(shown), ...extra }));
  return render;
}

/** A render that waits until `release` is called. */
function slowRenderer(body: string, shown: DataTag[] = []) {
  let release!: () => void;
  const gate = new Promise<void>((done) => (release = done));
  const render = vi.fn(async (): Promise<Rendered> => {
    await gate;
    return { response: new Response(body, { headers: PUBLIC }), shown: new Set(shown) };
  });
  return { render, release: () => release() };
}

describe('the answer cache', () => {
  it('keeps an answer fresh until a change names what it shows; other changes leave it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      const render = renderer('A', [A]);
      // Read a few seconds apart, as a quiet page is: its first reader after a change gets it fresh.
      const read = async () => {
        vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
        return cache.get(asked('/tournaments/a'), render);
      };
      await read();
      await read();
      expect(render).toHaveBeenCalledTimes(1);
      cache.changed(new Set([B, 'news']));
      await read();
      expect(render).toHaveBeenCalledTimes(1);
      cache.changed(new Set([A]));
      expect(await (await read()).text()).toBe('A');
      expect(render).toHaveBeenCalledTimes(2);
      // `everything` changed: every answer, whatever it shows.
      cache.changed(new Set(['everything']));
      await read();
      expect(render).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps the copy of an address in demand for STALE_MAX_MS after it was made while changes come, rendered again behind it at most once a second', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(600_000);
      await cache.get(asked('/leaderboards'), renderer('first', ['ratings']));
      // Handed out twice within STALE_MAX_MS: in demand.
      await cache.get(asked('/leaderboards'), renderer('unused', ['ratings']));
      await cache.get(asked('/leaderboards'), renderer('unused', ['ratings']));
      cache.changed(new Set(['ratings']));
      const { render, release } = slowRenderer('second', ['ratings']);
      // Made less than REFRESH_EVERY_MS ago: handed out, and not rendered again yet.
      expect(await (await cache.get(asked('/leaderboards'), render)).text()).toBe('first');
      expect(render).not.toHaveBeenCalled();
      vi.setSystemTime(Date.now() + REFRESH_EVERY_MS);
      cache.changed(new Set(['ratings']));
      // Now one render runs behind the copy; readers meanwhile get the copy and start no other.
      expect(await (await cache.get(asked('/leaderboards'), render)).text()).toBe('first');
      expect(await (await cache.get(asked('/leaderboards'), render)).text()).toBe('first');
      expect(render).toHaveBeenCalledTimes(1);
      // A reader who asks for a fresh answer waits for it: that render began after the change.
      const reload = cache.get(asked('/leaderboards', { headers: { 'cache-control': 'no-cache' } }), render);
      release();
      expect(await (await reload).text()).toBe('second');
      expect(render).toHaveBeenCalledTimes(1);
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      // Past STALE_MAX_MS after it was made, a copy out of date is no longer handed out for demand alone.
      cache.changed(new Set(['ratings']));
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      expect(await (await cache.get(asked('/leaderboards'), renderer('third', ['ratings']))).text()).toBe('third');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes an answer that named nothing to show everything: any change makes it out of date', async () => {
    const cache = new AnswerCache(60_000);
    const render = renderer('about');
    await cache.get(asked('/about'), render);
    cache.changed(new Set(['news']));
    await cache.get(asked('/about'), render);
    expect(render).toHaveBeenCalledTimes(2);
  });

  it('renders an answer past its time again behind its copy: no reader waits, and the next one gets the new answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      await cache.get(asked('/news'), renderer('old', ['news']));
      vi.setSystemTime(Date.now() + 60_001);
      const { render, release } = slowRenderer('new', ['news']);
      // Handed out at once while one render runs behind it; the readers meanwhile start no other.
      expect(await (await cache.get(asked('/news'), render)).text()).toBe('old');
      expect(await (await cache.get(asked('/news'), render)).text()).toBe('old');
      expect(render).toHaveBeenCalledTimes(1);
      expect(cache.stats().background).toBe(1);
      release();
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      expect(await (await cache.get(asked('/news'), render)).text()).toBe('new');
      expect(render).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives a copy past its time to no reader who asks for a fresh one, and to nobody after EXPIRED_GRACE_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      await cache.get(asked('/news'), renderer('old', ['news']));
      vi.setSystemTime(Date.now() + 60_001);
      expect(await (await cache.get(asked('/news', { headers: { 'cache-control': 'no-cache' } }), renderer('reloaded', ['news']))).text()).toBe('reloaded');
      vi.setSystemTime(Date.now() + 60_000 + EXPIRED_GRACE_MS + 1);
      expect(await (await cache.get(asked('/news'), renderer('waited for', ['news']))).text()).toBe('waited for');
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes a 304 for the held copy’s ETag as that copy made again: fresh for its time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      const tagged = { ...PUBLIC, etag: '"v1"' };
      await cache.get(asked('/api/t'), renderer('body', [A], tagged));
      vi.setSystemTime(Date.now() + 60_001);
      const same = renderer('', [A], tagged, { response: new Response(null, { status: 304, headers: tagged }) });
      expect((await cache.get(asked('/api/t', { headers: { 'if-none-match': '"v1"' } }), same)).status).toBe(304);
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      expect(same).toHaveBeenCalledTimes(1);
      const after = renderer('never', [A]);
      expect(await (await cache.get(asked('/api/t'), after)).text()).toBe('body');
      expect(after).not.toHaveBeenCalled();
      // Out of date by a change (read seconds later: not in demand), a render whose 304 says nothing moved makes it current again.
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      cache.changed(new Set([A]));
      expect((await cache.get(asked('/api/t', { headers: { 'if-none-match': '"v1"' } }), same)).status).toBe(304);
      expect(same).toHaveBeenCalledTimes(2);
      expect(await (await cache.get(asked('/api/t'), after)).text()).toBe('body');
      cache.changed(new Set([A]));
      expect(await (await cache.get(asked('/api/t'), after)).text()).toBe('never');
    } finally {
      vi.useRealTimers();
    }
  });

  it('runs at most MAX_BACKGROUND_RENDERS renders behind copies; past them a copy is handed out without one', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      const paths = Array.from({ length: MAX_BACKGROUND_RENDERS + 1 }, (_, i) => `/t/${i}`);
      for (const path of paths) await cache.get(asked(path), renderer(`old ${path}`, ['news']));
      vi.setSystemTime(Date.now() + 60_001);
      const { render, release } = slowRenderer('new', ['news']);
      for (const path of paths) expect(await (await cache.get(asked(path), render)).text()).toBe(`old ${path}`);
      expect(render).toHaveBeenCalledTimes(MAX_BACKGROUND_RENDERS);
      release();
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      // The one left out is rendered behind the next reader's copy.
      const last = paths.at(-1)!;
      expect(await (await cache.get(asked(last), render)).text()).toBe(`old ${last}`);
      expect(render).toHaveBeenCalledTimes(MAX_BACKGROUND_RENDERS + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('renders once for a burst of readers of an answer nobody holds', async () => {
    const cache = new AnswerCache(60_000);
    const { render, release } = slowRenderer('page', ['tournaments']);
    const burst = Array.from({ length: 20 }, () => cache.get(asked('/tournaments'), render));
    release();
    const answers = await Promise.all(burst);
    expect(render).toHaveBeenCalledTimes(1);
    expect(await Promise.all(answers.map((answer) => answer.text()))).toEqual(Array.from({ length: 20 }, () => 'page'));
  });

  it('hands out the out-of-date copy while one reader renders it again, unless the reader asked for a fresh one', async () => {
    const cache = new AnswerCache(60_000);
    await cache.get(asked('/t'), renderer('old', [A]));
    cache.changed(new Set([A]));
    const { render, release } = slowRenderer('new', [A]);
    const renderer1 = cache.get(asked('/t'), render);
    await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
    // Meanwhile: the copy for a reader who did not ask; the new answer for one who did (a reload, a live page after an event).
    expect(await (await cache.get(asked('/t'), render)).text()).toBe('old');
    const fresh = cache.get(asked('/t', { headers: { 'cache-control': 'no-cache' } }), render);
    const writer = cache.get(asked('/t', { headers: { cookie: 'kiberarena_wrote=1' } }), render);
    release();
    expect(await (await renderer1).text()).toBe('new');
    expect(await (await fresh).text()).toBe('new');
    expect(await (await writer).text()).toBe('new');
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('stops handing out an out-of-date copy after STALE_MAX_MS: its readers then wait for the render', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(600_000);
      await cache.get(asked('/t'), renderer('old', [A]));
      cache.changed(new Set([A]));
      const { render, release } = slowRenderer('new', [A]);
      const first = cache.get(asked('/t'), render);
      await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      const late = cache.get(asked('/t'), render);
      release();
      expect(await (await late).text()).toBe('new');
      expect(await (await first).text()).toBe('new');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps an answer whose data changed while it rendered as out of date', async () => {
    const cache = new AnswerCache(60_000);
    const { render, release } = slowRenderer('read before the change', [A]);
    const answer = cache.get(asked('/t'), render);
    await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
    cache.changed(new Set([A]));
    release();
    await answer;
    const again = renderer('after', [A]);
    expect(await (await cache.get(asked('/t'), again)).text()).toBe('after');
  });

  it('holds one copy per language, and gives another origin a render of its own without touching the held one', async () => {
    const cache = new AnswerCache(60_000);
    const render = renderer('p', ['news']);
    await cache.get(asked('/news', { locale: 'uk' }), render);
    await cache.get(asked('/news', { locale: 'en' }), render);
    await cache.get(asked('/news', { locale: 'uk' }), render);
    expect(render).toHaveBeenCalledTimes(2);
    for (let i = 0; i < 5; i++) await cache.get(asked('/news', { origin: `http://evil${i}.test` }), render);
    expect(render).toHaveBeenCalledTimes(7);
    await cache.get(asked('/news', { locale: 'uk' }), render);
    expect(render).toHaveBeenCalledTimes(7);
  });

  it('holds only text that is public, sets no cookie, names only the query its route takes, and is no event stream', async () => {
    const cache = new AnswerCache(60_000);
    const cases: [string, ReturnType<typeof renderer>][] = [
      ['/private', renderer('x', [], { 'content-type': 'text/html', 'cache-control': 'private, no-cache' })],
      ['/cookie', renderer('x', [], { ...PUBLIC, 'set-cookie': 'a=1' })],
      ['/missing', renderer('x', [], { 'content-type': 'text/html' })],
      // A picture (a share card) has a cache of its own.
      ['/api/og/t/x.png', renderer('png', [], { 'content-type': 'image/png', 'cache-control': 'public, max-age=300' })],
      ['/news?r=1', renderer('x', [], PUBLIC, { params: new Set(['page']) })],
    ];
    for (const [path, render] of cases) {
      await cache.get(asked(path), render);
      await cache.get(asked(path), render);
      expect(render, path).toHaveBeenCalledTimes(2);
    }
    const paged = renderer('x', [], PUBLIC, { params: new Set(['page']) });
    await cache.get(asked('/news?page=2'), paged);
    await cache.get(asked('/news?page=2'), paged);
    expect(paged).toHaveBeenCalledTimes(1);
  });

  it('gives an event stream to its own reader only, never reading it whole', async () => {
    const cache = new AnswerCache(60_000);
    const render = vi.fn(async (): Promise<Rendered> => ({
      response: new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode('event: ready\n\n')) }), {
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      }),
      shown: new Set(),
    }));
    const [one, two] = await Promise.all([cache.get(asked('/api/tournaments/x/events'), render), cache.get(asked('/api/tournaments/x/events'), render)]);
    expect(render).toHaveBeenCalledTimes(2);
    for (const stream of [one, two]) {
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('event: ready\n\n');
      await reader.cancel();
    }
  });

  it('answers a reader holding the held answer’s ETag with a 304, and compresses once per encoding', async () => {
    const cache = new AnswerCache(60_000);
    const body = 'турнір '.repeat(500);
    const render = renderer(body, ['news'], { ...PUBLIC, etag: '"v1"' });
    const plain = await cache.get(asked('/n'), render);
    expect(await plain.text()).toBe(body);
    const packed = await cache.get(asked('/n', { headers: { 'accept-encoding': 'br' } }), render);
    expect(packed.headers.get('content-encoding')).toBe('br');
    const notModified = await cache.get(asked('/n', { headers: { 'if-none-match': '"v1"' } }), render);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('content-length')).toBeNull();
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('holds at most its number of answers, the oldest going first', async () => {
    const cache = new AnswerCache(60_000, { maxEntries: 3 });
    for (const path of ['/1', '/2', '/3', '/4']) await cache.get(asked(path), renderer(path, ['news']));
    expect(cache.stats().entries).toBe(3);
    const first = renderer('/1', ['news']);
    await cache.get(asked('/1'), first);
    expect(first).toHaveBeenCalledTimes(1);
  });
});

describe('a held answer handed out before any render (`handOut`, decision 048)', () => {
  /** Asks `handOut` as scripts/serve.ts does: where it is held, and the reader's headers. */
  const fresh = (cache: AnswerCache, path: string, options: { acceptEncoding?: string; ifNoneMatch?: string; locale?: Locale; origin?: string; headers?: Record<string, string> } = {}) => {
    const headers = new Headers(options.headers);
    if (options.acceptEncoding) headers.set('accept-encoding', options.acceptEncoding);
    if (options.ifNoneMatch) headers.set('if-none-match', options.ifNoneMatch);
    return cache.handOut(asked(path, options), headers);
  };
  /** The body of the copy `fresh` hands out for `path`, as text. */
  const handedOutText = async (cache: AnswerCache, path: string) => new TextDecoder().decode((await fresh(cache, path))!.body!);
  const header = (headers: string[], name: string) => {
    const at = headers.findIndex((h, index) => index % 2 === 0 && h.toLowerCase() === name);
    return at < 0 ? undefined : headers[at + 1];
  };

  it('is the held answer while fresh, as it leaves for the reader: its encoding with its length, or 304 for its ETag without one', async () => {
    const cache = new AnswerCache(60_000);
    expect(await fresh(cache, '/t')).toBeNull();
    const body = 'турнір '.repeat(500);
    await cache.get(asked('/t'), renderer(body, [A], { ...PUBLIC, etag: '"v1"' }));
    const plain = await fresh(cache, '/t');
    expect(plain?.status).toBe(200);
    expect(new TextDecoder().decode(plain!.body!)).toBe(body);
    expect(header(plain!.headers, 'content-length')).toBe(String(plain!.body!.byteLength));
    const packed = await fresh(cache, '/t', { acceptEncoding: 'gzip, br' });
    expect(header(packed!.headers, 'content-encoding')).toBe('br');
    expect(brotliDecompressSync(packed!.body!).toString('utf8')).toBe(body);
    const notModified = await fresh(cache, '/t', { ifNoneMatch: '"v1"' });
    expect(notModified).toMatchObject({ status: 304, body: null });
    expect(header(notModified!.headers, 'content-length')).toBeUndefined();
    expect(header(notModified!.headers, 'etag')).toBe('"v1"');
  });

  it('leaves at once, not on a later turn, once its copy in the reader’s encoding is made', async () => {
    const cache = new AnswerCache(60_000);
    await cache.get(asked('/t'), renderer('турнір '.repeat(500), [A]));
    const first = fresh(cache, '/t', { acceptEncoding: 'br' });
    expect(first).toBeInstanceOf(Promise);
    await first;
    const again = fresh(cache, '/t', { acceptEncoding: 'br' });
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ status: 200 });
    expect(header((again as Leaving).headers, 'content-encoding')).toBe('br');
  });

  it('is the copy out of date while another reader renders it, for STALE_MAX_MS, unless the reader asks for a fresh one; nothing while no render is under way', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(600_000);
      await cache.get(asked('/t'), renderer('old', [A]));
      cache.changed(new Set([A]));
      // Out of date, and nobody renders it: this reader goes on to render it.
      expect(fresh(cache, '/t')).toBeNull();
      const { render, release } = slowRenderer('new', [A]);
      const rendering = cache.get(asked('/t'), render);
      await vi.waitFor(() => expect(render).toHaveBeenCalledTimes(1));
      const meanwhile = await fresh(cache, '/t');
      expect(new TextDecoder().decode(meanwhile!.body!)).toBe('old');
      expect(fresh(cache, '/t', { headers: { 'cache-control': 'no-cache' } })).toBeNull();
      expect(fresh(cache, '/t', { headers: { cookie: `${WROTE_COOKIE}=1` } })).toBeNull();
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      expect(fresh(cache, '/t')).toBeNull();
      release();
      await rendering;
      expect(await handedOutText(cache, '/t')).toBe('new');
    } finally {
      vi.useRealTimers();
    }
  });

  it('is nothing for a copy past its time that is due to be rendered again (`get` starts that), and the copy while that render runs', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      await cache.get(asked('/t'), renderer('old', ['news']));
      vi.setSystemTime(Date.now() + 60_001);
      expect(fresh(cache, '/t')).toBeNull();
      const { render, release } = slowRenderer('new', ['news']);
      await cache.get(asked('/t'), render);
      expect(await handedOutText(cache, '/t')).toBe('old');
      expect(fresh(cache, '/t', { headers: { 'cache-control': 'no-cache' } })).toBeNull();
      release();
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      expect(await handedOutText(cache, '/t')).toBe('new');
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts one reader sent on to `get` for a copy due behind it as one hand-out: that page is not in demand', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const cache = new AnswerCache(60_000);
      await cache.get(asked('/t'), renderer('old', ['news']));
      vi.setSystemTime(Date.now() + 60_001);
      // One reader: the front sends it on, `get` hands out the copy and renders it behind it.
      expect(fresh(cache, '/t')).toBeNull();
      await cache.get(asked('/t'), renderer('new', ['news']));
      await vi.waitFor(() => expect(cache.stats().background).toBe(0));
      cache.changed(new Set(['news']));
      // A quiet page: its next reader after the change gets it fresh.
      expect(await (await cache.get(asked('/t'), renderer('changed', ['news']))).text()).toBe('changed');
    } finally {
      vi.useRealTimers();
    }
  });

  it('is nothing once its data changed, for another language, address or origin, or for what was never held', async () => {
    const cache = new AnswerCache(60_000);
    await cache.get(asked('/t'), renderer('A', [A]));
    expect(await fresh(cache, '/t', { locale: 'en' })).toBeNull();
    expect(await fresh(cache, '/t?x=1')).toBeNull();
    expect(await fresh(cache, '/t', { origin: 'http://other.test' })).toBeNull();
    await cache.get(asked('/private'), renderer('mine', [A], { 'content-type': 'text/html', 'cache-control': 'private' }));
    expect(await fresh(cache, '/private')).toBeNull();
    expect(await fresh(cache, '/t')).not.toBeNull();
    cache.changed(new Set([A]));
    expect(await fresh(cache, '/t')).toBeNull();
  });
});

describe('a guest’s read as the cache keys it (askedOf)', () => {
  const request = (path: string, cookie?: string) => new Request(new URL(path, 'http://arena.test'), { headers: cookie ? { cookie } : {} });
  it('takes the address, the reader’s language and the configured origin; an embed the language its address names', () => {
    const page = askedOf(request('/tournaments/x?v=1', 'lang=en'), new URL('http://arena.test/tournaments/x?v=1'), null);
    expect(page).toMatchObject({ path: '/tournaments/x?v=1', search: '?v=1', locale: 'en', origin: 'http://arena.test' });
    expect(askedOf(request('/tournaments/x'), new URL('http://arena.test/tournaments/x'), 'https://kiberarena.ua').origin).toBe('https://kiberarena.ua');
    expect(askedOf(request('/tournaments/x'), new URL('http://arena.test/tournaments/x'), null).locale).toBe('uk');
    const embed = new URL('http://arena.test/embed/tournaments/x?lang=en');
    expect(askedOf(request(embed.pathname + embed.search, 'lang=uk'), embed, null).locale).toBe('en');
  });
});
