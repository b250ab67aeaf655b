import { PUBLIC_READ } from '../server/api/caching.ts';

/**
 * Guest pages of games and tournaments: the same HTML for everyone (per-user parts are islands),
 * so a CDN may keep them for 30 s while browsers always revalidate.
 */
export const GUEST_PAGE_CACHE = PUBLIC_READ;

/** Whether a path segment can be an id at all (the API would answer 400 anyway). */
export const looksLikeId = (value: string | undefined): value is string =>
  typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
