import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/api/app.ts';
import { REGISTER_LIMITS } from '../../src/server/api/routes/auth.ts';
import { LETTER_LIMITS } from '../../src/server/services/accounts/letter-limits.ts';
import { LOGIN_LIMITS } from '../../src/server/services/accounts/login-attempts.ts';
import { memoryLimiter } from '../../src/server/services/rate-limit.ts';
import { proxyTrust } from '../../src/server/transport.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { tournament, useTestApi } from '../support/builders.ts';

// Issue 54: with TRUST_PROXY set and the app's port reachable, 10 000 streams from "different
// addresses" filled the process's cap and registration limits were bypassed. X-Forwarded-For is
// believed only from a socket of our proxies; an IPv6 client is counted by its /64.

const api = useTestApi();
/** Our nginx at 10.1.1.1 (TRUST_PROXY=10.1.1.0/24). */
const PROXIES = ['10.1.1.0/24'];
const PROXY = '10.1.1.1';
/** Someone who reached the app's port itself, not through our proxy. */
const STRANGER = '203.0.113.66';
const MANY = 10_000;
/** About a millisecond a request in process, and a stream asks the database whether its tournament exists. */
const MANY_MS = 180_000;

/**
 * The same database behind our proxy. Its counters are kept in memory: 10 000 requests would each
 * cost a database write, and that every store counts alike is tests/api/rate-limits.test.ts's part.
 */
let proxied: TestApi;
beforeAll(async () => {
  proxied = await createTestApi({ database: api.database, trustProxy: PROXIES, limits: memoryLimiter() });
});
afterAll(() => proxied.close());

const tag = () => randomUUID().slice(0, 6);
const newcomer = (name: string) => ({ username: name, email: `${name}@example.test`, password: 'hunter2hunter2' });

/** Runs `count` requests, `batch` at a time, tallying their statuses; `check` is asked after each batch, so a failure shows early. */
async function tally(count: number, request: (i: number) => Promise<number>, check: (statuses: Map<number, number>) => void, batch = 250) {
  const statuses = new Map<number, number>();
  for (let start = 0; start < count; start += batch) {
    const answers = await Promise.all(Array.from({ length: Math.min(batch, count - start) }, (_, j) => request(start + j)));
    for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    check(statuses);
  }
  return statuses;
}

describe('X-Forwarded-For from a client that reached the port itself', () => {
  it(`counts ${MANY} registrations, each claiming another address, as one address`, async () => {
    const run = tag();
    const statuses = await tally(
      MANY,
      async (i) => (await proxied.call('POST', '/api/auth/register', { body: newcomer(`fwd${i}_${run}`), headers: { 'x-forwarded-for': `198.51.${i >> 8}.${i & 255}` }, ip: STRANGER })).status,
      (so) => expect(so.get(201) ?? 0).toBeLessThanOrEqual(REGISTER_LIMITS.address.max),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 201: REGISTER_LIMITS.address.max, 429: MANY - REGISTER_LIMITS.address.max });
    // Through our proxy the same header is the client's address, and a new client registers.
    const behindProxy = await proxied.call('POST', '/api/auth/register', { body: newcomer(`fwd_ok_${run}`), headers: { 'x-forwarded-for': '198.51.100.200' }, ip: PROXY });
    expect(behindProxy.status).toBe(201);
  }, MANY_MS);

  it(`counts ${MANY} event streams, each claiming another address, against one address's share, and the process keeps its places`, async () => {
    const cup = await tournament(api, { soloOnly: true });
    const limits = { max: MANY, perAddress: 16 };
    const app = createApp({ database: api.database, mailer: { send: async () => {} }, limits: memoryLimiter(), sessionTtlDays: 30, siteUrl: 'https://arena.test', trustProxy: proxyTrust(PROXIES), eventStreams: limits });
    const open: Response[] = [];
    const stream = async (forwardedFor: string, peer: string) => {
      const response = await app.request(`/api/tournaments/${cup.id}/events`, { headers: { 'x-forwarded-for': forwardedFor } }, { clientAddress: peer });
      if (response.status === 200) open.push(response);
      else await response.body?.cancel();
      return response.status;
    };
    try {
      const statuses = await tally(
        MANY,
        (i) => stream(`192.0.${i >> 8}.${i & 255}`, STRANGER),
        (so) => expect(so.get(200) ?? 0).toBeLessThanOrEqual(limits.perAddress),
      );
      expect(Object.fromEntries(statuses)).toEqual({ 200: limits.perAddress, 429: MANY - limits.perAddress });
      // Everyone else still gets a place: the cap of the process was not filled.
      expect(await stream('198.51.100.9', PROXY)).toBe(200);
    } finally {
      await Promise.all(open.map((response) => response.body?.cancel()));
    }
  }, MANY_MS);
});

describe('per-address limits behind our proxy', () => {
  it('count each client our proxy saw on its own, and an IPv6 client by its /64', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const app = createApp({ database: api.database, mailer: { send: async () => {} }, limits: memoryLimiter(), sessionTtlDays: 30, siteUrl: 'https://arena.test', trustProxy: proxyTrust(PROXIES), eventStreams: { max: 100, perAddress: 2 } });
    const open: Response[] = [];
    const stream = async (client: string) => {
      const response = await app.request(`/api/tournaments/${cup.id}/events`, { headers: { 'x-forwarded-for': `1.2.3.4, ${client}` } }, { clientAddress: PROXY });
      if (response.status === 200) open.push(response);
      else await response.body?.cancel();
      return response.status;
    };
    try {
      const statuses = [];
      for (const client of ['203.0.113.5', '203.0.113.5', '203.0.113.5', '203.0.113.6', '::ffff:203.0.113.6', '203.0.113.6']) statuses.push(await stream(client));
      expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
      const six = [];
      for (const client of ['2001:db8:7:8::1', '2001:db8:7:8:ffff:ffff:ffff:ffff', '2001:db8:7:8::3', '2001:db8:7:9::1']) six.push(await stream(client));
      expect(six).toEqual([200, 200, 429, 200]);
    } finally {
      await Promise.all(open.map((response) => response.body?.cancel()));
    }
  });
});

describe('IPv6 clients are counted by their /64', () => {
  it('registration: the addresses of one /64 share its limit, another /64 has its own', async () => {
    const run = tag();
    const from = (n: number, net = 'aa01') => api.call('POST', '/api/auth/register', { body: newcomer(`six${n}_${net}_${run}`), ip: `2001:db8:${net}:1::${n.toString(16)}` });
    const served = await Promise.all(Array.from({ length: REGISTER_LIMITS.address.max }, (_, i) => from(i + 1)));
    expect(served.filter((answer) => answer.status === 201)).toHaveLength(REGISTER_LIMITS.address.max);
    expect((await from(0xbeef)).status).toBe(429);
    expect((await from(1, 'aa02')).status).toBe(201);
  });

  it('sign-in: failures from addresses of one /64 count against it together', async () => {
    const { user, password } = await api.signedIn();
    const attempt = (ip: string, secret: string) => api.call('POST', '/api/auth/login', { body: { loginOrEmail: user.username, password: secret }, ip });
    for (let n = 1; n <= LOGIN_LIMITS.pair.max; n++) expect((await attempt(`2001:db8:bb:1::${n}`, 'wrong-wrong')).status).toBe(401);
    expect((await attempt('2001:db8:bb:1:9:9:9:9', password)).status).toBe(429);
    expect((await attempt('2001:db8:bb:2::1', password)).status).toBe(200);
  });

  it('letters: asking from addresses of one /64 counts against it together', async () => {
    const run = tag();
    const resend = (n: number, ip: string) => api.call('POST', '/api/auth/resend-confirmation', { body: { email: `nobody${n}_${run}@example.test` }, ip });
    const statuses = [];
    for (let n = 1; n <= LETTER_LIMITS.address.max + 1; n++) statuses.push((await resend(n, `2001:db8:cc:1::${n.toString(16)}`)).status);
    expect(statuses).toEqual([...Array(LETTER_LIMITS.address.max).fill(200), 429]);
    expect((await resend(7, '2001:db8:cc:2::1')).status).toBe(200);
  });
});
