import type { AstroGlobal } from 'astro';
import { errorMessage, HTTPError } from '../lib/api/client.ts';
import { GUEST_PAGE_CACHE, looksLikeId } from './_cache.ts';

/** What a page of one thing got: the thing, or the line it shows instead. */
export type Loaded<T> = { value: T; problem: null } | { value: null; problem: string };

/** What such a page says: for an unknown id; for a path that cannot be one (else `notFound`); when loading failed (else the API's words, else `notFound`). */
type Messages = { notFound: string; invalid?: string; failed?: string };

/**
 * Loads the one thing a guest page is about, named by the id in its path, and answers as every such
 * page does: 404 for a path that cannot be an id or that the API does not know, 503 with the API's
 * own words for anything else; held by caches only when found.
 */
export async function loadById<T>(page: Pick<AstroGlobal, 'params' | 'response'>, load: (id: string) => Promise<T>, messages: Messages): Promise<Loaded<T>> {
  const outcome = await attempt(page.params.id, load, messages);
  page.response.status = outcome.status;
  page.response.headers.set('Cache-Control', outcome.problem === null ? GUEST_PAGE_CACHE : 'no-store');
  return outcome.problem === null ? { value: outcome.value, problem: null } : { value: null, problem: outcome.problem };
}

async function attempt<T>(id: string | undefined, load: (id: string) => Promise<T>, messages: Messages) {
  if (!looksLikeId(id)) return { problem: messages.invalid ?? messages.notFound, status: 404 } as const;
  try {
    return { value: await load(id), problem: null, status: 200 } as const;
  } catch (error) {
    const missing = error instanceof HTTPError && (error.response.status === 404 || error.response.status === 400);
    return missing
      ? ({ problem: messages.notFound, status: 404 } as const)
      : ({ problem: errorMessage(error, messages.failed ?? messages.notFound), status: 503 } as const);
  }
}
