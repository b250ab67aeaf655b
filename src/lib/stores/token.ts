import { persistentAtom } from '@nanostores/persistent';

/**
 * The bearer token, kept in localStorage under `token` (SPEC §3 Session). A module of its own so
 * that the API client (api.ts) and the session (session.ts, which loads api.ts lazily) both read
 * it without importing each other.
 */
export const $token = persistentAtom<string>('token', '');
