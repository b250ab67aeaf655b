import { z } from 'zod';
import { SIGN_IN_PROVIDERS } from '../domain/linked-accounts.ts';
import { loginResponse } from './auth.ts';
import type { LinkedAccount, MyLinksView, SignInProvidersView } from './linked-account-calls.ts';

/*
 * Sign-in with Discord and Steam and the linked accounts (issue 60, decision 044). The islands'
 * calls live apart, in linked-account-calls.ts, so they ship no zod.
 */

export const providerParam = z.object({ provider: z.enum(SIGN_IN_PROVIDERS) });

export const linkedAccountSchema = z.object({
  provider: z.enum(SIGN_IN_PROVIDERS),
  name: z.string(),
  url: z.string().nullable(),
  linkedAt: z.string(),
}) satisfies z.ZodType<LinkedAccount>;

export const signInProvidersSchema = z.object({ discord: z.boolean(), steam: z.boolean() }) satisfies z.ZodType<SignInProvidersView>;

export const myLinksSchema = z.object({
  links: z.array(linkedAccountSchema),
  providers: signInProvidersSchema,
  hasPassword: z.boolean(),
}) satisfies z.ZodType<MyLinksView>;

/** A provider's callback: Discord's `code` and `state` (or its `error`), Steam's `openid.*` fields with our `state`. */
export const callbackQuery = z
  .object({
    state: z.string().max(200).optional(),
    code: z.string().max(2000).optional(),
    error: z.string().max(200).optional(),
  })
  .catchall(z.string().max(4000));

/** `POST /auth/oauth/session`: the one-time code a finished sign-in left in the login page's address. */
export const handoffInput = z.object({ code: z.string().min(20).max(200) });

export const handoffResponse = loginResponse.extend({ created: z.boolean() });

export const startLinkResponse = z.object({ url: z.string() });
