import type { Limit, RateLimiter } from '../rate-limit.ts';

/** Letters anyone can make the site send (confirmation, resend, email change): five in 15 minutes. */
export const LETTER_LIMIT: Limit = { max: 5, windowSeconds: 15 * 60 };

/**
 * Counts a letter someone asks the site to send, against who asks (`by`: an address or an account)
 * and against the mailbox it goes to, so that neither one caller nor many together can turn the
 * site into a cannon aimed at one inbox. Seconds to wait when refused, else null.
 */
export async function countLetter(limits: RateLimiter, by: string, to: string): Promise<number | null> {
  for (const key of [`letters:by:${by}`, `letters:to:${to.toLowerCase()}`]) {
    const state = await limits.hit(key, LETTER_LIMIT);
    if (!state.allowed) return state.retryAfter;
  }
  return null;
}
