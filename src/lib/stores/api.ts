import { createApiClient } from '../api/client.ts';
import { $token } from './token.ts';

export { HTTPError } from '../api/client.ts';

/**
 * The browser's API client: every call carries the current token. A module of its own so that
 * pages whose islands only read the session (a guest's home page) never download ky.
 */
export const api = createApiClient({
  baseUrl: import.meta.env.PUBLIC_API_URL ?? '/api',
  getToken: () => $token.get() || null,
});
