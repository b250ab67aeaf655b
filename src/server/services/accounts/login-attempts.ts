import type { Limit, RateLimiter, Reservation } from '../rate-limit.ts';
import { reserve } from '../rate-limit.ts';

const WINDOW_SECONDS = 15 * 60;

/**
 * Failed sign-ins, limited three ways as OWASP's authentication guidance describes, so that
 * neither guessing one password nor spraying many accounts pays, while one person can lock out
 * neither the people behind their address nor a player they name.
 */
export const LOGIN_LIMITS = {
  /** One account from one address: someone who forgot their password, or someone guessing it. */
  pair: { max: 10, windowSeconds: WINDOW_SECONDS },
  /**
   * One address across accounts. A computer club, a LAN event or a mobile carrier (most Ukrainian
   * phones share an address) has many honest people behind one, so the ceiling is high; only
   * failures count, and a venue network (TRUSTED_VENUE_NETWORKS) is not counted at all.
   */
  address: { max: 100, windowSeconds: WINDOW_SECONDS },
  /**
   * One account across all addresses. Past it, an address that has already failed against the
   * account gets no further try in the window (a guess spread over many addresses is slowed ten
   * times), while an address that has not failed against it is still let in: the owner with the
   * right password is not locked out by someone else's failures.
   */
  account: { max: 50, windowSeconds: WINDOW_SECONDS },
} as const satisfies Record<string, Limit>;

/** The result of counting a sign-in before its password is checked. */
export type LoginAttempt =
  | { refused: true; retryAfter: number }
  | {
      refused: false;
      /** The password was right: the attempt does not count, and this address's failures against the account are forgotten. */
      succeeded(): Promise<void>;
    };

/**
 * Counts a sign-in to `account` (one key for the account however it was named: its id, or the
 * name typed when no account has it) from `from.address`, before the password is checked: only the
 * attempts counted within the limits get a password check, however many arrive at once. A refused
 * attempt is taken back, so hammering a lock does not deepen it or fill the address's count. An
 * address inside a venue network (`from.atVenue`) has no count across accounts; its pair with each
 * account is still counted.
 */
export async function startLoginAttempt(limits: RateLimiter, account: string, from: { address: string; atVenue: boolean }): Promise<LoginAttempt> {
  const pairKey = `login:pair:${account}:${from.address}`;
  const addressKey = from.atVenue ? null : `login:address:${from.address}`;
  const [pair, onAddress, onAccount] = await Promise.all([
    reserve(limits, pairKey, LOGIN_LIMITS.pair),
    addressKey === null ? null : reserve(limits, addressKey, LOGIN_LIMITS.address),
    reserve(limits, `login:account:${account}`, LOGIN_LIMITS.account),
  ]);
  const all: Reservation[] = onAddress ? [pair, onAddress, onAccount] : [pair, onAccount];
  // `pair.count` includes this attempt: above 1, this address has failed against the account already.
  const accountBlocks = !onAccount.allowed && pair.count > 1;
  const blocking = [pair, onAddress].filter((r): r is Reservation => r !== null && !r.allowed).concat(accountBlocks ? [onAccount] : []);
  if (blocking.length > 0) {
    await Promise.all(all.map((r) => r.release()));
    return { refused: true, retryAfter: Math.max(...blocking.map((r) => r.retryAfter)) };
  }
  return {
    refused: false,
    async succeeded() {
      await Promise.all([limits.reset(pairKey), onAddress?.release(), onAccount.release()]);
    },
  };
}
