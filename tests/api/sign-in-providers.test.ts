/**
 * Sign-in with Discord and Steam and linked game accounts (issue 60, decision 044), the whole road
 * against stand-ins on loopback: an OAuth 2 provider with PKCE (tests/support/oauth-provider.ts) and
 * an OpenID 2.0 provider (tests/support/openid-provider.ts). The test plays the browser: it follows
 * each redirect itself and carries the flow's cookie.
 */
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkedAccounts, signInFlows, users } from '../../src/server/db/schema/index.ts';
import { insertAccount } from '../../src/server/db/factories/index.ts';
import { discordSignIn } from '../../src/server/sign-in/discord.ts';
import { steamSignIn } from '../../src/server/sign-in/steam.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { game, player, team, unique } from '../support/builders.ts';
import { oauthStandIn, type OAuthStandIn } from '../support/oauth-provider.ts';
import { openIdStandIn, type OpenIdStandIn } from '../support/openid-provider.ts';

const SITE = 'https://arena.test';
let discord: OAuthStandIn;
let steam: OpenIdStandIn;
let api: TestApi;
let off: TestApi;

beforeAll(async () => {
  discord = await oauthStandIn();
  steam = await openIdStandIn();
  api = await createTestApi({
    siteUrl: SITE,
    signInProviders: {
      discord: discordSignIn({ clientId: discord.clientId, clientSecret: discord.clientSecret, root: discord.root, redirectUri: `${SITE}/api/auth/discord/callback`, timeoutMs: 1500 }),
      steam: steamSignIn({ endpoint: steam.endpoint, realm: SITE, apiKey: steam.apiKey, apiRoot: steam.root, timeoutMs: 1500 }),
    },
  });
});

afterAll(async () => {
  await api?.close();
  await discord?.close();
  await steam?.close();
});

/** The flow's cookie as the browser sends it back (the answer also sets the device's). */
const cookieOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith('kiberarena_sign_in='))?.split(';')[0] ?? '';
const local = (location: string) => {
  const url = new URL(location, SITE);
  return `${url.pathname}${url.search}${url.hash}`;
};

/** Goes to the provider's page as a browser would, and returns where it sends the browser back. */
async function atProvider(url: string): Promise<string> {
  const answer = await fetch(url, { redirect: 'manual' });
  expect(answer.status, await answer.clone().text()).toBe(302);
  return answer.headers.get('location')!;
}

/** A guest's sign-in up to the callback's answer: the callback address and the browser's cookie too. */
async function signInCallback(provider: 'discord' | 'steam', cookie?: string) {
  const start = await api.call('GET', `/api/auth/${provider}/start`);
  expect(start.status).toBe(302);
  const browser = cookie ?? cookieOf(start.headers);
  const back = await atProvider(start.headers.get('location')!);
  const callback = local(back);
  const answer = await api.call('GET', callback, { headers: { cookie: browser } });
  return { callback, browser, answer };
}

/** The whole sign-in: the session the login page gets for the one-time code. */
async function signIn(provider: 'discord' | 'steam') {
  const { answer } = await signInCallback(provider);
  expect(answer.status).toBe(302);
  const location = new URL(answer.headers.get('location')!, SITE);
  expect(location.pathname).toBe('/login');
  const code = location.searchParams.get('oauth');
  expect(code, location.toString()).toBeTruthy();
  const session = await api.call<{ token: string; user: { _id: string; username: string }; created: boolean; message: string }>('POST', '/api/auth/oauth/session', { body: { code } });
  expect(session.status).toBe(200);
  return { ...session.body, code: code! };
}

/** A signed-in player's link, from the cabinet's POST to the callback's answer. */
async function link(provider: 'discord' | 'steam', token: string) {
  const started = await api.call<{ url: string }>('POST', `/api/auth/${provider}/link`, { token });
  expect(started.status).toBe(200);
  const back = await atProvider(started.body.url);
  return api.call('GET', local(back), { headers: { cookie: cookieOf(started.headers) } });
}

const usersCount = async () => (await api.db.select({ n: count() }).from(users))[0]!.n;

describe('sign-in with Discord', () => {
  it('makes a new account for an unknown Discord account, signs it in, and signs it in again by its link', async () => {
    discord.user = { id: '100000000000000001', username: 'olena', global_name: 'Олена Вовк' };
    const first = await signIn('discord');
    expect(first.created).toBe(true);
    expect(first.user.username).toBe('Олена_Вовк');
    expect(first.message).toContain('Олена_Вовк');
    const me = await api.call<{ _id: string }>('GET', '/api/users/me', { token: first.token });
    expect(me.body._id).toBe(first.user._id);
    const again = await signIn('discord');
    expect(again.created).toBe(false);
    expect(again.user._id).toBe(first.user._id);
    // It has no password: signing in by name with any password is refused (and not a 500).
    const byPassword = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: first.user.username, password: '' + 'x'.repeat(10) } });
    expect(byPassword.status).toBe(401);
  });

  it('asks Discord with PKCE (S256) and a state, and never for the email', async () => {
    const start = await api.call('GET', '/api/auth/discord/start');
    const to = new URL(start.headers.get('location')!);
    expect(to.origin).toBe(discord.root);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('state')?.length).toBeGreaterThan(30);
    expect(to.searchParams.get('scope')).toBe('identify');
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('kiberarena_sign_in='));
    expect(flowCookie).toMatch(/HttpOnly/i);
    expect(flowCookie).toMatch(/SameSite=Lax/i);
    expect(flowCookie).toMatch(/Path=\/api\/auth/);
  });

  it('never merges: a Discord account named like an existing player, with their email, gets an account of its own', async () => {
    const owner = await player(api, unique('Taras'));
    const before = await api.db.select().from(users).where(eq(users.id, owner.user.id));
    discord.user = { id: '100000000000000002', username: owner.user.username, global_name: owner.user.username };
    const signedIn = await signIn('discord');
    expect(signedIn.created).toBe(true);
    expect(signedIn.user._id).not.toBe(owner.user.id);
    expect(signedIn.user.username.toLowerCase()).not.toBe(owner.user.username.toLowerCase());
    const after = await api.db.select().from(users).where(eq(users.id, owner.user.id));
    expect(after).toEqual(before);
    expect(await api.db.select().from(linkedAccounts).where(eq(linkedAccounts.userId, owner.user.id))).toHaveLength(0);
  });

  it('refuses a callback whose state is unknown, or from another browser, and creates nothing', async () => {
    discord.user = { id: '100000000000000003', username: 'mallory' };
    const before = await usersCount();
    const { callback } = await signInCallback('discord', 'kiberarena_sign_in=not-the-browser-that-started');
    // The flow was used up by the refused try: the right browser cannot finish it afterwards either.
    const later = await api.call('GET', callback, { headers: { cookie: 'kiberarena_sign_in=x' } });
    expect(new URL(later.headers.get('location')!, SITE).searchParams.get('oauthError')).toBe('state');
    const forged = await api.call('GET', '/api/auth/discord/callback?code=abc&state=made-up-state-value');
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe('/login?oauthError=state');
    const none = await api.call('GET', '/api/auth/discord/callback?code=abc');
    expect(none.headers.get('location')).toBe('/login?oauthError=state');
    expect(await usersCount()).toBe(before);
  });

  it('refuses a replayed callback, and a replayed one-time code', async () => {
    discord.user = { id: '100000000000000004', username: 'replay' };
    const { callback, browser, answer } = await signInCallback('discord');
    const code = new URL(answer.headers.get('location')!, SITE).searchParams.get('oauth')!;
    const replay = await api.call('GET', callback, { headers: { cookie: browser } });
    expect(replay.headers.get('location')).toBe('/login?oauthError=state');
    expect((await api.call('POST', '/api/auth/oauth/session', { body: { code } })).status).toBe(200);
    const twice = await api.call<{ message: string }>('POST', '/api/auth/oauth/session', { body: { code } });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toBe('Посилання для входу недійсне або застаріле: увійдіть ще раз');
  });

  it('answers a provider that refuses the code, is down or is slow with a clear reason, and creates nothing', async () => {
    const before = await usersCount();
    discord.user = { id: '100000000000000005', username: 'slowpoke' };
    discord.mode = 'slow';
    try {
      const slow = await signInCallback('discord');
      expect(slow.answer.headers.get('location')).toBe('/login?oauthError=unavailable');
    } finally {
      discord.mode = 'ok';
    }
    // Discord says no: the user cancelled on its page.
    const start = await api.call('GET', '/api/auth/discord/start');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const cancelled = await api.call('GET', `/api/auth/discord/callback?error=access_denied&state=${encodeURIComponent(state)}`, { headers: { cookie: cookieOf(start.headers) } });
    expect(cancelled.headers.get('location')).toBe('/login?oauthError=cancelled');
    // A code Discord never gave.
    const start2 = await api.call('GET', '/api/auth/discord/start');
    const state2 = new URL(start2.headers.get('location')!).searchParams.get('state')!;
    const bad = await api.call('GET', `/api/auth/discord/callback?code=forged&state=${encodeURIComponent(state2)}`, { headers: { cookie: cookieOf(start2.headers) } });
    expect(bad.headers.get('location')).toBe('/login?oauthError=provider');
    expect(discord.tokenCalls.at(-1)).toEqual({ code: 'forged', ok: false });
    // Down when the player comes back.
    const pending = await api.call('GET', '/api/auth/discord/start');
    const back = await atProvider(pending.headers.get('location')!);
    discord.mode = 'down';
    try {
      const down = await api.call('GET', local(back), { headers: { cookie: cookieOf(pending.headers) } });
      expect(down.headers.get('location')).toBe('/login?oauthError=unavailable');
    } finally {
      discord.mode = 'ok';
    }
    expect(await usersCount()).toBe(before);
  });
});

describe('sign-in with Steam', () => {
  it('signs in through OpenID verified with Steam, with the persona from the Web API and the profile link', async () => {
    steam.steamId = '76561197960000001';
    steam.persona = 'Robin';
    const first = await signIn('steam');
    expect(first.created).toBe(true);
    expect(first.user.username).toBe('Robin');
    expect(steam.checks.at(-1)).toEqual({ valid: true });
    const profile = await api.call<{ linkedAccounts: { provider: string; name: string; url: string | null }[] }>('GET', `/api/players/${first.user._id}`);
    expect(profile.body.linkedAccounts).toEqual([expect.objectContaining({ provider: 'steam', name: 'Robin', url: 'https://steamcommunity.com/profiles/76561197960000001' })]);
    const again = await signIn('steam');
    expect(again.user._id).toBe(first.user._id);
  });

  it('refuses an assertion Steam calls invalid, and one naming another provider or another id', async () => {
    const before = await usersCount();
    steam.steamId = '76561197960000002';
    steam.valid = false;
    try {
      const { answer } = await signInCallback('steam');
      expect(answer.headers.get('location')).toBe('/login?oauthError=provider');
      expect(steam.checks.at(-1)).toEqual({ valid: false });
    } finally {
      steam.valid = true;
    }
    // An assertion altered on its way: another SteamID in it; the signature no longer holds.
    const start = await api.call('GET', '/api/auth/steam/start');
    const back = new URL(await atProvider(start.headers.get('location')!));
    back.searchParams.set('openid.claimed_id', `${steam.endpoint}/id/76561197960999999`);
    back.searchParams.set('openid.identity', `${steam.endpoint}/id/76561197960999999`);
    const altered = await api.call('GET', local(back.toString()), { headers: { cookie: cookieOf(start.headers) } });
    expect(altered.headers.get('location')).toBe('/login?oauthError=provider');
    // One that names a provider of the attacker's: never asked.
    const start2 = await api.call('GET', '/api/auth/steam/start');
    const back2 = new URL(await atProvider(start2.headers.get('location')!));
    back2.searchParams.set('openid.op_endpoint', 'http://127.0.0.1:9/openid/login');
    back2.searchParams.set('openid.claimed_id', 'http://127.0.0.1:9/openid/id/76561197960999999');
    back2.searchParams.set('openid.identity', 'http://127.0.0.1:9/openid/id/76561197960999999');
    const checks = steam.checks.length;
    const foreign = await api.call('GET', local(back2.toString()), { headers: { cookie: cookieOf(start2.headers) } });
    expect(foreign.headers.get('location')).toBe('/login?oauthError=provider');
    expect(steam.checks.length).toBe(checks);
    expect(await usersCount()).toBe(before);
  });

  it('gives up on a Steam that does not answer the check, and creates nothing', async () => {
    const before = await usersCount();
    steam.steamId = '76561197960000003';
    steam.mode = 'slow';
    try {
      const { answer } = await signInCallback('steam');
      expect(answer.headers.get('location')).toBe('/login?oauthError=unavailable');
    } finally {
      steam.mode = 'ok';
    }
    steam.mode = 'down';
    try {
      const start = await api.call('GET', '/api/auth/steam/start');
      expect(start.headers.get('location')).toBe('/login?oauthError=unavailable');
    } finally {
      steam.mode = 'ok';
    }
    expect(await usersCount()).toBe(before);
  });
});

describe('linking', () => {
  it('links Steam to a signed-in player, shows it, and refuses it to anyone else', async () => {
    const owner = await player(api);
    steam.steamId = '76561197960000010';
    steam.persona = 'Kozak';
    const linked = await link('steam', owner.token);
    expect(linked.status).toBe(302);
    expect(linked.headers.get('location')).toBe('/cabinet?linked=steam#linked-accounts');
    const mine = await api.call<{ links: { provider: string; name: string }[]; providers: { discord: boolean; steam: boolean }; hasPassword: boolean }>('GET', '/api/users/me/links', { token: owner.token });
    expect(mine.body).toEqual({ links: [expect.objectContaining({ provider: 'steam', name: 'Kozak' })], providers: { discord: true, steam: true }, hasPassword: true });
    // Signing in with that Steam account now opens the owner's account.
    const signedIn = await signIn('steam');
    expect(signedIn.user._id).toBe(owner.user.id);
    // Someone else trying to link the same Steam account is refused; nothing moves.
    const other = await player(api);
    const refused = await link('steam', other.token);
    expect(refused.headers.get('location')).toBe('/cabinet?oauthError=linkedElsewhere#linked-accounts');
    const held = await api.db.select().from(linkedAccounts).where(eq(linkedAccounts.providerAccountId, '76561197960000010'));
    expect(held.map((l) => l.userId)).toEqual([owner.user.id]);
    // A second Steam account for the owner: unlink the first one first.
    steam.steamId = '76561197960000011';
    const second = await link('steam', owner.token);
    expect(second.headers.get('location')).toBe('/cabinet?oauthError=alreadyLinked#linked-accounts');
  });

  it('asks to be signed in to link, and binds the start to the caller', async () => {
    expect((await api.call('POST', '/api/auth/discord/link')).status).toBe(401);
    const flows = await api.db.select({ n: count() }).from(signInFlows);
    expect(flows[0]!.n).toBeGreaterThan(0);
  });

  it('unlinks, but never the last way into an account without a password', async () => {
    discord.user = { id: '100000000000000020', username: 'onlydiscord' };
    const made = await signIn('discord');
    const last = await api.call<{ message: string }>('DELETE', '/api/users/me/links/discord', { token: made.token });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('Це єдиний спосіб увійти в акаунт: спершу задайте пароль у кабінеті або прив’яжіть інший сервіс');
    steam.steamId = '76561197960000020';
    expect((await link('steam', made.token)).headers.get('location')).toBe('/cabinet?linked=steam#linked-accounts');
    const one = await api.call('DELETE', '/api/users/me/links/discord', { token: made.token });
    expect(one.status).toBe(200);
    expect((await api.call('DELETE', '/api/users/me/links/steam', { token: made.token })).status).toBe(409);
    const none = await api.call<{ message: string }>('DELETE', '/api/users/me/links/discord', { token: made.token });
    expect(none.status).toBe(404);
    expect(none.body.message).toBe('Цей сервіс не прив’язано до вашого акаунта');
    // A player with a password may unlink their only link.
    const withPassword = await player(api);
    steam.steamId = '76561197960000021';
    await link('steam', withPassword.token);
    expect((await api.call('DELETE', '/api/users/me/links/steam', { token: withPassword.token })).status).toBe(200);
  });

  it('lets an account made by a provider set its first password without an old one', async () => {
    discord.user = { id: '100000000000000030', username: 'setspassword' };
    const made = await signIn('discord');
    const set = await api.call('PUT', '/api/cabinet/me/password', { token: made.token, body: { oldPassword: '-', newPassword: 'a-new-long-password' } });
    expect(set.status).toBe(200);
    // Its address is a placeholder under .invalid, never confirmed: the password opens it only once a real one is.
    const login = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: made.user.username, password: 'a-new-long-password' } });
    expect(login.status).toBe(403);
    expect((await api.call('DELETE', '/api/users/me/links/discord', { token: made.token })).status).toBe(409);
    await api.db.update(users).set({ email: unique('real') + '@arena.test', emailConfirmedAt: new Date() }).where(eq(users.id, made.user._id));
    expect((await api.call('POST', '/api/auth/login', { body: { loginOrEmail: made.user.username, password: 'a-new-long-password' } })).status).toBe(200);
    expect((await api.call('DELETE', '/api/users/me/links/discord', { token: made.token })).status).toBe(200);
  });
});

describe('a tournament that requires Steam', () => {
  it('is accepted only for CS2 and Dota 2', async () => {
    const { token } = await api.signedIn('admin');
    const other = await game(api, unique('Шахи '));
    const refused = await api.call<{ message: string }>('POST', '/api/tournaments', { token, body: { title: 'Кубок', date: '2030-05-01T16:00:00Z', game: other, requireSteam: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Вимагати акаунт Steam можна лише в турнірах з CS2 або Dota 2');
    const cs2 = await game(api, unique('Counter-Strike 2 '));
    const made = await api.call<{ tournament: { requireSteam: boolean } }>('POST', '/api/tournaments', { token, body: { title: 'Кубок', date: '2030-05-01T16:00:00Z', game: cs2, requireSteam: true } });
    expect(made.status).toBe(201);
    expect(made.body.tournament.requireSteam).toBe(true);
  });

  it('refuses a solo player without Steam and takes them once it is linked', async () => {
    const { token } = await api.signedIn('admin');
    const dota = await game(api, unique('Dota 2 '));
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', { token, body: { title: 'Соло', date: '2030-05-01T16:00:00Z', game: dota, soloOnly: true, requireSteam: true } });
    const id = cup.body.tournament._id;
    const plain = await player(api);
    const eligibility = await api.call<{ refusal: string | null }>('GET', `/api/tournaments/${id}/eligibility`, { token: plain.token });
    expect(eligibility.body.refusal).toBe('steamRequired');
    const refused = await api.call<{ message: string }>('POST', '/api/applications', { token: plain.token, body: { tournament: id } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Для участі в цьому турнірі прив’яжіть акаунт Steam у кабінеті');
    steam.steamId = '76561197960000040';
    await link('steam', plain.token);
    expect((await api.call('POST', '/api/applications', { token: plain.token, body: { tournament: id } })).status).toBe(201);
  });

  it('refuses a team until every player of its roster has Steam', async () => {
    const { token } = await api.signedIn('admin');
    const cs2 = await game(api, unique('CS2 '));
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', { token, body: { title: 'Команди', date: '2030-05-01T16:00:00Z', game: cs2, requireSteam: true } });
    const id = cup.body.tournament._id;
    const captain = await player(api);
    const squad = await team(api, captain, 5);
    steam.steamId = '76561197960000050';
    await link('steam', captain.token);
    const refused = await api.call<{ message: string }>('POST', '/api/applications', { token: captain.token, body: { tournament: id, team: squad.id } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Для участі в цьому турнірі кожен гравець команди має прив’язати акаунт Steam у кабінеті');
    for (const [i, member] of squad.members.slice(1).entries()) {
      await api.db.insert(linkedAccounts).values({ userId: member, provider: 'steam', providerAccountId: `7656119796100${String(i).padStart(4, '0')}`, displayName: 'x' });
    }
    expect((await api.call('POST', '/api/applications', { token: captain.token, body: { tournament: id, team: squad.id } })).status).toBe(201);
  });
});

describe('with the providers unset', () => {
  beforeAll(async () => {
    off = await createTestApi({ siteUrl: SITE });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('answers 404 in Ukrainian and says both are off', async () => {
    expect((await off.call('GET', '/api/auth/providers')).body).toEqual({ discord: false, steam: false });
    const start = await off.call<{ message: string }>('GET', '/api/auth/discord/start');
    expect(start.status).toBe(404);
    expect(start.body.message).toBe('Вхід через Discord на цьому сайті не підключено');
    expect((await off.call('GET', '/api/auth/steam/callback?state=x')).status).toBe(404);
    const someone = await insertAccount(off.db, { username: unique('offline'), password: 'correct-horse-9' });
    void someone;
    const signedIn = await off.signedIn();
    expect((await off.call('POST', '/api/auth/steam/link', { token: signedIn.token })).status).toBe(404);
    const links = await off.call<{ providers: unknown }>('GET', '/api/users/me/links', { token: signedIn.token });
    expect(links.body.providers).toEqual({ discord: false, steam: false });
  });
});
