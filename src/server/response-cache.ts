/**
 * A short-lived in-process cache of public answers (guest pages and public API reads). Pages are
 * the same for every guest of one language — signed-in parts are islands — so rendering each of
 * them anew for every visitor only burns the CPU a cheap server has little of. An answer is kept
 * only when its own Cache-Control calls it public, for at most `ttlMs`; any successful write
 * through this instance clears everything, and other instances' writes show within `ttlMs`, as
 * the `s-maxage` those answers already carry allows a shared cache to do.
 */

interface Entry {
  expires: number;
  status: number;
  headers: [string, string][];
  /** Null for answers without one (304, 204, redirects without a body). */
  body: Uint8Array | null;
}

/** Bigger answers are rare (long lists) and not worth holding in memory. */
const MAX_BODY_BYTES = 512 * 1024;

/** Whether a response's own Cache-Control lets a shared cache keep it. */
export function isPublic(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return response.status === 200 && /\bpublic\b/.test(cacheControl) && !/\b(private|no-store|no-cache)\b/.test(cacheControl);
}

export class ResponseCache {
  readonly #entries = new Map<string, Entry>();
  /** Renders under way, so a burst of requests for one page renders it once. */
  readonly #pending = new Map<string, Promise<Entry>>();
  readonly #ttlMs: number;
  readonly #maxBytes: number;
  #bytes = 0;
  #generation = 0;

  /** Keeps answers `ttlMs`, at most `maxBytes` of bodies in all (the oldest go first). */
  constructor(ttlMs: number, maxBytes = 16 * 1024 * 1024) {
    this.#ttlMs = ttlMs;
    this.#maxBytes = maxBytes;
  }

  /**
   * The cached answer for `key`, or what `render` makes (kept when it is public). Requests that
   * arrive while one is rendering share its answer, whatever it is, instead of rendering again.
   * A cached answer whose ETag the request already holds is a 304.
   */
  async get(key: string, request: Request, render: () => Promise<Response>): Promise<Response> {
    const cached = this.#entries.get(key);
    if (cached && cached.expires > Date.now()) return toResponse(cached, request);
    // The render answers its own request's If-None-Match, so only requests holding the same one share it.
    const burst = `${key}\n${request.headers.get('if-none-match') ?? ''}`;
    let pending = this.#pending.get(burst);
    if (!pending) {
      pending = this.#render(key, render);
      this.#pending.set(burst, pending);
      void pending.finally(() => this.#pending.delete(burst)).catch(() => {});
    }
    return toResponse(await pending, request);
  }

  async #render(key: string, render: () => Promise<Response>): Promise<Entry> {
    const generation = this.#generation;
    const response = await render();
    const body = response.body ? new Uint8Array(await response.arrayBuffer()) : null;
    const entry: Entry = { expires: Date.now() + this.#ttlMs, status: response.status, headers: [...response.headers], body };
    // A write that finished while this rendered may not be in it: hand it out, but do not keep it.
    if (isPublic(response) && body && body.byteLength <= MAX_BODY_BYTES && generation === this.#generation) {
      this.#forget(key);
      this.#entries.set(key, entry);
      this.#bytes += body.byteLength;
      for (const oldest of this.#entries.keys()) {
        if (this.#bytes <= this.#maxBytes) break;
        this.#forget(oldest);
      }
    }
    return entry;
  }

  #forget(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#bytes -= entry.body?.byteLength ?? 0;
    this.#entries.delete(key);
  }

  /** Forgets everything: data changed. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#bytes = 0;
  }
}

const bareTag = (tag: string) => tag.trim().replace(/^W\//, '');

function toResponse(entry: Entry, request: Request): Response {
  const headers = new Headers(entry.headers);
  const etag = headers.get('etag');
  const held = request.headers.get('if-none-match');
  if (etag && held && held.split(',').some((tag) => tag.trim() === '*' || bareTag(tag) === bareTag(etag))) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(entry.body?.slice() ?? null, { status: entry.status, headers });
}
