import { createRoute } from '@hono/zod-openapi';
import { getCookie, setCookie } from 'hono/cookie';
import { callbackQuery, handoffInput, handoffResponse, myLinksSchema, providerParam, signInProvidersSchema, startLinkResponse } from '../../../lib/api/linked-accounts.ts';
import { LINKED_ACCOUNTS_SECTION, type SignInFailure, type SignInProvider } from '../../../lib/domain/linked-accounts.ts';
import { t } from '../../../lib/i18n/index.ts';
import { presentUser, findByIdOrName } from '../../services/accounts/accounts.ts';
import {
  createHandoff,
  finishFlow,
  hasPassword,
  linkedAccountsOf,
  startFlow,
  takeFlow,
  takeHandoff,
  unlinkAccount,
  type LinkedIdentity,
} from '../../services/accounts/linked-accounts.ts';
import { createSession } from '../../services/accounts/sessions.ts';
import { type Limit, withinLimits } from '../../services/rate-limit.ts';
import { ProviderError, type DiscordSignIn, type SteamSignIn } from '../../sign-in/providers.ts';
import { callbackUrl } from '../../sign-in/index.ts';
import { servedOverHttps } from '../../transport.ts';
import { type AppContext, limitedAddress } from '../context.ts';
import { deviceOf } from '../device.ts';
import { fail, failTooMany } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, router, userRoute } from '../openapi.ts';

/*
 * Sign-in with Discord and Steam, and linking them (issue 60, decision 044). A start keeps its state
 * (and Discord's PKCE verifier) in the database and gives the browser a nonce in an httpOnly
 * cookie; the callback must bring both back, once. A sign-in hands the browser a one-time code in
 * the login page's address, never the session token, and the page exchanges it by POST.
 */

/** The cookie that binds a started sign-in to the browser that started it. */
const FLOW_COOKIE = 'kiberarena_sign_in';

/** Starts per client address and per device: a start writes a row, so a flood of them is bounded. */
const START_LIMITS = {
  address: { max: 120, windowSeconds: 10 * 60 },
  device: { max: 30, windowSeconds: 10 * 60 },
} as const satisfies Record<string, Limit>;

const providerName = (provider: SignInProvider) => t(`linked.provider.${provider}`);

/** The provider's sign-in when the site has it turned on; a Ukrainian 404 when not. */
function discordOf(c: AppContext): DiscordSignIn {
  const discord = c.get('deps').signInProviders?.discord;
  if (!discord) fail(404, 'linked.off', { provider: 'Discord' });
  return discord;
}
function steamOf(c: AppContext): SteamSignIn {
  const steam = c.get('deps').signInProviders?.steam;
  if (!steam) fail(404, 'linked.off', { provider: 'Steam' });
  return steam;
}
function requireProvider(c: AppContext, provider: SignInProvider): void {
  if (provider === 'discord') discordOf(c);
  else steamOf(c);
}

async function countStart(c: AppContext): Promise<void> {
  const address = limitedAddress(c);
  const verdict = await withinLimits(c.get('deps').limits, [
    ...(address === null ? [] : ([[`sign-in:ip:${address}`, START_LIMITS.address]] as const)),
    [`sign-in:device:${deviceOf(c)}`, START_LIMITS.device],
  ]);
  if (!verdict.allowed) failTooMany('auth.tooManyAttempts', verdict.retryAfter);
}

/** Steam comes back to the callback with our state in the address: the return URL is per flow. */
const steamReturnUrl = (siteUrl: string, state: string) => `${callbackUrl(siteUrl, 'steam')}?state=${encodeURIComponent(state)}`;

/**
 * A new flow and the provider's address for it; the browser's nonce goes in the cookie. A provider
 * that cannot be asked (Steam's discovery failing) is `unavailable`.
 */
async function begin(c: AppContext, provider: SignInProvider, userId: string | null): Promise<string | SignInFailure> {
  await countStart(c);
  const deps = c.get('deps');
  const { state, verifier, browser } = await startFlow(c.get('db'), provider, userId);
  let url: string;
  try {
    url = provider === 'discord' ? discordOf(c).authorizationUrl(state, verifier).toString() : await steamOf(c).authorizationUrl(steamReturnUrl(deps.siteUrl, state));
  } catch (error) {
    if (error instanceof ProviderError) return 'unavailable';
    throw error;
  }
  setCookie(c, FLOW_COOKIE, browser, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'Lax',
    maxAge: 10 * 60,
    secure: servedOverHttps(c.req.raw, c.env?.clientAddress, deps),
  });
  return url;
}

/** Where a failed sign-in or link sends the browser: the page it came from, with the reason to show. */
const failedAt = (linking: boolean, reason: SignInFailure) =>
  linking ? `${LINKED_ACCOUNTS_SECTION.replace('#', `?oauthError=${reason}#`)}` : `/login?oauthError=${reason}`;

/** The identity a callback proves, or why it proves none. */
async function identify(c: AppContext, provider: SignInProvider, query: Record<string, string | undefined>, state: string, verifier: string): Promise<LinkedIdentity | SignInFailure> {
  try {
    if (provider === 'discord') {
      if (query.error) return query.error === 'access_denied' ? 'cancelled' : 'provider';
      if (!query.code) return 'provider';
      return await discordOf(c).identify(query.code, verifier);
    }
    if (query['openid.mode'] === 'cancel') return 'cancelled';
    const siteUrl = c.get('deps').siteUrl;
    // The assertion is checked against the address Steam was given; the site's own, never the request's Host.
    const received = new URL(c.req.url);
    const asSent = `${callbackUrl(siteUrl, 'steam')}${received.search}`;
    return await steamOf(c).identify(asSent, steamReturnUrl(siteUrl, state));
  } catch (error) {
    if (error instanceof ProviderError) return error.kind === 'refused' ? 'provider' : 'unavailable';
    throw error;
  }
}

export const signInRoutes = router()
  .openapi(
    createRoute({
      method: 'get',
      path: '/providers',
      tags: ['Акаунти'],
      summary: 'Які сервіси входу (Discord, Steam) увімкнено на сайті',
      responses: { 200: jsonResponse(signInProvidersSchema, 'Сервіси входу') },
    }),
    (c) => {
      const providers = c.get('deps').signInProviders;
      return c.json({ discord: Boolean(providers?.discord), steam: Boolean(providers?.steam) }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{provider}/start',
      tags: ['Акаунти'],
      summary: 'Вхід через Discord або Steam: переадресація до сервісу',
      request: { params: providerParam },
      responses: { 302: { description: 'До сторінки входу сервісу' }, ...errors(400, 404, 429) },
    }),
    async (c) => {
      const { provider } = c.req.valid('param');
      requireProvider(c, provider);
      const url = await begin(c, provider, null);
      return c.redirect(url.startsWith('http') ? url : failedAt(false, url as SignInFailure), 302);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{provider}/link',
      tags: ['Акаунти'],
      summary: 'Прив’язати Discord або Steam до свого акаунта: адреса сервісу для цього браузера',
      request: { params: providerParam },
      responses: { 200: jsonResponse(startLinkResponse, 'Адреса сервісу'), ...errors(400, 401, 404, 429, 503) },
    }),
    async (c) => {
      const { provider } = c.req.valid('param');
      // The guard only added the caller; the helpers read what every request has.
      const context = c as unknown as AppContext;
      requireProvider(context, provider);
      const url = await begin(context, provider, c.var.auth.user.id);
      if (!url.startsWith('http')) fail(503, 'linked.failed.unavailable');
      return c.json({ url }, 200);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/{provider}/callback',
      tags: ['Акаунти'],
      summary: 'Повернення від Discord або Steam: вхід, новий акаунт або прив’язка',
      request: { params: providerParam, query: callbackQuery },
      responses: { 302: { description: 'На сторінку входу з одноразовим кодом, у кабінет або з причиною відмови' }, ...errors(400, 404) },
    }),
    async (c) => {
      const { provider } = c.req.valid('param');
      requireProvider(c, provider);
      const query = c.req.valid('query') as Record<string, string | undefined>;
      const db = c.get('db');
      const state = query.state;
      const flow = state ? await takeFlow(db, provider, state, getCookie(c, FLOW_COOKIE)) : null;
      if (!flow || !state) return c.redirect(failedAt(false, 'state'), 302);
      const linking = flow.userId !== null;
      const identity = await identify(c, provider, query, state, flow.verifier);
      if (typeof identity === 'string') return c.redirect(failedAt(linking, identity), 302);
      const finished = await finishFlow(db, identity, flow.userId);
      if (!finished.ok) return c.redirect(failedAt(linking, finished.reason === 'userGone' ? 'state' : finished.reason), 302);
      if (finished.kind === 'linked') return c.redirect(LINKED_ACCOUNTS_SECTION.replace('#', `?linked=${provider}#`), 302);
      const code = await createHandoff(db, finished.userId, finished.created);
      return c.redirect(`/login?oauth=${encodeURIComponent(code)}`, 302);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/oauth/session',
      tags: ['Акаунти'],
      summary: 'Обміняти одноразовий код входу через Discord або Steam на сесію',
      request: { body: jsonBody(handoffInput) },
      responses: { 200: jsonResponse(handoffResponse, 'Сесію відкрито'), ...errors(400, 415) },
    }),
    async (c) => {
      const { code } = c.req.valid('json');
      const db = c.get('db');
      const handoff = await takeHandoff(db, code);
      const user = handoff ? await findByIdOrName(db, handoff.userId) : undefined;
      if (!handoff || !user) fail(400, 'linked.badCode');
      const { token } = await createSession(db, user.id, c.get('deps').sessionTtlDays);
      const message = handoff.created ? t('linked.welcomeNew', { name: user.username }) : t('auth.loginSuccess');
      return c.json({ user: await presentUser(db, user), token, message, created: handoff.created }, 200);
    },
  );

/** The caller's linked accounts (`/users/me/links`). */
export const linkedAccountRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/links',
      tags: ['Кабінет'],
      summary: 'Мої прив’язані акаунти Discord і Steam',
      responses: { 200: jsonResponse(myLinksSchema, 'Прив’язані акаунти'), ...errors(401) },
    }),
    async (c) => {
      const db = c.get('db');
      const userId = c.var.auth.user.id;
      const providers = c.get('deps').signInProviders;
      return c.json(
        {
          links: await linkedAccountsOf(db, userId),
          providers: { discord: Boolean(providers?.discord), steam: Boolean(providers?.steam) },
          hasPassword: await hasPassword(db, userId),
        },
        200,
      );
    },
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/links/{provider}',
      tags: ['Кабінет'],
      summary: 'Відв’язати Discord або Steam (не останній спосіб увійти)',
      request: { params: providerParam },
      responses: { 200: jsonResponse(messageBody, 'Відв’язано'), ...errors(400, 401, 404, 409) },
    }),
    async (c) => {
      const { provider } = c.req.valid('param');
      const result = await unlinkAccount(c.get('db'), c.var.auth.user.id, provider);
      if (!result.ok) fail(result.reason === 'notLinked' ? 404 : 409, result.reason === 'notLinked' ? 'linked.notLinked' : 'linked.lastWay');
      return c.json({ message: t('linked.unlinked', { provider: providerName(provider) }) }, 200);
    },
  );
