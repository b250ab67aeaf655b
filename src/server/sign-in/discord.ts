import { ArcticFetchError, CodeChallengeMethod, OAuth2Client, OAuth2RequestError } from 'arctic';
import { PROVIDER_TIMEOUT_MS, ProviderError, withinTime, type DiscordSignIn, type ProviderIdentity } from './providers.ts';

export interface DiscordOptions {
  clientId: string;
  clientSecret: string;
  /** https://discord.com, or a stand-in's address in tests. */
  root: string;
  /** The callback Discord sends the player back to: registered in the Developer Portal as is. */
  redirectUri: string;
  timeoutMs?: number;
}

/** Only the account's id and names: the email is never asked for, so it can never be matched to an account here. */
const SCOPES = ['identify'];

interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
}

/** Sign-in with Discord: OAuth 2 with PKCE (S256) through arctic's client, aimed at a configurable root. */
export function discordSignIn(options: DiscordOptions): DiscordSignIn {
  const root = options.root.replace(/\/+$/, '');
  const client = new OAuth2Client(options.clientId, options.clientSecret, options.redirectUri);
  const timeout = options.timeoutMs ?? PROVIDER_TIMEOUT_MS;
  return {
    authorizationUrl(state, verifier) {
      const url = client.createAuthorizationURLWithPKCE(`${root}/oauth2/authorize`, state, CodeChallengeMethod.S256, verifier, SCOPES);
      url.searchParams.set('prompt', 'none');
      return url;
    },
    async identify(code, verifier): Promise<ProviderIdentity> {
      let accessToken: string;
      try {
        const tokens = await withinTime(client.validateAuthorizationCode(`${root}/api/oauth2/token`, code, verifier), timeout);
        accessToken = tokens.accessToken();
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        if (error instanceof OAuth2RequestError) throw new ProviderError('refused', `Discord refused the code: ${error.code}`);
        if (error instanceof ArcticFetchError) throw new ProviderError('unavailable', 'Discord could not be reached');
        throw new ProviderError('unavailable', `Discord answered unexpectedly: ${String(error)}`);
      }
      let user: DiscordUser;
      try {
        const response = await fetch(`${root}/api/users/@me`, {
          headers: { authorization: `Bearer ${accessToken}` },
          signal: AbortSignal.timeout(timeout),
        });
        if (!response.ok) throw new ProviderError('unavailable', `Discord's /users/@me answered ${response.status}`);
        user = (await response.json()) as DiscordUser;
      } catch (error) {
        if (error instanceof ProviderError) throw error;
        throw new ProviderError('unavailable', 'Discord could not be reached');
      }
      if (typeof user?.id !== 'string' || !/^\d{1,30}$/.test(user.id) || typeof user.username !== 'string') {
        throw new ProviderError('unavailable', 'Discord answered without an account');
      }
      const name = (user.global_name || user.username).slice(0, 100);
      return { provider: 'discord', accountId: user.id, displayName: name, profileUrl: null };
    },
  };
}
