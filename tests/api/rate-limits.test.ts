import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimits } from '../../src/server/db/schema/index.ts';
import { LOGIN_LIMITS } from '../../src/server/services/accounts/login-attempts.ts';
import { databaseLimiter, memoryLimiter, withinLimits, type Limit, type RateLimiter } from '../../src/server/services/rate-limit.ts';
import { redisLimiter } from '../../src/server/services/rate-limit-redis.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/*
 * Attempt counters behave the same in the database and in Redis (REDIS_URL), and are shared by
 * every app instance. Redis runs when TEST_REDIS_URL is set (CI sets it).
 */
const redisUrl = process.env.TEST_REDIS_URL;
let api: TestApi;

beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

/** Keys of their own, as the PGlite and PostgreSQL runs of this file share one Redis. */
const fresh = () => `test:${randomUUID()}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The stores every instance shares. */
const shared: [string, () => Promise<RateLimiter>][] = [
  ['database', async () => databaseLimiter(api.db)],
  ...(redisUrl ? [['Redis', () => redisLimiter(redisUrl)] as [string, () => Promise<RateLimiter>]] : []),
];
/** And the counters of the one process an embedded database has. */
const backends: [string, () => Promise<RateLimiter>][] = [...shared, ['memory', async () => memoryLimiter()]];

describe.each(backends)('rate limiter on %s', (_name, make) => {
  let limits: RateLimiter;
  beforeAll(async () => {
    limits = await make();
  });
  afterAll(async () => {
    await limits.close();
  });

  it('allows `max` attempts in a window, then refuses with the seconds left', async () => {
    const key = fresh();
    const limit: Limit = { max: 3, windowSeconds: 60 };
    for (let i = 0; i < 3; i++) expect((await limits.hit(key, limit)).allowed, `attempt ${i + 1}`).toBe(true);
    const refused = await limits.hit(key, limit);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBeGreaterThan(55);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
  });

  it('takes an attempt back (never below zero), and forgets a counter on reset', async () => {
    const key = fresh();
    const limit: Limit = { max: 2, windowSeconds: 60 };
    expect((await limits.hit(key, limit)).count).toBe(1);
    expect((await limits.hit(key, limit)).count).toBe(2);
    await limits.undo(key);
    expect(await limits.hit(key, limit)).toMatchObject({ allowed: true, count: 2 });
    expect(await limits.hit(key, limit)).toMatchObject({ allowed: false, count: 3 });
    await limits.reset(key);
    await limits.undo(key);
    await limits.undo(key);
    expect(await limits.hit(key, limit)).toMatchObject({ allowed: true, count: 1 });
  });

  it('counts parallel takings-back one by one', async () => {
    const key = fresh();
    const limit: Limit = { max: 100, windowSeconds: 60 };
    await Promise.all(Array.from({ length: 30 }, () => limits.hit(key, limit)));
    await Promise.all(Array.from({ length: 20 }, () => limits.undo(key)));
    expect((await limits.hit(key, limit)).count).toBe(11);
  });

  it('counts against several limits in turn, and a refused attempt counts in none of them (withinLimits)', async () => {
    const [shared, own, spare] = [fresh(), fresh(), fresh()];
    const wide: Limit = { max: 10, windowSeconds: 60 };
    const narrow: Limit = { max: 2, windowSeconds: 60 };
    const verdicts = await Promise.all(Array.from({ length: 6 }, () => withinLimits(limits, [[shared, wide], [own, narrow]])));
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(2);
    expect(verdicts.find((v) => !v.allowed)).toMatchObject({ allowed: false, refusedBy: own, retryAfter: expect.any(Number) });
    // The four refused took their counts back from both keys.
    expect((await limits.hit(shared, wide)).count).toBe(3);
    expect((await limits.hit(own, narrow)).count).toBe(3);
    // A key after the one that refused is not counted at all.
    for (let i = 0; i < 8; i++) await limits.hit(shared, wide);
    expect(await withinLimits(limits, [[shared, wide], [spare, narrow]])).toMatchObject({ allowed: false, refusedBy: shared });
    expect((await limits.hit(spare, narrow)).count).toBe(1);
  });

  it('opens a new window when the old one has passed', async () => {
    const key = fresh();
    const limit: Limit = { max: 1, windowSeconds: 1 };
    expect((await limits.hit(key, limit)).allowed).toBe(true);
    expect((await limits.hit(key, limit)).allowed).toBe(false);
    await sleep(1100);
    expect((await limits.hit(key, limit)).allowed).toBe(true);
  });

  it('lets exactly `max` of many simultaneous attempts through', async () => {
    const key = fresh();
    const limit: Limit = { max: 10, windowSeconds: 60 };
    const states = await Promise.all(Array.from({ length: 40 }, () => limits.hit(key, limit)));
    expect(states.filter((s) => s.allowed)).toHaveLength(10);
  });
});

describe('rate limiter in the database', () => {
  it('never asks to wait longer than the window, even when a parallel attempt opened it with a later clock', async () => {
    // 20 parallel attempts each read the clock, then write: one read later may open the window first.
    const key = fresh();
    const limit: Limit = { max: 1, windowSeconds: 900 };
    await api.db.insert(rateLimits).values({ key, windowStart: new Date(Date.now() + 1500), count: 1 });
    const state = await databaseLimiter(api.db).hit(key, limit);
    expect(state.allowed).toBe(false);
    expect(state.retryAfter).toBe(900);
  });
});

describe('rate limiter in memory', () => {
  it('holds at most its number of keys, letting go of the one hit longest ago', async () => {
    const limits = memoryLimiter(3);
    const limit: Limit = { max: 1, windowSeconds: 60 };
    for (const key of ['a', 'b', 'c']) await limits.hit(key, limit);
    // `a` is hit again (refused): the most recent now, so `b` goes when `d` comes.
    expect((await limits.hit('a', limit)).allowed).toBe(false);
    await limits.hit('d', limit);
    expect((await limits.hit('b', limit)).allowed, 'b was let go').toBe(true);
    expect((await limits.hit('a', limit)).allowed, 'a stays counted').toBe(false);
  });
});

describe.each(shared)('failed logins limited on %s across two app instances', (_name, make) => {
  let second: TestApi;
  let first: TestApi;
  beforeAll(async () => {
    // Two instances on one database, each with its own connection to the counters.
    first = await createTestApi({ database: api.database, limits: await make() });
    second = await createTestApi({ database: api.database, limits: await make() });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  /** An address of its own for each test: the PGlite and PostgreSQL runs of this file share one Redis. */
  const freshAddress = () => `198.51.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}:${randomUUID().slice(0, 8)}`;
  const wrongLogin = (via: TestApi, loginOrEmail: string, ip: string) => via.call('POST', '/api/auth/login', { body: { loginOrEmail, password: 'not-the-password' }, ip });
  const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort().join(',');

  it('counts attempts made through either, and refuses on both with 429 and Retry-After', async () => {
    const ip = freshAddress();
    const player = await first.signedIn();
    for (let i = 0; i < LOGIN_LIMITS.pair.max; i++) expect((await wrongLogin(i % 2 === 0 ? first : second, player.user.username, ip)).status).toBe(401);
    // The pair's counter is full on both instances, even for the right password.
    for (const via of [first, second]) {
      const blocked = await via.call('POST', '/api/auth/login', { body: { loginOrEmail: player.user.username, password: player.password }, ip });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toMatch(/Спробуйте знову через \d+ хвилин/);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('checks exactly 10 of 40 parallel wrong passwords for one account from one address, through both instances', async () => {
    const ip = freshAddress();
    const player = await first.signedIn();
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => wrongLogin(i % 2 === 0 ? first : second, player.user.username, ip)));
    // 401 is a password check that failed; 429 was refused before any check.
    expect(statuses(results)).toBe([...Array(10).fill(401), ...Array(30).fill(429)].join(','));
  });

  it('checks exactly 100 of 120 parallel wrong passwords from one address across accounts', async () => {
    const ip = freshAddress();
    const results = await Promise.all(Array.from({ length: 120 }, (_, i) => wrongLogin(i % 2 === 0 ? first : second, `nobody_${randomUUID()}`, ip)));
    expect(statuses(results)).toBe([...Array(LOGIN_LIMITS.address.max).fill(401), ...Array(20).fill(429)].join(','));
  });
});

describe.runIf(redisUrl)('with Redis unreachable', () => {
  let proxy: TcpProxy;
  let viaProxy: TestApi;
  beforeAll(async () => {
    const target = new URL(redisUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    viaProxy = await createTestApi({ database: api.database, limits: await redisLimiter(`redis://127.0.0.1:${proxy.port}`) });
  });
  afterAll(async () => {
    await viaProxy.close();
    await proxy.close();
  });

  it('refuses limited actions with 503 at once instead of letting them through unlimited, and recovers', async () => {
    const player = await viaProxy.signedIn();
    const body = { loginOrEmail: player.user.username, password: 'wrong-password' };
    proxy.set('down');
    const started = Date.now();
    const refused = await viaProxy.call('POST', '/api/auth/login', { body });
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({ message: 'Сервіс тимчасово недоступний. Спробуйте пізніше.' });
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(1000);
    proxy.set('up');
    await expect.poll(async () => (await viaProxy.call('POST', '/api/auth/login', { body })).status, { timeout: 10_000 }).toBe(401);
  });
});
