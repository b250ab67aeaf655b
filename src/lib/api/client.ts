import ky, { HTTPError, TimeoutError, type KyInstance } from 'ky';

export interface ApiClientOptions {
  /** Where `/api` lives: `/api` in the browser, an absolute URL elsewhere. */
  baseUrl: string;
  /** The token to send as `Authorization: Bearer`, read on every request. */
  getToken?: () => string | null | undefined;
  /** A fetch to use instead of the global one (the in-process API on the server, a fake in tests). */
  fetch?: typeof fetch;
}

/** One ky instance per caller; every typed call in this folder takes it as its first argument. */
export function createApiClient(options: ApiClientOptions): KyInstance {
  return ky.create({
    prefix: options.baseUrl,
    retry: 0,
    timeout: 15_000,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    hooks: {
      beforeRequest: [
        ({ request }) => {
          const token = options.getToken?.();
          if (token) request.headers.set('Authorization', `Bearer ${token}`);
        },
      ],
    },
  });
}

/** The server's `{ message }` when it sent one, else `fallback`. Never throws. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof HTTPError) {
    const data = error.data;
    if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string' && data.message) {
      return data.message;
    }
  }
  return fallback;
}

/** A poll's answer: the fresh body, or `changed: false` when the server said 304 (nothing new since `etag`). */
export type Revalidated<T> = { changed: true; body: T; etag: string | null } | { changed: false; etag: string | null };

/**
 * A GET for polling: with the ETag of the previous answer to the same request, an unchanged
 * resource costs a bodiless 304. The API tags every successful GET (server/api/caching.ts).
 * `fresh` asks past a held copy known to be out of date (server/serving/answer-cache.ts): for a
 * read made because a live event said something changed.
 */
export async function getIfChanged<T>(
  api: KyInstance,
  path: string,
  options: { etag?: string | null; searchParams?: Record<string, string>; fresh?: boolean } = {},
): Promise<Revalidated<T>> {
  const response = await api.get(path, {
    searchParams: options.searchParams ?? {},
    headers: options.etag ? { 'If-None-Match': options.etag } : {},
    throwHttpErrors: (status) => status !== 304,
    ...(options.fresh ? { cache: 'no-cache' as const } : {}),
  });
  const etag = response.headers.get('etag');
  if (response.status === 304) return { changed: false, etag: etag ?? options.etag ?? null };
  return { changed: true, body: (await response.json()) as T, etag };
}

/** True for failures where no answer came back at all (offline, timeout, server down). */
export const isNetworkFailure = (error: unknown) => !(error instanceof HTTPError) || error instanceof TimeoutError;

export { HTTPError };
export type { KyInstance as ApiClient };
