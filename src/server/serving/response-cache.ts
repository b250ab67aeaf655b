import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { localeOfCookie } from '../../lib/i18n/core.ts';
import { chooseEncoding, compress } from './compression.ts';

/**
 * A short-lived in-process cache of public answers (guest pages and public API reads). Pages are
 * the same for every guest of one language — signed-in parts are islands — so rendering each of
 * them anew for every visitor only burns the CPU a cheap server has little of. An answer is kept
 * only when its own Cache-Control calls it public, for `ttlMs`. A successful write marks
 * the answers it changed out of date (serving/write-effects.ts), through whichever instance it was
 * made (services/live.ts: `publishWrite`, tournament events); `ttlMs` bounds only what no write
 * tells of (a change made outside the API). An answer out of date (marked, or past its time) is
 * handed out a while longer (STALE_MAX_MS, OUT_OF_DATE_GRACE_MS) while one request at a time renders
 * it again.
 *
 * Answers are kept as sent: compressed once per encoding, on the first request that takes it, so
 * a hit costs no rendering and no compressing. Once a compressed copy exists the uncompressed body
 * is let go, so a held page costs about a fifth of its size. The middleware asks it (`get`).
 */

/** How an answer was sent: what compressing it for one encoding made. */
interface Sent {
  /** Flat name, value, name, value…, as `writeHead` takes them, with the body's length. */
  headers: string[];
  /**
   * The same without the body's length, for a 304: a Content-Length there names the 200's body,
   * which HTTP allows, but some clients then wait for that many bytes that never come (autocannon did).
   */
  notModified: string[];
  body: Uint8Array | null;
  etag: string | null;
  /** How `body` is actually encoded: small or binary answers are sent as they are. */
  encoding: 'br' | 'gzip' | null;
}

interface Entry {
  key: string;
  /** The key's path (`pathOfKey`), which every write's `markStale` asks about. */
  path: string;
  stored: number;
  /** When its time ends: `ttlMs` after `stored`, less up to its spread (`ttlSpread`). */
  expires: number;
  status: number;
  statusText: string;
  headers: Headers;
  /**
   * The body before compression, until the first compressed copy is made; after that another
   * encoding (rare: every browser takes brotli) is made from an unpacked compressed copy.
   */
  plain: Uint8Array<ArrayBuffer> | null;
  sent: Map<Encoding, Promise<Sent>>;
  /** Set once an encoding's copy is made, for `lookup`, which never waits. */
  ready: Map<Encoding, Sent>;
  bytes: number;
  /** Set when `lookup` has chosen one request to render the entry again (REFRESH_BEFORE_MS, STALE_REFRESH_MS), until it ends (`refreshEnded`). */
  refreshing: boolean;
  /** When a write first made this copy out of date (`markStale`); null while it shows every write. */
  staleSince: number | null;
  /** When its render began: a render that began earlier and ended later does not replace it. */
  begun: number;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** An answer ready to write to the socket. */
export interface CachedAnswer {
  status: number;
  /** Flat name, value, name, value…, as `writeHead` takes them. */
  headers: string[];
  body: Uint8Array | null;
  /**
   * Set on the one answer whose reader is to have the held answer rendered again (out of date, or
   * about to expire) while every other reader gets the copy.
   */
  renderAgain?: true;
}

/**
 * What `lookup` answers the one request that is to render a held answer again while every other
 * reader keeps getting the copy, when it has no copy in the encoding that request takes.
 */
export const RENDER_AGAIN = Symbol('render again');

/** Bigger answers are rare (long lists) and not worth holding in memory. */
const MAX_BODY_BYTES = 512 * 1024;

/**
 * What holding one answer costs beyond the text counted for it (bodies, key, header names and
 * values): the entry, its Headers, maps, promises and typed arrays, about 3 KB on Node 22 for an
 * API answer. Without it a flood of tiny answers (`[]`) would look free.
 */
export const ENTRY_OVERHEAD_BYTES = 3 * 1024;

/**
 * Renders shared at once. Behind admission (scripts/serve.ts) there are only a few; past this
 * (a flood into a server without it, `astro dev`) a render is neither shared nor held, so the
 * maps of renders under way stay bounded too.
 */
const MAX_SHARED_RENDERS = 256;

/**
 * Every query parameter a page or a public API read takes (pages: `src/pages/news`, `leaderboards`,
 * `games/[id]`, the embeds' `lang` and `theme`; the API: the query schemas of the reads in
 * caching.ts's PUBLIC_READS, checked by a test). An address with any other parameter is answered but not held: otherwise `?r=<random>` makes
 * a new entry per request. A parameter added to a page and not here only costs that page its cache.
 */
export const HELD_QUERY_PARAMETERS: ReadonlySet<string> = new Set([
  'archived',
  'before',
  'from',
  'game',
  'lang',
  'limit',
  'offset',
  'page',
  'soloOnly',
  'sort',
  'status',
  'tab',
  'theme',
  'tournament',
  'view',
]);

/** At most this many answers are held at once: with the byte bound, what keeps a flood of distinct addresses out of the heap. */
export const MAX_HELD_ANSWERS = 2000;

/** At most this much is held, counting bodies, keys, headers and ENTRY_OVERHEAD_BYTES per answer. */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

/**
 * How long a public answer is kept. Writes mark what they change on every instance, so this bounds
 * only changes nobody announced; it was 5 s while other instances' writes had no other way to show,
 * and the 300 tournament pages of the load mix were then rendered again every few seconds each
 * (bench/server FINDINGS F15).
 */
export const PUBLIC_ANSWER_TTL_MS = 30_000;

/**
 * Each public answer's time is shortened by a random part of PUBLIC_ANSWER_TTL_MS up to this:
 * answers first rendered together (a restart under load renders hundreds in its first seconds)
 * then end apart, instead of all being rendered again in the same few seconds (FINDINGS F21).
 */
export const PUBLIC_ANSWER_TTL_SPREAD = 0.25;

/**
 * Before an answer expires, the next request that reaches the middleware renders it again while
 * every other request is still served the held copy: a page in steady demand never expires, and
 * no burst waits for its render.
 */
const REFRESH_BEFORE_MS = 1000;

/**
 * A held answer a write made out of date (`markStale`) is rendered again at most this often while
 * readers who did not ask for a fresh one keep getting the copy they had: under a stream of results
 * (a final's evening: dozens a second) the home page and the leaderboards are rendered about once a
 * second, not once per result (decision 019). A request that wants a fresh answer never gets such a copy.
 */
export const STALE_REFRESH_MS = 1000;

/**
 * A copy a write made out of date (`markStale`) is handed out for this long after the later of
 * that write and its own making, and beyond that only while the render it asked for is under way
 * (up to OUT_OF_DATE_GRACE_MS). A page nobody read since the write is therefore never handed out
 * older than this; a page in steady demand keeps its copy while its render waits in a busy line.
 * Counted from the write alone, under the load mix on two cores the renders that writes asked for
 * queued for longer, came back already out of date by more than this, every copy of the hot pages
 * went, and their guests waited seconds in the pages' line (FINDINGS F21, F28).
 */
export const STALE_MAX_MS = 3000;

/**
 * An answer out of date is handed out for at most this long: after the write that marked it while
 * its render is under way (STALE_MAX_MS), after its time (`ttlMs`) while one request renders it
 * again. Then its readers go the long way and wait for a render. A render normally comes back
 * within milliseconds, so this bounds only an overloaded server's or a failing database's. Its time
 * bounds only changes nobody announced (a deadline passing), and a reader who reloads never gets
 * such a copy (`wantsFresh`).
 */
export const OUT_OF_DATE_GRACE_MS = 30_000;

/** The cookie a successful write sets (src/middleware.ts): its writer's next pages show what they wrote. */
export const WROTE_COOKIE = 'kiberarena_wrote';
/** How long a writer's pages skip copies made out of date. */
export const WROTE_COOKIE_SECONDS = 10;

const WROTE_IN_COOKIE = new RegExp(`(?:^|;\\s*)${WROTE_COOKIE}=`);

/**
 * Whether a request must not get a copy a write made out of date: a browser's reload and a live
 * page's read after an event (`cache: 'no-store'` sends `Cache-Control: no-cache`), and the writer
 * of a change for a few seconds after it (WROTE_COOKIE).
 */
export function wantsFresh(get: (name: string) => string | null | undefined): boolean {
  const cacheControl = get('cache-control') ?? '';
  if (/\b(no-cache|no-store|max-age=0)\b/.test(cacheControl) || /\bno-cache\b/.test(get('pragma') ?? '')) return true;
  return WROTE_IN_COOKIE.test(get('cookie') ?? '');
}

/** Whether a response's own Cache-Control lets a shared cache keep it. */
export function isPublic(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return response.status === 200 && /\bpublic\b/.test(cacheControl) && !/\b(private|no-store|no-cache)\b/.test(cacheControl);
}

/**
 * The key of a guest's GET: the path with its query, then the language cookie, the forwarded
 * protocol (HSTS is sent over HTTPS only) and the host (pages name their own address). Made from
 * raw header values, so the server in front of Astro and the middleware make the same one. The
 * path comes first and holds no space, so `pathOfKey` can read it back. Undefined when the answer
 * must not be held: a share card, or a query naming a parameter outside HELD_QUERY_PARAMETERS.
 */
export function answerKey(request: { cookie: string | null; forwardedProto: string | null; host: string | null; path: string }): string | undefined {
  const path = heldPath(request.path);
  if (path === undefined) return undefined;
  return `${path} ${localeOfCookie(request.cookie)} ${request.forwardedProto ?? ''} ${request.host ?? ''}`;
}

/** The path as held (an empty query dropped), or undefined when its query has a parameter no reader takes. */
function heldPath(path: string): string | undefined {
  // Share cards (140–180 KB each) have their own picture cache; held here, a flood of them would push every page out.
  if (path.startsWith(SHARE_CARDS)) return undefined;
  const mark = path.indexOf('?');
  if (mark === -1) return path;
  if (mark === path.length - 1) return path.slice(0, mark);
  for (const pair of path.slice(mark + 1).split('&')) {
    const equals = pair.indexOf('=');
    if (!HELD_QUERY_PARAMETERS.has(equals === -1 ? pair : pair.slice(0, equals))) return undefined;
  }
  return path;
}

/** Share cards' addresses: never held here (`heldPath`). */
const SHARE_CARDS = '/api/og/';

const pathOfKey = (key: string) => key.slice(0, key.indexOf(' '));

const bareTag = (tag: string) => tag.trim().replace(/^W\//, '');
const holdsTag = (ifNoneMatch: string | null, etag: string | null) =>
  Boolean(etag && ifNoneMatch?.split(',').some((tag) => tag.trim() === '*' || bareTag(tag) === bareTag(etag)));

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  /** Renders under way, so a burst of requests for one page renders it once. */
  readonly #pending = new Map<string, { done: Promise<Entry>; ticket: Ticket }>();
  /**
   * Renders under way by key, each with the marks a write leaves when its answer may be out of date.
   * A held answer with a render under way is being refreshed (REFRESH_BEFORE_MS).
   */
  readonly #inFlight = new Map<string, Set<Ticket>>();
  readonly #ttlMs: number;
  readonly #ttlSpread: number;
  readonly #maxBytes: number;
  readonly #maxEntries: number;
  #bytes = 0;

  /**
   * Keeps answers `ttlMs` (each less a random part of it up to `ttlSpread`), at most `maxEntries`
   * of them and `maxBytes` in all, counting their bodies, keys, headers and ENTRY_OVERHEAD_BYTES
   * each (the oldest go first).
   */
  constructor(
    ttlMs: number,
    { maxBytes = MAX_HELD_BYTES, maxEntries = MAX_HELD_ANSWERS, ttlSpread = 0 }: { maxBytes?: number; maxEntries?: number; ttlSpread?: number } = {},
  ) {
    this.#ttlMs = ttlMs;
    this.#ttlSpread = ttlSpread;
    this.#maxBytes = maxBytes;
    this.#maxEntries = maxEntries;
  }

  /** What is held and under way, for tests and the bench. */
  stats(): { entries: number; bytes: number; pending: number; inFlight: number } {
    return { entries: this.#entries.size, bytes: this.#bytes, pending: this.#pending.size, inFlight: this.#inFlight.size };
  }

  /**
   * Whether `entry` is fresh; out of date but still handed out (STALE_MAX_MS, OUT_OF_DATE_GRACE_MS);
   * or not to be handed out.
   */
  #state(entry: Entry, now: number): 'fresh' | 'stale' | 'gone' {
    const expired = now >= entry.expires;
    if (entry.staleSince === null && !expired) return 'fresh';
    if (expired && now - entry.expires > OUT_OF_DATE_GRACE_MS) return 'gone';
    if (entry.staleSince === null) return 'stale';
    if (now - entry.staleSince > OUT_OF_DATE_GRACE_MS) return 'gone';
    // A copy made after the write (a render that began before it) counts from its making.
    return now - Math.max(entry.staleSince, entry.stored) > STALE_MAX_MS && !entry.refreshing ? 'gone' : 'stale';
  }

  /**
   * Drops answers past their time and the grace a copy past it gets (OUT_OF_DATE_GRACE_MS). Entries
   * are in the order they were stored (a stored key is deleted and set again), so those are at the
   * front and this stops at the first one still in time.
   */
  #sweep(): void {
    const cutoff = Date.now() - this.#ttlMs - OUT_OF_DATE_GRACE_MS;
    for (const [key, entry] of this.#entries) {
      if (entry.stored >= cutoff) break;
      this.#forget(key);
    }
  }

  #due(key: string, entry: Entry): boolean {
    return Date.now() >= entry.expires - REFRESH_BEFORE_MS && !this.#inFlight.has(key);
  }

  /**
   * The held answer for `key` as sent with `acceptEncoding`, when it is already compressed that way
   * and fresh, or out of date and still handed out (`#state`); marked `renderAgain` for the one
   * request whose sender must have it rendered again (and tell `refreshEnded` when that is done).
   * Otherwise the request goes the long way: RENDER_AGAIN when it is the one to render a
   * held answer again itself (no copy in its encoding), undefined for any other reason. Never waits,
   * never renders: what a reader would be handed from memory.
   */
  lookup(key: string, acceptEncoding: string | null, ifNoneMatch: string | null, fresh = false): CachedAnswer | typeof RENDER_AGAIN | undefined {
    this.#sweep();
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    const now = Date.now();
    // An answer past its time is handed out as one a write made out of date: a page every few
    // seconds' readers ask for was otherwise rendered anew by each of those who came while it was
    // gone, all waiting in the pages' line (bench/server FINDINGS F21).
    const state = this.#state(entry, now);
    let again = false;
    if (state !== 'fresh') {
      if (fresh || state === 'gone') return undefined;
      // One request at a time, and at most once per STALE_REFRESH_MS, has it rendered again; the rest keep the copy.
      again = !entry.refreshing && now - entry.stored >= STALE_REFRESH_MS;
    } else {
      // One request has it rendered again shortly before it expires; the rest keep getting the held
      // copy meanwhile, even while that render waits for its turn to reach the middleware.
      again = this.#due(key, entry) && !entry.refreshing;
    }
    if (again) entry.refreshing = true;
    const sent = entry.ready.get(chooseEncoding(acceptEncoding) ?? 'identity');
    if (!sent) return again ? RENDER_AGAIN : undefined;
    const renderAgain = again ? { renderAgain: true as const } : {};
    if (holdsTag(ifNoneMatch, sent.etag)) return { status: 304, headers: sent.notModified, body: null, ...renderAgain };
    return { status: entry.status, headers: sent.headers, body: sent.body, ...renderAgain };
  }

  /**
   * The render a `renderAgain` answer asked for has ended, kept or not: a copy a write made out of
   * date is no longer handed out past STALE_MAX_MS for its sake, and the next reader of a copy
   * still out of date may ask for another (a render that failed: a database down, a render shed by
   * a full line). An entry that render replaced is not refreshing anyway; one a later reader had
   * already sent on again loses that mark early, so at worst its next reader sends a second render
   * or, past STALE_MAX_MS, renders it.
   */
  refreshEnded(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) entry.refreshing = false;
  }

  /**
   * The answer for `key`, compressed for the request: the held one, or what `render` makes (kept
   * when it is public). Requests that arrive while one is rendering share its answer, whatever it
   * is, instead of rendering again. A held answer whose ETag the request already has is a 304.
   */
  async get(key: string, request: Request, render: () => Promise<Response>): Promise<Response> {
    this.#sweep();
    const held = this.#entries.get(key);
    if (held && this.#state(held, Date.now()) === 'fresh' && !this.#due(key, held)) return this.#send(held, request);
    // The render answers its own request's If-None-Match, so only requests holding the same one share it.
    const burst = `${key}\n${request.headers.get('if-none-match') ?? ''}`;
    const encoding = chooseEncoding(request.headers.get('accept-encoding')) ?? 'identity';
    let pending = this.#pending.get(burst);
    // A render that began before a write is no answer for a request that wants a fresh one.
    const outOfDate = pending && (pending.ticket.dropped || pending.ticket.staleSince !== null);
    if (!pending || (outOfDate && wantsFresh((name) => request.headers.get(name)))) {
      if (this.#pending.size >= MAX_SHARED_RENDERS) return compress(request, await render());
      const ticket: Ticket = { dropped: false, staleSince: null };
      const started = { done: this.#render(key, render, ticket, encoding), ticket };
      pending = started;
      this.#pending.set(burst, started);
      void started.done
        .finally(() => {
          if (this.#pending.get(burst) === started) this.#pending.delete(burst);
        })
        .catch(() => {});
    }
    return this.#send(await pending.done, request);
  }

  async #render(key: string, render: () => Promise<Response>, ticket: Ticket, encoding: Encoding): Promise<Entry> {
    // Registered until the answer is kept or dropped, so a write meanwhile can still mark it.
    const tickets = this.#inFlight.get(key) ?? new Set();
    this.#inFlight.set(key, tickets.add(ticket));
    const begun = performance.now();
    try {
      const response = await render();
      const body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
      const { status, statusText, headers } = response;
      const bytes = (body?.byteLength ?? 0) + key.length + headerBytes([...headers].flat()) + ENTRY_OVERHEAD_BYTES;
      const stored = Date.now();
      const expires = stored + this.#ttlMs - Math.random() * this.#ttlSpread * this.#ttlMs;
      const entry: Entry = { key, path: pathOfKey(key), stored, expires, status, statusText, headers, plain: body, sent: new Map(), ready: new Map(), bytes, refreshing: false, staleSince: ticket.staleSince, begun };
      this.#reuseCopies(entry);
      // A write that finished while this rendered may not be in it: dropped (`forget`), hand it out
      // but do not keep it; made out of date (`markStale`), keep it as such a copy.
      const keep = () => {
        const newer = this.#entries.get(key);
        return isPublic(response) && body !== null && body.byteLength <= MAX_BODY_BYTES && !ticket.dropped && !(newer && newer.begun > begun);
      };
      if (keep() && !entry.ready.has(encoding)) {
        // Held only once sent as its request takes it: until then `lookup` keeps handing out the
        // copy it replaces, instead of sending every reader meanwhile the long way, through the line.
        const sent = this.#encode(entry, encoding);
        entry.sent.set(encoding, sent);
        await sent;
      }
      // A write while it was being compressed marked the ticket, not this entry, which no map held yet.
      entry.staleSince = ticket.staleSince;
      if (keep()) {
        this.#sweep();
        this.#forget(key);
        this.#entries.set(key, entry);
        this.#bytes += entry.bytes;
        this.#trim();
      }
      return entry;
    } finally {
      tickets.delete(ticket);
      if (tickets.size === 0 && this.#inFlight.get(key) === tickets) this.#inFlight.delete(key);
    }
  }

  /**
   * A refresh that rendered the answer held under the same ETag (the data did not change) keeps
   * the held compressed copies instead of compressing the same bytes again: a large answer in
   * steady demand (a 256-player bracket, ~230 KB of JSON) then costs its render once, not every
   * few seconds.
   */
  #reuseCopies(entry: Entry): void {
    const held = this.#entries.get(entry.key);
    const tag = entry.headers.get('etag');
    if (!held || !tag || held.status !== entry.status || held.headers.get('etag') !== tag || held.ready.size === 0) return;
    entry.plain = held.plain;
    entry.ready = new Map(held.ready);
    entry.sent = new Map([...held.ready].map(([encoding, sent]) => [encoding, Promise.resolve(sent)]));
    entry.bytes = held.bytes;
  }

  /** Drops the oldest answers until what is held fits in `maxBytes` and `maxEntries`. */
  #trim(): void {
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes && this.#entries.size <= this.#maxEntries) break;
      this.#forget(oldest);
    }
  }

  /** The entry as sent for this request: compressed the way it accepts (made once), or 304. */
  async #send(entry: Entry, request: Request): Promise<Response> {
    const encoding = chooseEncoding(request.headers.get('accept-encoding')) ?? 'identity';
    let sent = entry.sent.get(encoding);
    if (!sent) {
      sent = this.#encode(entry, encoding);
      entry.sent.set(encoding, sent);
    }
    const answer = await sent;
    const notModified = holdsTag(request.headers.get('if-none-match'), answer.etag);
    const flat = notModified ? answer.notModified : answer.headers;
    const headers = new Headers();
    for (let i = 0; i < flat.length; i += 2) headers.append(flat[i]!, flat[i + 1]!);
    if (notModified) return new Response(null, { status: 304, headers });
    return new Response(answer.body?.slice() ?? null, { status: entry.status, headers });
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
    entry.ready.set(encoding, sent);
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

  #forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.bytes;
    this.#entries.delete(key);
  }

  /** Forgets everything: data changed. */
  clear(): void {
    this.forget(() => true);
  }

  /**
   * Forgets the answers whose path `changed` picks: data they show changed. Renders of those
   * paths under way may have read it before the change, so they are handed out but not kept.
   */
  forget(changed: (path: string) => boolean): void {
    for (const [key, tickets] of this.#inFlight) if (changed(pathOfKey(key))) for (const ticket of tickets) ticket.dropped = true;
    for (const key of [...this.#entries.keys()]) if (changed(pathOfKey(key))) this.#forget(key);
  }

  /**
   * Marks the answers whose path `changed` picks as out of date, as a write does (decision 019):
   * they are rendered again on the next request, or once per STALE_REFRESH_MS while others keep
   * the copy; a request that wants a fresh answer (`wantsFresh`) never gets one. Renders under way
   * may have read the data before the change: their answers are kept as out of date too.
   */
  markStale(changed: (path: string) => boolean): void {
    const now = Date.now();
    for (const [key, tickets] of this.#inFlight) if (changed(pathOfKey(key))) for (const ticket of tickets) ticket.staleSince ??= now;
    // Out of date stays out of date until rendered again, so only the others are asked about: under
    // a final's writes most are marked already, and this ran over every held answer for each write.
    for (const entry of this.#entries.values()) if (entry.staleSince === null && changed(entry.path)) entry.staleSince = now;
  }
}

/** A render under way, with what writes did meanwhile: dropped its answer (`forget`), or made it out of date since (`markStale`). */
interface Ticket {
  dropped: boolean;
  staleSince: number | null;
}

/** The text of flat header names and values, as held. */
const headerBytes = (flat: readonly string[]) => flat.reduce((sum, text) => sum + text.length, 0);

const unbrotli = promisify(brotliDecompress);
const ungzip = promisify(gunzip);

/** An entry's body before compression: held, or unpacked from a compressed copy once it was let go. */
async function plainBody(entry: Entry): Promise<Uint8Array<ArrayBuffer> | null> {
  if (entry.plain) return entry.plain;
  const packed = [...entry.ready.values()].find((sent) => sent.encoding && sent.body);
  if (!packed?.body) return null;
  return new Uint8Array(await (packed.encoding === 'br' ? unbrotli(packed.body) : ungzip(packed.body)));
}

/** The process's one cache of public answers. */
export const publicAnswers = new ResponseCache(PUBLIC_ANSWER_TTL_MS, { ttlSpread: PUBLIC_ANSWER_TTL_SPREAD });
