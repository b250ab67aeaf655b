import { type Limit, type RateLimiter, withinLimits } from '../rate-limit.ts';

const WINDOW_SECONDS = 15 * 60;

/**
 * Letters anyone can make the site send (a resent confirmation, an address change), per 15 minutes
 * (decision 035).
 */
export const LETTER_LIMITS = {
  /** One account, or one browser (its device cookie): five. */
  caller: { max: 5, windowSeconds: WINDOW_SECONDS },
  /**
   * One client address: fifty. A venue's players share one, and after a registration rush a quarter
   * of a 200-seat hall may ask for their letter again; one browser still gets its five.
   */
  address: { max: 50, windowSeconds: WINDOW_SECONDS },
  /** One inbox, whoever asks: five. */
  inbox: { max: 5, windowSeconds: WINDOW_SECONDS },
} as const satisfies Record<string, Limit>;

/**
 * Who asks for a letter: the signed-in account, or a guest's browser (`device`) and its address
 * (null inside a venue network, which no per-address limit counts).
 */
export type LetterCaller = { account: string } | { device: string; address: string | null };

/**
 * Counts a letter someone asks the site to send, against who asks and against the mailbox it goes
 * to, so that neither one caller nor many together can turn the site into a cannon aimed at one
 * inbox. A refused letter counts nowhere. Seconds to wait when refused, else null.
 */
export async function countLetter(limits: RateLimiter, by: LetterCaller, to: string): Promise<number | null> {
  const callers: [string, Limit][] =
    'account' in by
      ? [[`letters:by:user:${by.account}`, LETTER_LIMITS.caller]]
      : [
          ...(by.address === null ? [] : [[`letters:by:ip:${by.address}`, LETTER_LIMITS.address] as [string, Limit]]),
          [`letters:by:device:${by.device}`, LETTER_LIMITS.caller],
        ];
  const verdict = await withinLimits(limits, [...callers, [`letters:to:${to.toLowerCase()}`, LETTER_LIMITS.inbox]]);
  return verdict.allowed ? null : verdict.retryAfter;
}
