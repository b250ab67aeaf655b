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

/** True for failures where no answer came back at all (offline, timeout, server down). */
export const isNetworkFailure = (error: unknown) => !(error instanceof HTTPError) || error instanceof TimeoutError;

export { HTTPError };
export type { KyInstance as ApiClient };
