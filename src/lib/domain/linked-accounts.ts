/**
 * Sign-in providers and the game accounts they link (issue 60, decision 044): Discord through
 * OAuth 2 with PKCE, Steam through OpenID 2.0.
 */
export const SIGN_IN_PROVIDERS = ['discord', 'steam'] as const;
export type SignInProvider = (typeof SIGN_IN_PROVIDERS)[number];

export const isSignInProvider = (value: string): value is SignInProvider => (SIGN_IN_PROVIDERS as readonly string[]).includes(value);

/** Why a sign-in or a link through a provider did not happen; each has a message under `linked.failed.<reason>`. */
export const SIGN_IN_FAILURES = ['state', 'cancelled', 'provider', 'unavailable', 'linkedElsewhere', 'alreadyLinked'] as const;
export type SignInFailure = (typeof SIGN_IN_FAILURES)[number];

export const isSignInFailure = (value: string): value is SignInFailure => (SIGN_IN_FAILURES as readonly string[]).includes(value);

/**
 * Whether an organiser may require a linked Steam account for a game's tournaments: the games
 * played through Steam accounts, CS2 and Dota 2, known by their names (games have no other key).
 */
export function steamGame(gameName: string): boolean {
  return /counter[- ]?strike|\bcs ?2\b|\bcs:? ?go\b|\bdota ?2\b/i.test(gameName);
}

/** A SteamID64's public profile page. */
export const steamProfileUrl = (steamId: string): string => `https://steamcommunity.com/profiles/${steamId}`;

/** The cabinet's section where accounts are linked: where a refusal for a missing Steam account points. */
export const LINKED_ACCOUNTS_SECTION = '/cabinet#linked-accounts';
