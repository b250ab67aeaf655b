/**
 * Sign-in with Discord and Steam and the linked accounts (issue 60, decision 044): the islands'
 * calls, apart from their zod schemas in `linked-accounts.ts`, so the islands ship no zod.
 */
import type { SignInProvider } from '../domain/linked-accounts.ts';
import type { LoginResponse } from './auth.ts';
import type { ApiClient } from './client.ts';

/** A linked account as the profile and the cabinet show it. */
export interface LinkedAccount {
  provider: SignInProvider;
  /** The Discord name, the Steam persona, or the SteamID64 when the site has no Steam Web API key. */
  name: string;
  /** The account's public page (Steam's profile), or null. */
  url: string | null;
  linkedAt: string;
}

/** `GET /auth/providers`: which sign-in providers this site has turned on. */
export interface SignInProvidersView {
  discord: boolean;
  steam: boolean;
}

/** `GET /users/me/links`: the caller's linked accounts, the providers on, and whether they have a password. */
export interface MyLinksView {
  links: LinkedAccount[];
  providers: SignInProvidersView;
  hasPassword: boolean;
}

/** The address a browser goes to for a provider's sign-in (a plain link: no script needed). */
export const signInStartPath = (apiBase: string, provider: SignInProvider) => `${apiBase.replace(/\/+$/, '')}/auth/${provider}/start`;

export const getSignInProviders = (api: ApiClient) => api.get('auth/providers').json<SignInProvidersView>();
export const exchangeSignInCode = (api: ApiClient, code: string) => api.post('auth/oauth/session', { json: { code } }).json<LoginResponse & { created: boolean }>();
export const getMyLinks = (api: ApiClient) => api.get('users/me/links', { cache: 'no-store' }).json<MyLinksView>();
/** `POST /auth/{provider}/link`: the provider's address for linking, bound to the caller and to this browser. */
export const startLinking = (api: ApiClient, provider: SignInProvider) => api.post(`auth/${provider}/link`).json<{ url: string }>();
export const unlinkAccount = (api: ApiClient, provider: SignInProvider) => api.delete(`users/me/links/${provider}`).json<{ message: string }>();
