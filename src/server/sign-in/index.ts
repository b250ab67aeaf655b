import type { Env } from '../env.ts';
import { discordSignIn } from './discord.ts';
import type { SignInProviders } from './providers.ts';
import { steamSignIn } from './steam.ts';

/** The callback a provider sends the player back to, under the site's configured address. */
export const callbackUrl = (siteUrl: string, provider: 'discord' | 'steam') => `${siteUrl}/api/auth/${provider}/callback`;

/** The providers the environment turns on: Discord with both its id and secret, Steam with STEAM_SIGN_IN. */
export function signInProvidersFromEnv(env: Env): SignInProviders {
  return {
    discord:
      env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET
        ? discordSignIn({
            clientId: env.DISCORD_CLIENT_ID,
            clientSecret: env.DISCORD_CLIENT_SECRET,
            root: env.DISCORD_OAUTH_ROOT,
            redirectUri: callbackUrl(env.siteUrl, 'discord'),
          })
        : undefined,
    steam: env.STEAM_SIGN_IN
      ? steamSignIn({ endpoint: env.STEAM_OPENID_ENDPOINT, realm: env.siteUrl, apiKey: env.STEAM_API_KEY, apiRoot: env.STEAM_API_ROOT })
      : undefined,
  };
}
