/**
 * Web push (issue 60), the whole road against a push service stand-in on loopback
 * (tests/support/push-service.ts): a device registered in the cabinet's way, a notice made by an
 * ordinary action, and the encrypted, VAPID-signed push the stand-in receives; a device the service
 * calls gone is dropped; a service that fails, throttles, hangs or is down delays the push, never
 * the action, and loses nothing; the VAPID keys are made once however many instances start at once.
 */
import { ECDH, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifications, pushDeliveries, pushKeys, pushSubscriptions, users } from '../../src/server/db/schema/index.ts';
import { PUSH_ATTEMPTS, PUSH_RETRY_MS } from '../../src/server/push/push-payload.ts';
import { createPushService, generateVapidKeys, type PushService, type VapidKeys } from '../../src/server/push/push-service.ts';
import { vapidKeys } from '../../src/server/services/notices/push-keys.ts';
import { PUSH_MAX_AGE_MS, pushesKicked, sendDuePushes } from '../../src/server/services/notices/push-outbox.ts';
import { DEVICES_PER_USER } from '../../src/server/services/notices/push-subscriptions.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { admin, application, player, tournament, type Player } from '../support/builders.ts';
import { startPushService, type Device, type PushStandIn } from '../support/push-service.ts';

const SUBJECT = 'mailto:ops@arena.test';
let standIn: PushStandIn;
let keys: VapidKeys;
let service: PushService;
let api: TestApi;

beforeAll(async () => {
  standIn = await startPushService();
  keys = await generateVapidKeys();
  service = createPushService({ subject: SUBJECT, keys, agent: standIn.agent, timeoutMs: 1500 });
  // The app sends a request's pushes right after it, as the runtime does.
  api = await createTestApi({ push: service, pushKick: true });
});

afterAll(async () => {
  await api?.close();
  await standIn?.close();
});

/** Registers `device` for `who` as the cabinet does. */
async function subscribe(who: Player, device: Device) {
  return api.call<{ message: string; devices: number }>('POST', '/api/push/subscriptions', { token: who.token, body: device.subscription });
}

/** A player with a device registered on the stand-in. */
async function playerWithDevice(name?: string) {
  const who = await player(api);
  const device = standIn.device(name);
  expect((await subscribe(who, device)).status).toBe(201);
  return { who, device };
}

/** The action whose notice is pushed: the admin approves `who`'s application to a new tournament. */
async function approved(who: Player) {
  const cup = await tournament(api, { soloOnly: true });
  const started = Date.now();
  await application(api, cup.id, 'approved', who);
  return { cup, took: Date.now() - started };
}

const waiting = (subscriptionId?: string) =>
  api.db
    .select()
    .from(pushDeliveries)
    .where(subscriptionId ? eq(pushDeliveries.subscriptionId, subscriptionId) : undefined);

const subscriptionOf = async (device: Device) => (await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, device.subscription.endpoint)))[0];

/** Every push the kicks started has ended, and the outbox holds nothing due now. */
async function settled() {
  await pushesKicked(api.db);
}

describe('the key and the devices', () => {
  it('serves the public key to anyone, and says push is off when the site has none', async () => {
    const key = await api.call('GET', '/api/push/key');
    expect(key.status).toBe(200);
    expect(key.body).toEqual({ enabled: true, publicKey: keys.publicKey });

    const off = await createTestApi({ database: api.database, push: null });
    try {
      expect((await off.call('GET', '/api/push/key')).body).toEqual({ enabled: false });
      const who = await player(off);
      const refused = await off.call('POST', '/api/push/subscriptions', { token: who.token, body: standIn.device().subscription });
      expect(refused.status).toBe(404);
      expect(refused.body).toEqual({ message: 'Сповіщення на пристрої на цьому сайті вимкнено' });
    } finally {
      await off.close();
    }
  });

  it('registers a device once however often it says so, and refuses a guest', async () => {
    const who = await player(api);
    const device = standIn.device();
    expect((await api.call('POST', '/api/push/subscriptions', { body: device.subscription })).status).toBe(401);
    const first = await subscribe(who, device);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ message: 'Сповіщення на цей пристрій увімкнено', devices: 1 });
    const again = await subscribe(who, device);
    expect(again.status).toBe(200);
    expect(again.body.devices).toBe(1);
    expect((await api.call<{ devices: number }>('POST', '/api/push/subscriptions', { token: who.token, body: standIn.device().subscription })).body.devices).toBe(2);
  });

  it('refuses a wrong subscription in Ukrainian with the right status, writing nothing', async () => {
    const who = await player(api);
    const good = standIn.device().subscription;
    const offCurve = Buffer.concat([Buffer.from([4]), randomBytes(64)]).toString('base64url');
    const cases: [unknown, number, string | RegExp][] = [
      [{ ...good, endpoint: good.endpoint.replace('https:', 'http:') }, 400, 'Адреса служби сповіщень має бути https-посиланням без імені й пароля, до 1000 символів'],
      [{ ...good, endpoint: `https://user:secret@127.0.0.1/push/x` }, 400, 'Адреса служби сповіщень має бути https-посиланням без імені й пароля, до 1000 символів'],
      [{ ...good, endpoint: `https://push.example.test/${'x'.repeat(1000)}` }, 400, /^Поле «endpoint» задовге/],
      [{ ...good, endpoint: 'not a url' }, 400, 'Адреса служби сповіщень має бути https-посиланням без імені й пароля, до 1000 символів'],
      [{ ...good, keys: { ...good.keys, auth: 'short' } }, 400, /^Поле «auth» закоротке/],
      [{ ...good, keys: { ...good.keys, p256dh: 'не base64'.padEnd(87, 'x') } }, 400, 'Ключі підписки на сповіщення неправильні: браузер мав дати p256dh (точку P-256) і auth (16 байтів)'],
      [{ ...good, keys: { ...good.keys, p256dh: offCurve } }, 422, 'Ключі підписки на сповіщення неправильні: браузер мав дати p256dh (точку P-256) і auth (16 байтів)'],
      [{ ...good, userId: who.user.id }, 400, ''],
      [{ endpoint: good.endpoint }, 400, ''],
    ];
    const before = (await api.db.select({ n: sql<number>`count(*)::int` }).from(pushSubscriptions))[0]!.n;
    for (const [body, status, message] of cases) {
      const res = await api.call<{ message: string }>('POST', '/api/push/subscriptions', { token: who.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      if (message instanceof RegExp) expect(res.body.message).toMatch(message);
      else if (message) expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(/\p{Script=Cyrillic}/u);
    }
    expect((await api.db.select({ n: sql<number>`count(*)::int` }).from(pushSubscriptions))[0]!.n).toBe(before);
  });

  it('moves an endpoint to whoever registers it last, dropping what waited for the other account', async () => {
    const [first, second] = [await player(api), await player(api)];
    const shared = standIn.device();
    standIn.answer(shared, 'hang');
    expect((await subscribe(first, shared)).status).toBe(201);
    // A push for the first account waits (its service hangs), then the second signs in on the device.
    const row = (await subscriptionOf(shared))!;
    await api.db.insert(notifications).values({ id: '00000000-0000-4000-8000-00000000f001', userId: first.user.id, text: 'для першого' });
    await api.db.insert(pushDeliveries).values({ notificationId: '00000000-0000-4000-8000-00000000f001', subscriptionId: row.id, after: new Date(Date.now() + 60_000) });
    const moved = await subscribe(second, shared);
    expect(moved.status).toBe(200);
    expect((await subscriptionOf(shared))!.userId).toBe(second.user.id);
    expect(await waiting(row.id)).toEqual([]);
    standIn.answer(shared, { status: 201 });
  });

  it('forgets only the caller’s own device, and says so however often it is asked', async () => {
    const [owner, other] = [await player(api), await player(api)];
    const device = standIn.device();
    await subscribe(owner, device);
    const notTheirs = await api.call('DELETE', '/api/push/subscriptions', { token: other.token, body: { endpoint: device.subscription.endpoint } });
    expect(notTheirs.status).toBe(200);
    expect(notTheirs.body).toEqual({ message: 'Сповіщення на цей пристрій вимкнено', removed: false });
    expect(await subscriptionOf(device)).toBeDefined();
    const gone = await api.call('DELETE', '/api/push/subscriptions', { token: owner.token, body: { endpoint: device.subscription.endpoint } });
    expect(gone.body).toEqual({ message: 'Сповіщення на цей пристрій вимкнено', removed: true });
    expect(await subscriptionOf(device)).toBeUndefined();
    expect((await api.call('DELETE', '/api/push/subscriptions', { token: owner.token, body: { endpoint: device.subscription.endpoint } })).body).toMatchObject({ removed: false });
  });

  it(`keeps a user's ${DEVICES_PER_USER} newest devices, dropping the one not seen longest`, async () => {
    const who = await player(api);
    const devices = Array.from({ length: DEVICES_PER_USER + 1 }, () => standIn.device());
    for (const device of devices) {
      await subscribe(who, device);
      // seen_at must differ between devices, as real visits do.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(await subscriptionOf(devices[0]!)).toBeUndefined();
    expect(await subscriptionOf(devices[1]!)).toBeDefined();
    const [{ n }] = (await api.db.select({ n: sql<number>`count(*)::int` }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, who.user.id))) as [{ n: number }];
    expect(n).toBe(DEVICES_PER_USER);
  });
});

describe('a notice reaches every device', () => {
  it('as an encrypted push signed with the site’s VAPID key, right after the action, in the reader’s language', async () => {
    const { who, device } = await playerWithDevice();
    const second = standIn.device();
    await subscribe(who, second);
    const { cup } = await approved(who);
    await settled();
    const [push] = standIn.pushesTo(device);
    expect(standIn.pushesTo(device)).toHaveLength(1);
    expect(standIn.pushesTo(second)).toHaveLength(1);
    expect(push!.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(push!.headers.ttl)).toBeGreaterThan(23 * 3600);
    const { claims, publicKey } = await standIn.vapid(push!);
    expect(publicKey).toBe(keys.publicKey);
    expect(claims).toMatchObject({ aud: standIn.origin, sub: SUBJECT });
    expect(claims.exp! * 1000).toBeGreaterThan(Date.now());
    const [notice] = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, who.user.id), eq(notifications.kind, 'applicationApproved')));
    expect(standIn.read(push!, device)).toEqual({
      title: `Заявку на «${cup.title}» схвалено`,
      body: `Вашу заявку на турнір «${cup.title}» схвалено.`,
      url: `/tournaments/${cup.id}`,
      tag: notice!.id,
      lang: 'uk',
    });
    // Its topic is the notice: a push service keeps one undelivered copy of it.
    expect(push!.headers.topic).toBe(Buffer.from(notice!.id.replace(/-/g, ''), 'hex').toString('base64url'));
    expect(await waiting()).toEqual([]);

    await api.db.update(users).set({ locale: 'en' }).where(eq(users.id, who.user.id));
    const english = await approved(who);
    await settled();
    expect(standIn.read(standIn.pushesTo(device)[1]!, device)).toMatchObject({ title: `Your application to “${english.cup.title}” was approved`, lang: 'en' });
  });

  it('carries a notification without a kind (a team invite) with the site’s name as its title', async () => {
    const { who, device } = await playerWithDevice();
    const captain = await player(api);
    const made = await api.call<{ team: { _id: string } }>('POST', '/api/teams', { token: captain.token, body: { name: `Пуш ${device.name.slice(0, 6)}` } });
    expect(made.status).toBe(201);
    expect((await api.call('POST', `/api/teams/${made.body.team._id}/invite`, { token: captain.token, body: { query: who.user.username } })).status).toBe(201);
    await settled();
    const [push] = standIn.pushesTo(device);
    expect(standIn.read(push!, device)).toMatchObject({ title: 'Кіберарена', body: `Капітан команди «Пуш ${device.name.slice(0, 6)}» запрошує вас приєднатися до команди.`, url: '/' });
  });

  it('follows the reader’s push switch for the kind, and pushes a notice the bell and the letter were turned off for', async () => {
    const quiet = await playerWithDevice();
    await api.call('PUT', '/api/users/me/notice-settings', { token: quiet.who.token, body: { push: ['applicationApproved'] } });
    expect((await api.call('GET', '/api/users/me/notice-settings', { token: quiet.who.token })).body).toMatchObject({ push: ['applicationApproved'] });
    await approved(quiet.who);
    await settled();
    expect(standIn.pushesTo(quiet.device)).toEqual([]);

    const deviceOnly = await playerWithDevice();
    await api.call('PUT', '/api/users/me/notice-settings', { token: deviceOnly.who.token, body: { bell: ['applicationApproved'], email: ['applicationApproved'] } });
    await approved(deviceOnly.who);
    await settled();
    expect(standIn.pushesTo(deviceOnly.device)).toHaveLength(1);
    expect((await api.call<unknown[]>('GET', '/api/users/me/notifications', { token: deviceOnly.who.token })).body).toEqual([]);
  });
});

describe('when the push service says no, or nothing', () => {
  for (const status of [404, 410]) {
    it(`drops a device its service calls gone (${status}), and what waited for it`, async () => {
      const { who, device } = await playerWithDevice();
      standIn.answer(device, { status });
      await approved(who);
      await settled();
      expect(standIn.pushesTo(device)).toHaveLength(1);
      expect(await subscriptionOf(device)).toBeUndefined();
      await approved(who);
      await settled();
      expect(standIn.pushesTo(device)).toHaveLength(1);
    });
  }

  it('tries again after a 500, with a doubling wait, and delivers once the service is back', async () => {
    const { who, device } = await playerWithDevice();
    standIn.answer(device, { status: 500 }, { status: 500 }, { status: 201 });
    await approved(who);
    await settled();
    const sub = (await subscriptionOf(device))!;
    const [first] = await waiting(sub.id);
    expect(first).toMatchObject({ attempts: 1 });
    expect(first!.after!.getTime() - Date.now()).toBeGreaterThan(PUSH_RETRY_MS - 2000);
    expect(first!.after!.getTime() - Date.now()).toBeLessThanOrEqual(PUSH_RETRY_MS + 100);
    // Not before its time.
    await sendDuePushes(api.db, service);
    expect(standIn.pushesTo(device)).toHaveLength(1);
    await sendDuePushes(api.db, service, new Date(Date.now() + PUSH_RETRY_MS + 1000));
    expect(standIn.pushesTo(device)).toHaveLength(2);
    const [second] = await waiting(sub.id);
    expect(second).toMatchObject({ attempts: 2 });
    expect(second!.after!.getTime() - Date.now()).toBeGreaterThan(PUSH_RETRY_MS * 3 - 2000);
    await sendDuePushes(api.db, service, new Date(Date.now() + PUSH_RETRY_MS * 4));
    expect(standIn.pushesTo(device)).toHaveLength(3);
    expect(await waiting(sub.id)).toEqual([]);
  });

  it('waits as long as a 429 asks, sending the same service nothing more in that run, and delivers every push after', async () => {
    const who = await player(api);
    const devices = Array.from({ length: 6 }, () => standIn.device());
    for (const device of devices) {
      await subscribe(who, device);
      standIn.answer(device, { status: 429, retryAfter: '120' });
    }
    // Queued by an instance that does not kick, so this test's own run meets the 429s.
    const quiet = await createTestApi({ database: api.database, push: service });
    try {
      const cup = await tournament(quiet, { soloOnly: true });
      await application(quiet, cup.id, 'approved', who);
    } finally {
      await quiet.close();
    }
    const ids = new Set((await api.db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, who.user.id))).map((r) => r.id));
    const mine = async () => (await waiting()).filter((row) => ids.has(row.subscriptionId));
    await sendDuePushes(api.db, service);
    // Four went at once (one service's share); the 429s kept the other two from being tried at all.
    expect(standIn.received.filter((r) => devices.some((d) => d.name === r.device))).toHaveLength(4);
    const held = await mine();
    expect(held).toHaveLength(6);
    for (const row of held) expect(row.after!.getTime() - Date.now()).toBeGreaterThan(110_000);
    expect(held.map((row) => row.attempts).sort()).toEqual([0, 0, 1, 1, 1, 1]);
    for (const device of devices) standIn.answer(device, { status: 201 });
    await sendDuePushes(api.db, service, new Date(Date.now() + 60_000));
    expect(await mine()).toHaveLength(6);
    await sendDuePushes(api.db, service, new Date(Date.now() + 125_000));
    expect(await mine()).toEqual([]);
    for (const device of devices) expect(standIn.read(standIn.pushesTo(device).at(-1)!, device)).toMatchObject({ lang: 'uk' });
    expect(standIn.received.filter((r) => devices.some((d) => d.name === r.device))).toHaveLength(10);
  });

  it('never keeps the action waiting for a service that hangs; the push is tried again once it timed out', async () => {
    const slowService = createPushService({ subject: SUBJECT, keys, agent: standIn.agent, timeoutMs: 4000 });
    const slowApi = await createTestApi({ database: api.database, push: slowService, pushKick: true });
    try {
      const who = await player(slowApi);
      const device = standIn.device();
      await slowApi.call('POST', '/api/push/subscriptions', { token: who.token, body: device.subscription });
      standIn.answer(device, 'hang', { status: 201 });
      const cup = await tournament(slowApi, { soloOnly: true });
      const started = Date.now();
      await application(slowApi, cup.id, 'approved', who);
      const took = Date.now() - started;
      // The approval answered while its push still hangs.
      await expect.poll(() => standIn.pushesTo(device).length, { timeout: 3000 }).toBe(1);
      expect(took).toBeLessThan(3000);
      await pushesKicked(slowApi.db);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
      const sub = (await subscriptionOf(device))!;
      expect(await waiting(sub.id)).toMatchObject([{ attempts: 1 }]);
      await sendDuePushes(api.db, slowService, new Date(Date.now() + PUSH_RETRY_MS + 1000));
      expect(standIn.pushesTo(device)).toHaveLength(2);
      expect(await waiting(sub.id)).toEqual([]);
    } finally {
      await slowApi.close();
    }
  }, 20_000);

  it('sends through a slow service that answers within its time', async () => {
    const { who, device } = await playerWithDevice();
    standIn.answer(device, { status: 201, delayMs: 500 });
    await approved(who);
    await settled();
    expect(standIn.pushesTo(device)).toHaveLength(1);
    expect(await waiting((await subscriptionOf(device))!.id)).toEqual([]);
  });

  it('keeps the push of a service that is down, and gives it up after its tries; the bell keeps the notice', async () => {
    const who = await player(api);
    // A port nothing listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const device = standIn.device();
    const down = { ...device.subscription, endpoint: `https://127.0.0.1:${port}/push/${device.name}` };
    expect((await api.call('POST', '/api/push/subscriptions', { token: who.token, body: down })).status).toBe(201);
    const { took } = await approved(who);
    expect(took).toBeLessThan(5000);
    await settled();
    const sub = (await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, down.endpoint)))[0]!;
    expect(await waiting(sub.id)).toMatchObject([{ attempts: 1 }]);
    for (let attempt = 2; attempt <= PUSH_ATTEMPTS; attempt++) await sendDuePushes(api.db, service, new Date(Date.now() + 10 * 60_000 * attempt));
    expect(await waiting(sub.id)).toEqual([]);
    // The device stays: a service that was down is not a device that is gone.
    expect((await api.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id))).length).toBe(1);
    expect((await api.call<{ kind: string }[]>('GET', '/api/users/me/notifications', { token: who.token })).body.map((n) => n.kind)).toContain('applicationApproved');
    await api.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
  });

  it('drops a push left waiting a day unsent, and one whose notice was deleted', async () => {
    const { who, device } = await playerWithDevice();
    standIn.answer(device, { status: 500 });
    await approved(who);
    await settled();
    const sub = (await subscriptionOf(device))!;
    expect(await waiting(sub.id)).toHaveLength(1);
    const run = await sendDuePushes(api.db, service, new Date(Date.now() + PUSH_MAX_AGE_MS + 60_000));
    expect(run.failed).toBeGreaterThanOrEqual(1);
    expect(await waiting(sub.id)).toEqual([]);
    expect(standIn.pushesTo(device)).toHaveLength(1);

    await approved(who);
    await settled();
    const [row] = await waiting(sub.id);
    await api.db.delete(notifications).where(eq(notifications.id, row!.notificationId));
    expect(await waiting(sub.id)).toEqual([]);
    standIn.answer(device, { status: 201 });
  });
});

describe('the outbox across instances', () => {
  it('sends each push exactly once when two senders run at once', async () => {
    const quiet = await createTestApi({ database: api.database, push: service });
    const devices: { who: Player; device: Device }[] = [];
    try {
      for (let i = 0; i < 6; i++) {
        const who = await player(quiet);
        const device = standIn.device();
        await quiet.call('POST', '/api/push/subscriptions', { token: who.token, body: device.subscription });
        devices.push({ who, device });
      }
      const cup = await tournament(quiet, { soloOnly: true });
      for (const { who } of devices) await application(quiet, cup.id, 'approved', who);
    } finally {
      await quiet.close();
    }
    const runs = await Promise.all([sendDuePushes(api.db, service), sendDuePushes(api.db, service)]);
    expect(runs[0]!.sent + runs[1]!.sent).toBeGreaterThanOrEqual(6);
    for (const { device } of devices) expect(standIn.pushesTo(device)).toHaveLength(1);
  });

  it('makes the VAPID keys once, however many instances start at once, and keeps them', async () => {
    await api.db.delete(pushKeys);
    const started = await Promise.all([vapidKeys(api.db), vapidKeys(api.db), vapidKeys(api.db)]);
    expect(new Set(started.map((k) => k.publicKey)).size).toBe(1);
    expect(started[0]!.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(await api.db.select().from(pushKeys)).toHaveLength(1);
    expect(await vapidKeys(api.db)).toEqual(started[0]);
    // A pair any device can be pushed with: web-push signs with it.
    const point = Buffer.from(started[0]!.publicKey, 'base64url');
    expect(() => ECDH.convertKey(point, 'prime256v1')).not.toThrow();
  });

  it('never dials a private address outside tests: a device whose endpoint is one is dropped, unsent', async () => {
    const guarded = createPushService({ subject: SUBJECT, keys });
    const device = standIn.device();
    const literal = await guarded.send(device.subscription, { payload: '{}', ttlSeconds: 60 });
    expect(literal.kind).toBe('gone');
    const named = await guarded.send({ ...device.subscription, endpoint: device.subscription.endpoint.replace('127.0.0.1', 'localhost') }, { payload: '{}', ttlSeconds: 60 });
    expect(named).toMatchObject({ kind: 'gone' });
    expect(standIn.pushesTo(device)).toEqual([]);
  });
});

describe('the admin is not needed for any of it', () => {
  it('registers devices for the admin as for anyone', async () => {
    const boss = await admin(api);
    expect((await subscribe(boss, standIn.device())).status).toBe(201);
  });
});
