import { createECDH } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { game, useTestApi } from '../support/builders.ts';
import { createTestApi } from '../support/api.ts';
import { hostileParam, hostileString, hostileValue, rowsIn, tableCounts } from '../support/hostile.ts';
import { BOT_TOKEN, startTelegramService, update } from '../support/telegram-service.ts';
import { discordSignIn } from '../../src/server/sign-in/discord.ts';
import { steamSignIn } from '../../src/server/sign-in/steam.ts';
import { oauthStandIn } from '../support/oauth-provider.ts';
import { openIdStandIn } from '../support/openid-provider.ts';

// Hostile input on what reaches outside (issue 60): imports, Discord, web push, API keys, outgoing
// webhooks, Telegram and sign-in with Discord and Steam. Nothing answers 5xx, every refusal is JSON
// `{ message }` (or a redirect back to the page for a browser's callback), and a refused request
// leaves the database as it was. The routes' own hostile input is in fuzz.test.ts.

const api = useTestApi();
let userToken: string;

const rowsOf = <T>(query: ReturnType<typeof sql.raw>) => rowsIn<T>(api, query);
const snapshot = () => tableCounts(api);

beforeAll(async () => {
  userToken = (await api.signedIn()).token;
});

describe('hostile files imported as participants (issue 60)', () => {
  it('never answer 5xx, explain every refusal in JSON, and a refusal adds no application, audit row or notice', async () => {
    // Its own admin: the fuzz above may have signed the shared one out.
    const boss = (await api.signedIn('admin')).token;
    const known = await api.signedIn();
    const gameId = await game(api, `Import fuzz ${Date.now()}`);
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: boss,
      body: { title: `Import fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true, maxParticipants: 2 },
    });
    const id = cup.body.tournament._id;
    const state = async () =>
      JSON.stringify(
        await rowsOf(sql`select (select count(*) from applications) as applications, (select count(*) from audit_log) as audit, (select count(*) from notifications) as notices`),
      );
    // Cells that nearly fit: real names and addresses beside quotes, separators, formulas and line breaks.
    const cell = fc.oneof(hostileString, fc.constantFrom(known.user.username, known.user.email, 'Гравець', 'Email', '"', '""', ';', ',', '=1+1', '\r\n', '\ufeff'));
    const file = fc
      .tuple(fc.array(fc.array(cell, { maxLength: 4 }), { maxLength: 6 }), fc.constantFrom(';', ',', '\t'), fc.constantFrom('\n', '\r\n', '\r'))
      .map(([rows, separator, lineBreak]) => rows.map((row) => row.join(separator)).join(lineBreak));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(boss, userToken),
        fc.oneof(fc.constant(id), hostileParam),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.record({ csv: fc.oneof(file, hostileValue), dryRun: fc.oneof(fc.boolean(), hostileValue) }).map((json) => ({ json }) as { json: unknown }),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (token, tournamentId, body) => {
          const before = await state();
          const path = `/api/tournaments/${encodeURIComponent(tournamentId)}/participants/import`;
          const res = await api.call('POST', path, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${path} ${JSON.stringify(body).slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
    // The exports of the same tournament, and of made-up ones, under hostile names of files.
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(id), hostileParam), fc.oneof(fc.constantFrom('participants.csv', 'matches.csv', 'places.csv'), hostileParam), fc.constantFrom(boss, userToken, undefined), async (tournamentId, name, token) => {
        const res = await api.call('GET', `/api/tournaments/${encodeURIComponent(tournamentId)}/export/${encodeURIComponent(name)}`, { token });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(typeof (res.body as { message?: unknown }).message).toBe('string');
      }),
      { numRuns: 80 },
    );
  });
});

describe('hostile webhook addresses for an organisation’s Discord (issue 60)', () => {
  it('never answer 5xx, refuse in JSON, and a refusal leaves its channel as it was', async () => {
    const owner = await api.signedIn();
    const made = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Fuzz club ${Date.now()}` } });
    const organisation = made.body.organisation._id;
    const good = `https://discord.com/api/webhooks/112233445566778899/${'b'.repeat(68)}`;
    const state = async () => JSON.stringify(await rowsOf(sql`select json_agg(e order by e.id) as endpoints from organisation_endpoints e`));
    const url = fc.oneof(
      hostileString,
      hostileValue,
      fc.constant(good),
      // Near misses: Discord's form with a piece swapped for something hostile.
      hostileString.map((bad) => good.replace('discord.com', bad)),
      hostileString.map((bad) => `${good}${bad}`),
      fc.string({ maxLength: 120 }).map((tail) => `https://discord.com/api/webhooks/${tail}`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('PUT', 'DELETE'),
        fc.constantFrom(owner.token, userToken),
        fc.oneof(fc.constant(organisation), hostileParam),
        fc.oneof(url.map((u) => ({ json: { url: u } })), hostileValue.map((json) => ({ json })), fc.string({ maxLength: 30 }).map((raw) => ({ raw }))),
        async (method, token, id, sent) => {
          const path = `/api/organisations/${encodeURIComponent(id)}/discord`;
          const before = await state();
          const res = await api.call(method, path, 'raw' in sent ? { token, raw: sent.raw } : { token, body: sent.json });
          expect(res.status, `${method} ${path} ${JSON.stringify(sent).slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('hostile push subscriptions (issue 60)', () => {
  it('near-miss devices and endpoints never answer 5xx, explain every refusal and change nothing when refused', async () => {
    const token = (await api.signedIn()).token;
    const point = (() => {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      return ecdh.getPublicKey().toString('base64url');
    })();
    const endpoint = fc.oneof(
      fc.constantFrom('https://push.example.test/fuzz/a', 'http://push.example.test/a', 'https://u:p@push.example.test/a', 'https://', 'ftp://push.example.test/a', 'javascript:alert(1)'),
      fc.webUrl({ validSchemes: ['https'] }),
      hostileString,
    );
    const key = fc.oneof(
      fc.constant(point),
      fc.constant(`B${'A'.repeat(86)}`),
      fc.uint8Array({ minLength: 60, maxLength: 70 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
      hostileString,
    );
    const auth = fc.oneof(fc.uint8Array({ minLength: 14, maxLength: 18 }).map((bytes) => Buffer.from(bytes).toString('base64url')), hostileString);
    const device = fc.record(
      { endpoint, expirationTime: fc.oneof(fc.constant(null), fc.integer(), hostileValue), keys: fc.oneof(fc.record({ p256dh: key, auth }), hostileValue), extra: hostileValue },
      { requiredKeys: ['endpoint', 'keys'] },
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'DELETE'), fc.oneof(device.map((json) => ({ json: json as unknown })), hostileValue.map((json) => ({ json }))), async (method, body) => {
        const before = await snapshot();
        const res = await api.call(method, '/api/push/subscriptions', { token, body: body.json });
        expect(res.status, JSON.stringify(body).slice(0, 120)).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          expect(await snapshot()).toBe(before);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('hostile API keys and their names (issue 60)', () => {
  it('never answer 5xx, refuse in JSON, and a refusal makes no key', async () => {
    const owner = await api.signedIn();
    const made = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Fuzz keys ${Date.now()}` } });
    const organisation = made.body.organisation._id;
    const keys = async () => JSON.stringify(await rowsOf(sql`select count(*)::int as n from organisation_api_keys`));
    const body = fc.oneof(
      fc.record({ name: fc.oneof(hostileString, fc.string({ maxLength: 70 })), scope: fc.oneof(fc.constantFrom('read', 'run', 'admin', ''), hostileString) }).map((json) => ({ json: json as unknown })),
      hostileValue.map((json) => ({ json })),
      fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(owner.token, userToken, undefined), fc.oneof(fc.constant(organisation), hostileParam), body, async (token, id, sent) => {
        const path = `/api/organisations/${encodeURIComponent(id)}/api-keys`;
        const before = await keys();
        const res = await api.call('POST', path, 'raw' in sent ? { token, raw: sent.raw } : { token, body: sent.json });
        expect(res.status, `${path} ${JSON.stringify(sent).slice(0, 200)}`).toBeLessThan(500);
        if (res.status >= 400) {
          expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          expect(await keys()).toBe(before);
        }
      }),
      { numRuns: 120 },
    );
    // Revoking made-up keys, and bearer secrets that only look like keys.
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constant(organisation), hostileParam), hostileParam, fc.oneof(fc.string({ maxLength: 250 }).filter((s) => /^[\x21-\x7e]*$/.test(s)).map((s) => `ka_${s}`), fc.constant(`ka_${'A'.repeat(43)}`)), async (id, keyId, secret) => {
        const revoke = await api.call('DELETE', `/api/organisations/${encodeURIComponent(id)}/api-keys/${encodeURIComponent(keyId)}`, { token: owner.token });
        expect(revoke.status).toBeLessThan(500);
        expect([400, 403, 404]).toContain(revoke.status);
        const read = await api.call('GET', '/api/games', { headers: { authorization: `Bearer ${secret}` } });
        expect(read.status).toBeLessThan(500);
        if (read.status >= 400) expect(typeof (read.body as { message?: unknown }).message).toBe('string');
      }),
      { numRuns: 80 },
    );
  });
});

describe('hostile outgoing webhooks for an organisation (issue 60)', () => {
  it('never answer 5xx, refuse in JSON, and a refusal registers nothing', async () => {
    const owner = await api.signedIn();
    const made = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Fuzz hooks ${Date.now()}` } });
    const organisation = made.body.organisation._id;
    const state = async () => JSON.stringify(await rowsOf(sql`select json_agg(e order by e.id) as endpoints from organisation_endpoints e where kind = 'webhook'`));
    const url = fc.oneof(
      hostileString,
      hostileValue,
      fc.webUrl({ validSchemes: ['https', 'http', 'ftp', 'javascript'] }),
      fc.ipV4().map((ip) => `http://${ip}/hook`),
      fc.ipV6().map((ip) => `http://[${ip}]/hook`),
      hostileString.map((bad) => `https://hooks.example.com/${bad}`),
    );
    const events = fc.oneof(fc.subarray(['tournament.created', 'registration.closed', 'match.ready', 'match.completed', 'tournament.finished']), fc.array(hostileString, { maxLength: 3 }), hostileValue);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'DELETE'),
        fc.constantFrom(owner.token, userToken),
        fc.oneof(fc.constant(organisation), hostileParam),
        fc.oneof(fc.constant(''), fc.uuid().map((u) => `/${u}`), hostileParam.map((p) => `/${encodeURIComponent(p)}`)),
        fc.oneof(fc.record({ url, events }).map((json) => ({ json: json as unknown })), hostileValue.map((json) => ({ json })), fc.string({ maxLength: 30 }).map((raw) => ({ raw }))),
        async (method, token, id, tail, sent) => {
          const path = `/api/organisations/${encodeURIComponent(id)}/webhooks${method === 'DELETE' ? tail : ''}`;
          const before = await state();
          const res = await api.call(method, path, 'raw' in sent ? { token, raw: sent.raw } : { token, body: sent.json });
          expect(res.status, `${method} ${path} ${JSON.stringify(sent).slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('hostile Telegram updates, links and channels (issue 60)', () => {
  it('never answer 5xx, refuse in Ukrainian JSON, and a refusal links or saves nothing', async () => {
    const standIn = await startTelegramService();
    standIn.chat({ id: -1001000000555, username: 'fuzz_news', botStatus: 'administrator' });
    const bot = await createTestApi({ database: api.database, telegram: { apiRoot: standIn.apiRoot, token: BOT_TOKEN, timeoutSeconds: 1 } });
    try {
      const owner = await bot.signedIn();
      const made = await bot.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Fuzz telegram ${Date.now()}` } });
      const organisation = made.body.organisation._id;
      const links = async () => JSON.stringify(await rowsOf(sql`select count(*)::int as n from telegram_links`));
      const secret = fc.constantFrom(undefined, '', 'test-webhook-secret-0123456789', 'test-webhook-secret-012345678', 'x'.repeat(300));
      const updateBody = fc.oneof(
        fc.tuple(fc.integer(), hostileString).map(([chat, text]) => ({ json: update(chat, `/start ${text}`) as unknown })),
        fc.tuple(fc.integer(), hostileString).map(([chat, text]) => ({ json: update(chat, text) as unknown })),
        hostileValue.map((json) => ({ json })),
        fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
      );
      await fc.assert(
        fc.asyncProperty(secret, updateBody, async (header, sent) => {
          const before = await links();
          const headers: Record<string, string> = header === undefined ? {} : { 'x-telegram-bot-api-secret-token': header };
          const res = await bot.call('POST', '/api/telegram/webhook', 'raw' in sent ? { headers, raw: sent.raw } : { headers, body: sent.json });
          expect(res.status, JSON.stringify(sent).slice(0, 200)).toBeLessThan(500);
          if (res.status >= 400) expect((res.body as { message?: unknown }).message).toMatch(/\p{Script=Cyrillic}/u);
          // No made-up token links anyone.
          expect(await links()).toBe(before);
        }),
        { numRuns: 120 },
      );
      const endpoints = async () => JSON.stringify(await rowsOf(sql`select count(*)::int as n from organisation_endpoints`));
      const chat = fc.oneof(fc.constantFrom('@fuzz_news', '@nobody_fuzz', '-1001000000555', '@', '@ab', '-1'), hostileString, hostileValue);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(owner.token, userToken, undefined), fc.oneof(fc.constant(organisation), hostileParam), fc.oneof(chat.map((c) => ({ json: { chat: c } as unknown })), hostileValue.map((json) => ({ json }))), async (token, id, sent) => {
          const before = await endpoints();
          const res = await bot.call('PUT', `/api/organisations/${encodeURIComponent(id)}/telegram`, { token, body: sent.json });
          expect(res.status, JSON.stringify(sent).slice(0, 200)).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await endpoints()).toBe(before);
          }
        }),
        { numRuns: 100 },
      );
      // A burst of link tokens for one user leaves one.
      const statuses = await Promise.all(Array.from({ length: 12 }, () => bot.call('POST', '/api/telegram/link', { token: owner.token })));
      expect(statuses.every((r) => r.status === 201)).toBe(true);
      expect(await rowsOf(sql`select count(*)::int as n from telegram_link_tokens where user_id = ${owner.user.id}`)).toEqual([{ n: 1 }]);
    } finally {
      await bot.close();
      await standIn.close();
    }
  });
});

describe('hostile callbacks, codes and links of sign-in with Discord and Steam (issue 60)', () => {
  it('never answer 5xx, refuse in JSON or send back to the login page, and make no account or link', async () => {
    const discord = await oauthStandIn();
    const steam = await openIdStandIn();
    const site = 'https://arena.test';
    const signIn = await createTestApi({
      siteUrl: site,
      signInProviders: {
        discord: discordSignIn({ clientId: discord.clientId, clientSecret: discord.clientSecret, root: discord.root, redirectUri: `${site}/api/auth/discord/callback`, timeoutMs: 1000 }),
        steam: steamSignIn({ endpoint: steam.endpoint, realm: site, apiRoot: steam.root, timeoutMs: 1000 }),
      },
    });
    try {
      const { token } = await signIn.signedIn();
      const accounts = async () => JSON.stringify(await signIn.db.execute(sql`select (select count(*) from users) as users, (select count(*) from linked_accounts) as links`));
      const before = await accounts();
      const openidKey = fc.constantFrom('openid.mode', 'openid.claimed_id', 'openid.identity', 'openid.op_endpoint', 'openid.sig', 'openid.signed', 'openid.return_to', 'openid.response_nonce', 'state', 'code', 'error');
      const query = fc.dictionary(openidKey, hostileString, { maxKeys: 6 });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('discord', 'steam', 'github', '', '%00', 'DISCORD'),
          query,
          hostileValue,
          fc.constantFrom(token, undefined),
          async (provider, params, body, caller) => {
            const search = new URLSearchParams(params as Record<string, string>).toString();
            const calls = [
              signIn.call('GET', `/api/auth/${encodeURIComponent(provider)}/callback?${search}`, { headers: { cookie: `kiberarena_sign_in=${encodeURIComponent(String(params.state ?? 'x'))}` } }),
              signIn.call('POST', '/api/auth/oauth/session', { body }),
              signIn.call('DELETE', `/api/users/me/links/${encodeURIComponent(provider)}`, { token: caller }),
            ];
            for (const res of await Promise.all(calls)) {
              expect(res.status, `${provider} ${search.slice(0, 120)}`).toBeLessThan(500);
              if (res.status === 302) expect(res.headers.get('location')).toMatch(/^\/login\?oauthError=/);
              else if (res.status >= 400) expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            }
          },
        ),
        { numRuns: 120 },
      );
      expect(await accounts()).toBe(before);
    } finally {
      await signIn.close();
      await discord.close();
      await steam.close();
    }
  });
});
