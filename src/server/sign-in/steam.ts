import openid from 'openid';
import { steamProfileUrl } from '../../lib/domain/linked-accounts.ts';
import { PROVIDER_TIMEOUT_MS, ProviderError, withinTime, type ProviderIdentity, type SteamSignIn } from './providers.ts';

export interface SteamOptions {
  /** Steam's OpenID provider, https://steamcommunity.com/openid, or a stand-in's address in tests. */
  endpoint: string;
  /** The realm Steam shows the player: the site's address. */
  realm: string;
  /** A Steam Web API key, for the persona name; without one the SteamID64 is shown. */
  apiKey?: string | undefined;
  apiRoot: string;
  timeoutMs?: number;
}

/**
 * Sign-in with Steam: OpenID 2.0 through the `openid` library in stateless mode, so every assertion
 * is checked with Steam itself (`check_authentication`), never believed from the query. Before
 * that, the assertion must name Steam's own endpoint and a Steam identity: the library would
 * otherwise discover, and ask, whatever provider the claimed identifier points to.
 */
export function steamSignIn(options: SteamOptions): SteamSignIn {
  const endpoint = options.endpoint.replace(/\/+$/, '');
  const timeout = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  const identity = new RegExp(`^${escape(endpoint)}/id/(\\d{17})$`);
  const party = (returnUrl: string) => new openid.RelyingParty(returnUrl, options.realm, true, true, []);
  return {
    async authorizationUrl(returnUrl) {
      const url = await withinTime(
        new Promise<string>((resolve, reject) => {
          party(returnUrl).authenticate(endpoint, false, (error, authUrl) => {
            if (error || !authUrl) reject(new ProviderError('unavailable', `Steam could not be asked: ${error?.message ?? 'no address'}`));
            else resolve(authUrl);
          });
        }),
        timeout,
      );
      return url;
    },
    async identify(callbackUrl, returnUrl): Promise<ProviderIdentity> {
      const query = new URL(callbackUrl).searchParams;
      if (query.get('openid.mode') === 'cancel') throw new ProviderError('refused', 'the player cancelled');
      const claimed = identity.exec(query.get('openid.claimed_id') ?? '');
      if (!claimed || query.get('openid.op_endpoint') !== `${endpoint}/login` || query.get('openid.identity') !== query.get('openid.claimed_id')) {
        throw new ProviderError('refused', 'the assertion is not Steam’s');
      }
      const steamId = claimed[1]!;
      const verdict = await withinTime(
        new Promise<{ authenticated: boolean; claimedIdentifier?: string | undefined }>((resolve, reject) => {
          party(returnUrl).verifyAssertion(callbackUrl, (error, result) => {
            if (error) reject(new ProviderError(/Invalid signature|nonce|return URL|No signature/i.test(error.message) ? 'refused' : 'unavailable', error.message));
            else resolve(result ?? { authenticated: false });
          });
        }),
        timeout,
      );
      if (!verdict.authenticated || verdict.claimedIdentifier !== query.get('openid.claimed_id')) throw new ProviderError('refused', 'Steam did not confirm the assertion');
      return { provider: 'steam', accountId: steamId, displayName: (await personaOf(options, steamId, timeout)) ?? steamId, profileUrl: steamProfileUrl(steamId) };
    },
  };
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The Steam persona name through the Web API (with STEAM_API_KEY), or null: the SteamID64 stands in for it. */
async function personaOf(options: SteamOptions, steamId: string, timeout: number): Promise<string | null> {
  if (!options.apiKey) return null;
  try {
    const url = new URL(`${options.apiRoot.replace(/\/+$/, '')}/ISteamUser/GetPlayerSummaries/v2/`);
    url.searchParams.set('key', options.apiKey);
    url.searchParams.set('steamids', steamId);
    const response = await fetch(url, { signal: AbortSignal.timeout(Math.min(timeout, 5000)) });
    if (!response.ok) return null;
    const body = (await response.json()) as { response?: { players?: { steamid?: string; personaname?: string }[] } };
    const name = body.response?.players?.find((p) => p.steamid === steamId)?.personaname?.trim();
    return name ? name.slice(0, 100) : null;
  } catch {
    return null;
  }
}
