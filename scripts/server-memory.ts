// The memory settings `npm start` gives the server it supervises (scripts/start.ts); tests that start
// a server of their own give it the same.

/**
 * How the serving process uses memory, for a budget of 384 MB resident (decision 019): a cap on the
 * old generation keeps the heap near what is live instead of letting it grow with the allocation
 * rate; the embedded database's WebAssembly memory (about 128 MB) shares the budget, so its heap is
 * smaller; a small young generation keeps short-lived garbage from piling up between scavenges.
 * NODE_OPTIONS given to `npm start` come after these, so they win.
 */
export function serverNodeOptions(embedded: boolean): string[] {
  return [`--max-semi-space-size=${embedded ? 4 : 8}`, `--max-old-space-size=${embedded ? 192 : 224}`, ASYNC_CONTEXT];
}
/**
 * AsyncLocalStorage (the request's language, Astro's request context) carried by V8 with each
 * continuation, as Node 24 does by default, instead of by a hook on every promise made.
 */
const ASYNC_CONTEXT = '--experimental-async-context-frame';

/**
 * glibc's malloc for the server: two arenas instead of one per thread, and a fixed threshold of
 * 128 KB above which a block is mapped on its own and given back when freed. By default that
 * threshold rises to the largest block freed so far, so a compressor's buffers of a few MB,
 * allocated and freed many times a second, would stay resident in the arenas. An operator's own
 * values win.
 */
export const SERVER_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
