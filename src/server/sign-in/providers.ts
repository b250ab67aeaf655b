import type { SignInProvider } from '../../lib/domain/linked-accounts.ts';

/** Who a provider says signed in: its account id, the name to show and the public page, if any. */
export interface ProviderIdentity {
  provider: SignInProvider;
  accountId: string;
  displayName: string;
  profileUrl: string | null;
}

/**
 * Why a provider gave no identity: `refused` when it said no (a bad, used or forged code or
 * assertion, the player cancelled), `unavailable` when it could not be reached in time.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  readonly kind: 'refused' | 'unavailable';
  constructor(kind: 'refused' | 'unavailable', message: string) {
    super(message);
    this.kind = kind;
  }
}

/** How long a provider is waited for before the sign-in is given up as unavailable. */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * Waits for a provider's answer at most `ms`. The libraries take no abort signal, so a provider
 * that hangs is left to finish on its own; the player is answered now.
 */
export async function withinTime<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderError('unavailable', `no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export interface DiscordSignIn {
  /** The address of Discord's consent page for this state and PKCE verifier. */
  authorizationUrl(state: string, verifier: string): URL;
  /** Exchanges the callback's code (with the verifier) and reads the account it is for. */
  identify(code: string, verifier: string): Promise<ProviderIdentity>;
}

export interface SteamSignIn {
  /** The address of Steam's sign-in page, coming back to `returnUrl` (which carries the state). */
  authorizationUrl(returnUrl: string): Promise<string>;
  /** Verifies the assertion the callback came with, with Steam itself, and reads the account. */
  identify(callbackUrl: string, returnUrl: string): Promise<ProviderIdentity>;
}

/** The sign-in providers this site has turned on (env: DISCORD_CLIENT_ID and _SECRET, STEAM_SIGN_IN); an absent one is off. */
export interface SignInProviders {
  discord?: DiscordSignIn | undefined;
  steam?: SteamSignIn | undefined;
}
