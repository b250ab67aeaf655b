import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { type DataTag, EVERYTHING } from '../services/live/changes.ts';
import { embedOptions, isEmbedPath } from '../../lib/domain/embed.ts';
import type { Locale } from '../../lib/i18n/core.ts';
import { localeOf } from '../locale.ts';
import { chooseEncoding, compress } from './compression.ts';

/**
 * The in-process cache of guests' public reads (decision 033). Pages are the same for every guest
 * of one language (signed-in parts are islands), so rendering each anew for every visitor only
 * burns the CPU a cheap server has little of.
 *
 * An answer is held by what it shows, not for a time: the render says which data it read
 * (services/live/changes.ts `shows`), and the answer stays fresh until a write says it changed one of
 * those (`changed`, told on every instance). Out of date, it is handed out for a few seconds more
 * (STALE_MAX_MS) while one request renders it again; concurrent requests for an answer nobody holds
 * wait for the same render. Past its time with no change told, its copy is handed out while it is
 * rendered again behind it (EXPIRED_GRACE_MS); an address in demand keeps its copy for up to
 * STALE_MAX_MS after it was made while changes come, rendered again behind it at most once a second
 * (REFRESH_EVERY_MS). So no reader of a busy page waits for its render (decision 050). A reader who
 * asks for a fresh answer (a reload, a live page after an event, the writer of a change:
 * `wantsFresh`) never gets a copy known to be out of date.
 *
 * The key is the address and the reader's language, nothing else a client sends: an answer is
 * held only when the route or page declared it public (its own `Cache-Control: public`), names no
 * query parameter its route does not take, sets no cookie, and was asked without a token. Answers
 * are kept as sent, compressed once per encoding on the first request that takes it.
 */

/** How an answer was sent: what compressing it for one encoding made. */
interface Sent {
  /** Flat name, value, name, value…, with the body's length. */
  headers: string[];
  /** The same without the body's length, for a 304 (some clients wait for that many bytes that never come). */
  notModified: string[];
  body: Uint8Array | null;
  etag: string | null;
  /** How `body` is actually encoded: small or binary answers are sent as they are. */
  encoding: 'br' | 'gzip' | null;
}

type Encoding = 'br' | 'gzip' | 'identity';

interface Entry {
  key: string;
  /** The origin it was rendered for: pages name their own address, so another origin is not served it. */
  origin: string;
  stored: number;
  /** When its time ends (`ttlMs`): a bound for what no write tells of, such as a deadline passing. */
  expires: number;
  /** The tags it goes out of date with (`CacheVersions.dependsOn`). */
  tags: readonly string[];
  /** `CacheVersions.now()` when its render began. */
  mark: number;
  /** When a reader first found it out of date; null while fresh. */
  staleSince: number | null;
  /** Whether a render of it is under way (its readers meanwhile may get this copy). */
  refreshing: boolean;
  status: number;
  statusText: string;
  headers: Headers;
  /** The body before compression, until the first compressed copy is made. */
  plain: Uint8Array<ArrayBuffer> | null;
  /** Its copy for each encoding asked so far: made, or being made (read on at once by a hot copy's readers). */
  sent: Map<Encoding, Sent | Promise<Sent>>;
  bytes: number;
  /** When its render began: a render that began earlier and ended later does not replace it. */
  begun: number;
  /** When its address was last handed out, and the time before (`#inDemand`); kept by the copy that replaces it. */
  handedOut: [number, number];
  /** An event stream: never held, never shared. */
  streamed: boolean;
}

/** What a render made and what it says of itself. */
export interface Rendered {
  response: Response;
  /** The data it showed (services/live/changes.ts `shows`); none said: everything. */
  shown: ReadonlySet<DataTag>;
  /** The query parameters its route takes (`acceptsQuery`); undefined: none. */
  params?: ReadonlySet<string> | undefined;
}

/** Bigger answers are rare (long lists) and not worth holding in memory. */
const MAX_BODY_BYTES = 512 * 1024;

/** What holding one answer costs beyond its text (the entry, its Headers, maps, promises). */
export const ENTRY_OVERHEAD_BYTES = 3 * 1024;

/** Renders shared at once at most; past it (a flood into `astro dev`) a render is neither shared nor held. */
const MAX_SHARED_RENDERS = 256;

/** At most this many answers are held at once. */
export const MAX_HELD_ANSWERS = 2000;

/** At most this much is held, counting bodies, keys, headers and ENTRY_OVERHEAD_BYTES per answer. */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/**
 * How long an answer is held when no write says it changed: only what changes without a write (a
 * registration window opening, a deadline) waits for it.
 */
export const PUBLIC_ANSWER_TTL_MS = 30_000;

/**
 * How long a copy found out of date is still handed out while one request renders it again. A
 * reader who asked for a fresh answer never gets it; a render that takes longer than this (an
 * overloaded server) is waited for by everyone.
 */
export const STALE_MAX_MS = 3000;

/**
 * How long past its time a copy no change made out of date is still handed out, while a render in
 * the background makes it again. Its data most likely is what it shows: a change would have said
 * so. Without this, a page read less often than its time (one of hundreds of tournaments) was
 * rendered while its reader waited, nearly every time it was read.
 */
export const EXPIRED_GRACE_MS = 30_000;

/**
 * How often at most an address in demand (`#inDemand`) is rendered again behind its copy while
 * changes come: under a stream of results (a final's evening, dozens a second) the leaderboards
 * and the home page are rendered about once a second, not once per result (decision 019's rule).
 */
export const REFRESH_EVERY_MS = 1000;

/**
 * Renders in the background (EXPIRED_GRACE_MS, REFRESH_EVERY_MS) at once at most. They hold no
 * place in a read line, so this bounds what they take from the readers who wait; past it a copy is
 * handed out without one, and a later reader asks for it.
 */
export const MAX_BACKGROUND_RENDERS = 2;

/** The cookie a successful write sets (src/middleware.ts): its writer's next pages show what they wrote. */
export const WROTE_COOKIE = 'kiberarena_wrote';
/** How long a writer's pages skip copies out of date. */
export const WROTE_COOKIE_SECONDS = 10;

/** Set by a successful write through the API (src/middleware.ts). */
export const WROTE_SET_COOKIE = `${WROTE_COOKIE}=1; Max-Age=${WROTE_COOKIE_SECONDS}; Path=/; SameSite=Lax; HttpOnly`;

const WROTE_IN_COOKIE = new RegExp(`(?:^|;\\s*)${WROTE_COOKIE}=`);

/**
 * Whether a request must not get a copy known to be out of date: a browser's reload and a live
 * page's read after an event (`cache: 'no-store'` sends `Cache-Control: no-cache`), and the writer
 * of a change for a few seconds after it (WROTE_COOKIE).
 */
export function wantsFresh(headers: HeaderReader): boolean {
  const cacheControl = headers.get('cache-control') ?? '';
  if (/\b(no-cache|no-store|max-age=0)\b/.test(cacheControl) || /\bno-cache\b/.test(headers.get('pragma') ?? '')) return true;
  return WROTE_IN_COOKIE.test(headers.get('cookie') ?? '');
}

/** A request's headers, read one by one: a fetch `Headers`, or Node's request's (scripts/serve.ts). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** Text: pages, JSON, feeds. Pictures (share cards, avatars) have caches of their own and would push the pages out. */
const HELD_TYPES = /^(text\/|application\/(json|xml|rss\+xml))/;

/** Whether a response may be held for every guest: text, public by its own Cache-Control, and setting no cookie. */
export function isHeldForGuests(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return (
    response.status === 200 &&
    HELD_TYPES.test(response.headers.get('content-type') ?? '') &&
    /\bpublic\b/.test(cacheControl) &&
    !/\b(private|no-store|no-cache)\b/.test(cacheControl) &&
    !response.headers.has('set-cookie')
  );
}

/** Whether every query parameter of `search` is one the route takes. */
function takesQuery(search: string, params: ReadonlySet<string> | undefined): boolean {
  if (search === '' || search === '?') return true;
  for (const name of new URLSearchParams(search).keys()) if (!params?.has(name)) return false;
  return true;
}

/**
 * When each data tag last changed, counted in changes told (services/live/changes.ts): an answer is
 * fresh while none of the tags it shows changed since its render began. An answer that named none
 * shows everything, so `ANY` moves with every change; `EVERYTHING` changed moves every answer.
 */
export class CacheVersions {
  static readonly ANY = '*';
  readonly #changedAt = new Map<string, number>();
  #count = 0;

  changed(tags: ReadonlySet<DataTag>): void {
    this.#count += 1;
    this.#changedAt.set(CacheVersions.ANY, this.#count);
    for (const tag of tags) this.#changedAt.set(tag, this.#count);
  }

  /** A mark to take before a render reads anything. */
  now(): number {
    return this.#count;
  }

  /** The tags an answer that shows `shown` goes out of date with. */
  static dependsOn(shown: ReadonlySet<DataTag>): readonly string[] {
    return shown.size === 0 || shown.has(EVERYTHING) ? [CacheVersions.ANY] : [...shown, EVERYTHING];
  }

  /** Whether none of `tags` changed since `mark`. */
  unchangedSince(tags: readonly string[], mark: number): boolean {
    return tags.every((tag) => (this.#changedAt.get(tag) ?? 0) <= mark);
  }
}

const bareTag = (tag: string) => tag.trim().replace(/^W\//, '');
const holdsTag = (ifNoneMatch: string | null, etag: string | null) =>
  Boolean(etag && ifNoneMatch?.split(',').some((tag) => tag.trim() === '*' || bareTag(tag) === bareTag(etag)));

/** Where a guest's read is held: its address, the language it is answered in, and the origin it was made for. */
export interface HeldAt {
  /** The path with its query, as asked. */
  path: string;
  /** The query part of `path` (`?…`, or empty). */
  search: string;
  locale: Locale;
  origin: string;
}

/** A guest's read, as the cache sees it. */
export interface Asked extends HeldAt {
  request: Request;
}

/** Where an answer is held: its address and the reader's language, nothing else a client sends. */
const keyOf = (at: HeldAt) => `${at.path} ${at.locale}`;

/**
 * Where a read at `url` is held: an embed speaks the language its address names (issue 23), a page
 * its reader's (`pageLocale`); the origin is the configured site's (SITE_URL), else the one the
 * request named.
 */
export function heldAt(url: URL, pageLocale: () => Locale, siteUrl: string | null): HeldAt {
  const locale = isEmbedPath(url.pathname) ? embedOptions(url.searchParams).locale : pageLocale();
  return { path: url.pathname + url.search, search: url.search, locale, origin: siteUrl ?? url.origin };
}

/** A guest's read as the cache sees it, from the request and its address (`heldAt`). */
export const askedOf = (request: Request, url: URL, siteUrl: string | null): Asked => ({ request, ...heldAt(url, () => localeOf(request), siteUrl) });

/** A held answer as it leaves for one reader: its status, its headers flat (name, value, …) and its body. */
export interface Leaving {
  status: number;
  headers: string[];
  body: Uint8Array | null;
}

export class AnswerCache {
  readonly versions = new CacheVersions();
  readonly #entries = new Map<string, Entry>();
  /** Renders under way, so a burst of requests for one answer renders it once. */
  readonly #pending = new Map<string, Promise<{ entry: Entry; rendered: Rendered }>>();
  readonly #ttlMs: number;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;
  /** Renders in the background under way (MAX_BACKGROUND_RENDERS). */
  #background = 0;

  constructor(ttlMs: number, { maxBytes = MAX_HELD_BYTES, maxEntries = MAX_HELD_ANSWERS }: { maxBytes?: number; maxEntries?: number } = {}) {
    this.#ttlMs = ttlMs;
    this.#maxBytes = maxBytes;
    this.#maxEntries = maxEntries;
  }

  /** What is held and under way, for tests and the bench. */
  stats(): { entries: number; bytes: number; pending: number; background: number } {
    return { entries: this.#entries.size, bytes: this.#bytes, pending: this.#pending.size, background: this.#background };
  }

  /** Data changed (here or on another instance): answers that show it are out of date. */
  changed(tags: ReadonlySet<DataTag>): void {
    this.versions.changed(tags);
  }

  #fresh(entry: Entry, now: number): boolean {
    return now < entry.expires && this.versions.unchangedSince(entry.tags, entry.mark);
  }

  /**
   * Whether a held answer may be handed out now: fresh; or, to a reader who did not ask for a fresh
   * one, past its time with no change told (for EXPIRED_GRACE_MS), or out of date while one reader
   * renders it again (for STALE_MAX_MS at most).
   */
  #handsOut(held: Entry, now: number, headers: HeaderReader): boolean {
    const handsOut = this.#fresh(held, now) || (!wantsFresh(headers) && this.#handsOutOutOfDate(held, now));
    if (handsOut) held.handedOut = [held.handedOut[1], now];
    return handsOut;
  }

  /**
   * Whether a copy out of date may be handed out to a reader who did not ask for a fresh one: past
   * its time with no change told, for EXPIRED_GRACE_MS; in demand, for STALE_MAX_MS after it was
   * made; otherwise while one reader renders it again, for STALE_MAX_MS after it was first found so.
   */
  #handsOutOutOfDate(held: Entry, now: number): boolean {
    held.staleSince ??= now;
    if (this.versions.unchangedSince(held.tags, held.mark)) return now - held.expires <= EXPIRED_GRACE_MS;
    if (this.#inDemand(held, now) && now - held.stored <= STALE_MAX_MS) return true;
    return held.refreshing && now - held.staleSince <= STALE_MAX_MS;
  }

  /**
   * Whether its address was handed out twice within STALE_MAX_MS: a page many read, whose renders
   * are worth sparing. A quiet page is rendered for the first reader after a change, who gets it
   * fresh.
   */
  #inDemand(held: Entry, now: number): boolean {
    return now - held.handedOut[0] <= STALE_MAX_MS;
  }

  /**
   * Whether a copy out of date that is handed out is to be rendered again behind it: past its time
   * with no change told, or in demand and made REFRESH_EVERY_MS ago or more; none under way, and
   * room for one (MAX_BACKGROUND_RENDERS).
   */
  #dueInBackground(held: Entry, now: number): boolean {
    if (held.refreshing || this.#background >= MAX_BACKGROUND_RENDERS || this.#fresh(held, now)) return false;
    if (this.versions.unchangedSince(held.tags, held.mark)) return true;
    return this.#inDemand(held, now) && now - held.stored >= REFRESH_EVERY_MS && now - held.stored <= STALE_MAX_MS;
  }

  /**
   * The answer to a guest's read: the held one when `#handsOut` allows (then, when it is due,
   * `render` goes on behind it and replaces it, `#dueInBackground`), else what `render` makes,
   * shared by the requests that come meanwhile and held when `isHeldForGuests` allows.
   */
  async get(asked: Asked, render: () => Promise<Rendered>): Promise<Response> {
    const { request } = asked;
    const key = keyOf(asked);
    const held = this.#entries.get(key);
    const now = Date.now();
    // Another origin (a Host the client chose) is answered, never held: it cannot push the hot answers out.
    if (held && held.origin !== asked.origin) return compress(request, (await render()).response);
    // One request renders an answer out of date again; the others keep the copy meanwhile, unless they asked for a fresh one.
    if (held && this.#handsOut(held, now, request.headers)) {
      if (this.#dueInBackground(held, now)) {
        this.#background += 1;
        const behind = this.#start(key, asked, render, held);
        const over = () => (this.#background -= 1);
        void behind.then(over, over);
      }
      return this.#send(held, request);
    }
    const burst = `${key}\n${request.headers.get('if-none-match') ?? ''}`;
    const pending = this.#pending.get(burst);
    if (pending) {
      const shared = await pending;
      // A render that began before the change this reader wants to see is no answer for it.
      const current = !wantsFresh(request.headers) || this.versions.unchangedSince(shared.entry.tags, shared.entry.mark);
      if (current && !shared.entry.streamed) return this.#send(shared.entry, request);
    }
    if (this.#pending.size >= MAX_SHARED_RENDERS) return compress(request, (await render()).response);
    const { entry, rendered } = await this.#start(key, asked, render, held);
    // A stream's body never ends: it goes to its own reader only, as it is written.
    return entry.streamed ? rendered.response : this.#send(entry, request);
  }

  /** Starts the render of `key`, shared with the readers of the same burst that come meanwhile; `held` is marked as being rendered again. */
  #start(key: string, asked: Asked, render: () => Promise<Rendered>, held: Entry | undefined): Promise<{ entry: Entry; rendered: Rendered }> {
    const burst = `${key}\n${asked.request.headers.get('if-none-match') ?? ''}`;
    const started = this.#render(key, asked, render);
    this.#pending.set(burst, started);
    if (held) held.refreshing = true;
    const done = () => {
      if (held) held.refreshing = false;
      if (this.#pending.get(burst) === started) this.#pending.delete(burst);
    };
    void started.then(done, done);
    return started;
  }

  /**
   * The held answer this reader may be handed out without a render (`#handsOut`: fresh, or out of
   * date while another reader renders it), made for this origin, as it leaves for the reader's
   * `accept-encoding` and `if-none-match` (its encoding, or 304); null when only a render can answer
   * (`get`). scripts/serve.ts asks this before Astro's handler and its read lines (decision 048),
   * with the request's own headers: no fetch `Request` or `Response` is made for it, and once the
   * copy in that encoding is made it is answered without waiting for a turn of the event loop.
   */
  handOut(at: HeldAt, headers: HeaderReader): Leaving | Promise<Leaving> | null {
    const held = this.#entries.get(keyOf(at));
    const now = Date.now();
    // A copy due to be rendered again behind it goes on to `get`, which can start that render (and counts the hand-out).
    if (!held || held.origin !== at.origin || this.#dueInBackground(held, now) || !this.#handsOut(held, now, headers)) return null;
    return this.#leaving(held, headers.get('accept-encoding'), headers.get('if-none-match'));
  }

  async #render(key: string, asked: Asked, render: () => Promise<Rendered>): Promise<{ entry: Entry; rendered: Rendered }> {
    const begun = performance.now();
    // Taken before the render reads anything: a change while it runs leaves it out of date at once.
    const mark = this.versions.now();
    const rendered = await render();
    const { response } = rendered;
    const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    // Read whole even when not held: the requests that came meanwhile are sent the same answer.
    const body = !streamed && response.body ? new Uint8Array(await response.arrayBuffer()) : null;
    const stored = Date.now();
    const entry: Entry = {
      key,
      origin: asked.origin,
      stored,
      expires: stored + this.#ttlMs,
      tags: CacheVersions.dependsOn(rendered.shown),
      mark,
      staleSince: null,
      refreshing: false,
      handedOut: [-Infinity, -Infinity],
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
      plain: body,
      sent: new Map(),
      bytes: (body?.byteLength ?? 0) + key.length + headerBytes([...response.headers].flat()) + ENTRY_OVERHEAD_BYTES,
      begun,
      streamed,
    };
    const newer = this.#entries.get(key);
    // The demand for its address goes on from copy to copy.
    if (newer) entry.handedOut = newer.handedOut;
    // A 304 for the held copy's ETag (a reader's If-None-Match) says the copy is still the answer: it is as current as this render.
    const tag = response.headers.get('etag');
    if (response.status === 304 && newer && tag && newer.headers.get('etag') === tag && newer.begun < begun) {
      Object.assign(newer, { mark, stored, expires: stored + this.#ttlMs, staleSince: null, begun });
    }
    const holdable = isHeldForGuests(response) && takesQuery(asked.search, rendered.params) && (body?.byteLength ?? 0) <= MAX_BODY_BYTES;
    if (holdable && !(newer && newer.begun > begun)) {
      this.#reuseCopies(entry);
      this.#forget(key);
      this.#entries.set(key, entry);
      this.#bytes += entry.bytes;
      this.#trim();
    }
    return { entry, rendered };
  }

  /**
   * A render that made the answer held under the same ETag (the data did not change) keeps the
   * held compressed copies instead of compressing the same bytes again.
   */
  #reuseCopies(entry: Entry): void {
    const held = this.#entries.get(entry.key);
    const tag = entry.headers.get('etag');
    if (!held || !tag || held.status !== entry.status || held.headers.get('etag') !== tag || held.sent.size === 0) return;
    entry.plain = held.plain;
    entry.sent = new Map(held.sent);
    entry.bytes = held.bytes;
  }

  /** Drops the oldest answers until what is held fits in `maxBytes` and `maxEntries`. */
  #trim(): void {
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= this.#maxEntries) break;
      this.#forget(oldest);
    }
  }

  #forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(key);
  }

  /** The entry as it leaves for a reader: compressed the way it accepts (made once), or 304 for its ETag. */
  #leaving(entry: Entry, acceptEncoding: string | null, ifNoneMatch: string | null): Leaving | Promise<Leaving> {
    const encoding = chooseEncoding(acceptEncoding) ?? 'identity';
    const sent = entry.sent.get(encoding);
    if (sent && !(sent instanceof Promise)) return leavingOf(entry.status, sent, ifNoneMatch);
    const making = sent ?? this.#encode(entry, encoding);
    if (!sent) {
      entry.sent.set(encoding, making);
      // Made, the copy replaces its promise, so its next readers take it at once.
      void making.then(
        (made) => entry.sent.get(encoding) === making && entry.sent.set(encoding, made),
        () => {},
      );
    }
    return making.then((made) => leavingOf(entry.status, made, ifNoneMatch));
  }

  /** The entry as a fetch `Response` for this request (`#leaving`). */
  async #send(entry: Entry, request: Request): Promise<Response> {
    const leaving = await this.#leaving(entry, request.headers.get('accept-encoding'), request.headers.get('if-none-match'));
    const headers = new Headers();
    for (let i = 0; i < leaving.headers.length; i += 2) headers.append(leaving.headers[i]!, leaving.headers[i + 1]!);
    return new Response(leaving.body?.slice() ?? null, { status: leaving.status, headers });
  }

  async #encode(entry: Entry, encoding: Encoding): Promise<Sent> {
    const asked = new Request('http://answer.cache/', { headers: encoding === 'identity' ? {} : { 'accept-encoding': encoding } });
    const plain = new Response(await plainBody(entry), { status: entry.status, statusText: entry.statusText, headers: entry.headers });
    const response = await compress(asked, plain);
    const body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
    response.headers.delete('content-length');
    const notModified = [...response.headers].flat();
    const headers = body ? [...notModified, 'content-length', String(body.byteLength)] : notModified;
    const packed = response.headers.get('content-encoding');
    const sent: Sent = { headers, notModified, body, etag: response.headers.get('etag'), encoding: packed === 'br' || packed === 'gzip' ? packed : null };
    // Every copy counts towards the byte limit; the uncompressed body stops counting once it is let go.
    let added = (body?.byteLength ?? 0) + headerBytes(headers);
    if (sent.encoding && entry.plain) {
      added -= entry.plain.byteLength;
      entry.plain = null;
    }
    entry.bytes += added;
    if (this.#entries.get(entry.key) === entry) {
      this.#bytes += added;
      this.#trim();
    }
    return sent;
  }
}

/** A copy as it leaves for a reader who holds `ifNoneMatch`: whole, or 304 for its ETag. */
const leavingOf = (status: number, sent: Sent, ifNoneMatch: string | null): Leaving =>
  holdsTag(ifNoneMatch, sent.etag) ? { status: 304, headers: sent.notModified, body: null } : { status, headers: sent.headers, body: sent.body };

/** The text of flat header names and values, as held. */
const headerBytes = (flat: readonly string[]) => flat.reduce((sum, text) => sum + text.length, 0);

const unbrotli = promisify(brotliDecompress);
const ungzip = promisify(gunzip);

/** An entry's body before compression: held, or unpacked from a compressed copy once it was let go. */
async function plainBody(entry: Entry): Promise<Uint8Array<ArrayBuffer> | null> {
  if (entry.plain) return entry.plain;
  for (const sent of entry.sent.values()) {
    const packed = await sent;
    if (packed.encoding && packed.body) return new Uint8Array(await (packed.encoding === 'br' ? unbrotli(packed.body) : ungzip(packed.body)));
  }
  return null;
}

/** The process's one cache of guests' public reads. */
export const publicAnswers = new AnswerCache(PUBLIC_ANSWER_TTL_MS);
