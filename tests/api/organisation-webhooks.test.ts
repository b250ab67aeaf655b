import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StagesState } from '../../src/lib/api/stages.ts';
import type { TournamentSaved } from '../../src/lib/api/tournaments.ts';
import type { WebhookCreated, WebhooksView } from '../../src/lib/api/webhooks.ts';
import { DELIVERY_RETRY_MS, WEBHOOKS_PER_ORGANISATION } from '../../src/lib/domain/organisation-events.ts';
import { endpointDeliveries, organisationEndpoints, tournaments } from '../../src/server/db/schema/index.ts';
import type { DeliveryDeps } from '../../src/server/services/integrations/delivery-types.ts';
import { sendDueDeliveries } from '../../src/server/services/integrations/deliveries.ts';
import { tellClosedRegistrations } from '../../src/server/services/integrations/registration-closed.ts';
import { application, game, organisationWithPeople, player, stage, unique, useTestApi, type BuiltOrganisation } from '../support/builders.ts';
import { webhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/*
 * An organisation's outgoing webhooks (issue 60): its managers register an address and the events
 * it hears; each event is written with its change, posted by the deliveries' sweep signed as
 * Standard Webhooks says (checked here by the specification's own library), retried with back-off,
 * dropped for good on 410, and never sent to this machine or a private network.
 */

const api = useTestApi();
let gameId: string;
let receiver: WebhookReceiver;
let deps: DeliveryDeps;
const loopback = new Agent();

type Org = BuiltOrganisation;
const PUBLIC_HOOK = 'https://hooks.example.com/kiberarena';

const create = (org: Org, body: unknown, token = org.owner.token) =>
  api.call<WebhookCreated & { message: string }>('POST', `/api/organisations/${org.id}/webhooks`, { token, body });

/** A webhook registered through the API, then pointed at the loopback receiver (the API itself refuses loopback). */
async function hookOn(org: Org, events: string[], path = `/${unique('h')}`) {
  const made = await create(org, { url: `${PUBLIC_HOOK}${path}`, events });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  await api.db
    .update(organisationEndpoints)
    .set({ url: receiver.url(path) })
    .where(eq(organisationEndpoints.id, made.body.webhook._id));
  return { ...made.body, path };
}
const publish = async (org: Org, extra: Record<string, unknown> = {}) => {
  const made = await api.call<TournamentSaved>('POST', '/api/tournaments', {
    token: org.owner.token,
    body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: org.id, ...extra },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.tournament;
};
const deliveriesTo = (endpointId: string) => api.db.select().from(endpointDeliveries).where(eq(endpointDeliveries.endpointId, endpointId));
const hooksAt = (path: string) => receiver.received.filter((r) => r.path === path);
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  gameId = await game(api, unique('Гра '));
  receiver = await webhookReceiver();
  deps = { siteUrl: 'https://kiberarena.test', discordApi: 'http://127.0.0.1:9/api', timeoutMs: 500, outbound: { dispatcher: loopback, privateAllowed: true } };
});

afterAll(async () => {
  await receiver.close();
  await loopback.close();
});

describe('registering a webhook', () => {
  it('gives the signing secret once; the list shows the address, events and log but never the secret', async () => {
    const org = await organisationWithPeople(api);
    const made = await create(org, { url: PUBLIC_HOOK, events: ['match.completed', 'tournament.created'] });
    expect(made.status).toBe(201);
    expect(made.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.body.webhook).toMatchObject({ url: PUBLIC_HOOK, events: ['tournament.created', 'match.completed'], broken: false, log: [] });
    const listed = await api.call<WebhooksView>('GET', `/api/organisations/${org.id}/webhooks`, { token: org.admin.token });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('private, no-store');
    expect(listed.body).toEqual({ webhooks: [made.body.webhook], limit: WEBHOOKS_PER_ORGANISATION });
    expect(JSON.stringify(listed.body)).not.toContain(made.body.secret);
  });

  it('is for the owner and admins only; another organisation’s webhook is not found', async () => {
    const [org, other] = [await organisationWithPeople(api), await organisationWithPeople(api)];
    const stranger = await player(api);
    const body = { url: PUBLIC_HOOK, events: ['tournament.created'] };
    expect((await create(org, body, org.staff.token)).status).toBe(403);
    expect((await create(org, body, stranger.token)).status).toBe(403);
    expect((await api.call('POST', `/api/organisations/${org.id}/webhooks`, { body })).status).toBe(401);
    const theirs = await create(other, body);
    const deleted = await api.call<{ message: string }>('DELETE', `/api/organisations/${org.id}/webhooks/${theirs.body.webhook._id}`, {
      token: org.owner.token,
    });
    expect(deleted.status).toBe(404);
    expect(deleted.body.message).toBe('В організації немає такого вебхука');
    expect((await api.call<WebhooksView>('GET', `/api/organisations/${other.id}/webhooks`, { token: other.owner.token })).body.webhooks).toHaveLength(1);
    const own = await api.call<{ message: string }>('DELETE', `/api/organisations/${other.id}/webhooks/${theirs.body.webhook._id}`, {
      token: other.admin.token,
    });
    expect(own.status).toBe(200);
    expect(own.body.message).toBe('Вебхук видалено');
    expect((await api.call<WebhooksView>('GET', `/api/organisations/${other.id}/webhooks`, { token: other.owner.token })).body.webhooks).toEqual([]);
  });

  it('refuses addresses of this machine and private networks, credentials, other schemes and unknown events, writing nothing', async () => {
    const org = await organisationWithPeople(api);
    const cases: [unknown, string][] = [
      [{ url: 'http://127.0.0.1:8080/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://10.0.0.5/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://169.254.169.254/latest/meta-data', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://[::1]/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://[::ffff:192.168.1.1]/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://localhost:4321/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'https://db.internal/hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://intranet/hook', events: ['tournament.created'] }, 'приватну мережу'],
      // The same names fully qualified, with a trailing dot.
      [{ url: 'http://localhost./hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'https://db.internal../hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'http://intranet./hook', events: ['tournament.created'] }, 'приватну мережу'],
      [{ url: 'https://user:pass@hooks.example.com/', events: ['tournament.created'] }, 'пароль'],
      [{ url: 'ftp://hooks.example.com/', events: ['tournament.created'] }, 'http(s)'],
      [{ url: 'https://hooks.example.com/\u0000', events: ['tournament.created'] }, ''],
      [{ url: `https://hooks.example.com/${'a'.repeat(600)}`, events: ['tournament.created'] }, 'задовге'],
      [{ url: PUBLIC_HOOK, events: [] }, 'хоча б одну'],
      [{ url: PUBLIC_HOOK, events: ['tournament.deleted'] }, 'Невідома подія'],
      [{ url: PUBLIC_HOOK, events: 'tournament.created' }, 'неправильний тип'],
      [{ url: 42, events: ['tournament.created'] }, ''],
    ];
    for (const [body, words] of cases) {
      const res = await create(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message, JSON.stringify(body)).toContain(words);
    }
    expect((await api.call<WebhooksView>('GET', `/api/organisations/${org.id}/webhooks`, { token: org.owner.token })).body.webhooks).toEqual([]);
  });

  it('keeps to the organisation’s limit under a burst, and refuses the same address twice', async () => {
    const org = await organisationWithPeople(api);
    const burst = await Promise.all(
      Array.from({ length: WEBHOOKS_PER_ORGANISATION + 3 }, (_, i) => create(org, { url: `${PUBLIC_HOOK}/${i}`, events: ['tournament.created'] })),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(WEBHOOKS_PER_ORGANISATION);
    const refused = burst.filter((r) => r.status !== 201);
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409]);
    expect(refused[0]!.body.message).toContain('вже 5 вебхуків');
    const other = await organisationWithPeople(api);
    expect((await create(other, { url: PUBLIC_HOOK, events: ['tournament.created'] })).status).toBe(201);
    const again = await create(other, { url: PUBLIC_HOOK, events: ['match.ready'] });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Вебхук на цю адресу вже є');
  });
});

describe('delivering', () => {
  it('posts the events a webhook chose, signed as Standard Webhooks says, with the same id on a retry', async () => {
    const org = await organisationWithPeople(api);
    const hook = await hookOn(org, ['tournament.created', 'tournament.finished']);
    const deaf = await hookOn(org, ['match.completed']);
    const cup = await publish(org);
    expect(await deliveriesTo(deaf.webhook._id)).toEqual([]);
    receiver.answer(hook.path, { status: 503 });
    await sendDueDeliveries(api.db, deps);
    await sendDueDeliveries(api.db, deps, later(DELIVERY_RETRY_MS + 1000));
    const posts = hooksAt(hook.path);
    expect(posts).toHaveLength(2);
    const [failed, sent] = posts;
    expect(failed!.headers['webhook-id']).toBe(sent!.headers['webhook-id']);
    const verified = new Webhook(hook.secret).verify(sent!.body, sent!.headers) as {
      type: string;
      timestamp: string;
      data: { tournament: { id: string; title: string; url: string } };
    };
    expect(verified.type).toBe('tournament.created');
    expect(verified.data.tournament).toMatchObject({ id: cup._id, title: cup.title, url: `https://kiberarena.test/tournaments/${cup._id}` });
    expect(sent!.headers['content-type']).toBe('application/json');
    // Another secret, or a body changed on the way, does not verify.
    expect(() => new Webhook(`whsec_${Buffer.alloc(24, 7).toString('base64')}`).verify(sent!.body, sent!.headers)).toThrow();
    expect(() => new Webhook(hook.secret).verify(sent!.body.replace(cup.title, 'Інший'), sent!.headers)).toThrow();
    const [delivery] = await deliveriesTo(hook.webhook._id);
    expect(delivery).toMatchObject({ state: 'sent', attempts: 2, lastStatus: 204 });
    const log = (await api.call<WebhooksView>('GET', `/api/organisations/${org.id}/webhooks`, { token: org.owner.token })).body.webhooks[0]!.log;
    expect(log).toEqual([expect.objectContaining({ event: 'tournament.created', tournament: cup.title, state: 'sent', attempts: 2, lastStatus: 204 })]);
  });

  it('tells each match made ready and each result, with the sides by name and the score', async () => {
    const org = await organisationWithPeople(api);
    const hook = await hookOn(org, ['match.ready', 'match.completed']);
    const cup = await publish(org);
    const players = [await player(api), await player(api), await player(api), await player(api)];
    for (const p of players) await application(api, cup._id, 'approved', p);
    await stage(api, cup._id, { format: 'single_elimination' });
    const [first, second] = (await api.call<StagesState>('GET', `/api/tournaments/${cup._id}/stages`)).body.stages[0]!.matches.filter((m) => m.round === 1);
    for (const m of [first!, second!]) {
      expect((await api.call('PATCH', `/api/matches/${m._id}`, { token: org.owner.token, body: { version: m.version, scoreA: 2, scoreB: 1 } })).status).toBe(
        200,
      );
    }
    const told = (await deliveriesTo(hook.webhook._id)).map((d) => [d.event, d.payload.match?.round]);
    expect(told.sort()).toEqual([
      ['match.completed', 1],
      ['match.completed', 1],
      ['match.ready', 1],
      ['match.ready', 1],
      ['match.ready', 2],
    ]);
    await sendDueDeliveries(api.db, deps);
    const bodies = hooksAt(hook.path).map(
      (r) =>
        new Webhook(hook.secret).verify(r.body, r.headers) as {
          type: string;
          data: { match: { id: string; sides: { id: string; name: string }[]; score?: number[]; winnerId?: string } };
        },
    );
    const completed = bodies.find((b) => b.type === 'match.completed' && b.data.match.id === first!._id)!;
    const names = players.map((p) => p.user.username);
    expect(completed.data.match.score).toEqual([2, 1]);
    expect(completed.data.match.sides.map((s) => s.name).every((n) => names.includes(n))).toBe(true);
    expect(completed.data.match.winnerId).toBe(completed.data.match.sides[0]!.id);
    const final = bodies.find(
      (b) => b.type === 'match.ready' && b.data.match.sides.length === 2 && b.data.match.id !== first!._id && b.data.match.id !== second!._id,
    );
    expect(final?.data.match.sides.map((s) => s.id).sort()).toEqual(
      [completed.data.match.winnerId, bodies.find((b) => b.type === 'match.completed' && b.data.match.id === second!._id)!.data.match.winnerId].sort(),
    );
  });

  it('tells registration closing once, when its time passes, with the number accepted', async () => {
    const org = await organisationWithPeople(api);
    const hook = await hookOn(org, ['registration.closed']);
    const soon = new Date(Date.now() + 60_000);
    const cup = await publish(org, { date: new Date(Date.now() + 3_600_000).toISOString(), registrationClosesAt: soon.toISOString() });
    await application(api, cup._id, 'approved', await player(api));
    await application(api, cup._id, 'pending', await player(api));
    await tellClosedRegistrations(api.db, new Date());
    expect(await deliveriesTo(hook.webhook._id)).toEqual([]);
    const after = new Date(soon.getTime() + 1000);
    await tellClosedRegistrations(api.db, after);
    await tellClosedRegistrations(api.db, new Date(after.getTime() + 30_000));
    const told = await deliveriesTo(hook.webhook._id);
    expect(told.map((d) => [d.event, d.payload.participants])).toEqual([['registration.closed', 1]]);
    // A webhook added after the close does not hear of it.
    const late = await hookOn(org, ['registration.closed']);
    await api.db
      .update(organisationEndpoints)
      .set({ createdAt: new Date(after.getTime() + 5000) })
      .where(eq(organisationEndpoints.id, late.webhook._id));
    await tellClosedRegistrations(api.db, new Date(after.getTime() + 60_000));
    expect(await deliveriesTo(late.webhook._id)).toEqual([]);
  });

  it('waits what a 429 asks, retries a server that hangs, and stops for good on 410 without blocking anything', async () => {
    const org = await organisationWithPeople(api);
    const hook = await hookOn(org, ['tournament.created']);
    receiver.answer(hook.path, { status: 429, headers: { 'retry-after': '600' } });
    const before = Date.now();
    await publish(org);
    await sendDueDeliveries(api.db, deps);
    const [waiting] = await deliveriesTo(hook.webhook._id);
    expect(waiting).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 429 });
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThanOrEqual(before + 600_000);
    receiver.answer(hook.path, 'hang');
    await sendDueDeliveries(api.db, deps, later(601_000));
    expect((await deliveriesTo(hook.webhook._id))[0]).toMatchObject({ state: 'pending', attempts: 2, lastStatus: 0 });
    receiver.answer(hook.path, { status: 410 });
    await sendDueDeliveries(api.db, deps, later(3_600_000));
    expect((await deliveriesTo(hook.webhook._id))[0]).toMatchObject({ state: 'failed', attempts: 3, lastStatus: 410 });
    const listed = (await api.call<WebhooksView>('GET', `/api/organisations/${org.id}/webhooks`, { token: org.owner.token })).body.webhooks[0]!;
    expect(listed.broken).toBe(true);
    // A broken webhook hears nothing more, and the organiser's next tournament is published as ever.
    await publish(org);
    expect(await deliveriesTo(hook.webhook._id)).toHaveLength(1);
  });

  it('does not follow a redirect, and never dials this machine for an address that resolves to it', async () => {
    const org = await organisationWithPeople(api);
    const hook = await hookOn(org, ['tournament.created']);
    receiver.answer(hook.path, { status: 302, headers: { location: receiver.url('/elsewhere') } });
    await publish(org);
    await sendDueDeliveries(api.db, deps);
    expect(hooksAt('/elsewhere')).toEqual([]);
    expect((await deliveriesTo(hook.webhook._id))[0]).toMatchObject({ state: 'pending', lastStatus: 302 });

    // Outside the tests every connection goes through the public-only guard.
    const guarded: DeliveryDeps = { ...deps, outbound: undefined };
    const byName = await hookOn(org, ['tournament.created']);
    await api.db
      .update(organisationEndpoints)
      .set({ url: `http://localhost:${receiver.port}${byName.path}` })
      .where(eq(organisationEndpoints.id, byName.webhook._id));
    const byAddress = await hookOn(org, ['tournament.created']);
    await publish(org);
    await sendDueDeliveries(api.db, guarded);
    expect(hooksAt(byName.path)).toEqual([]);
    expect(hooksAt(byAddress.path)).toEqual([]);
    for (const id of [byName.webhook._id, byAddress.webhook._id]) {
      const [delivery] = await deliveriesTo(id);
      expect(delivery).toMatchObject({ state: 'failed' });
      expect(delivery!.lastError).toMatch(/непублічн/);
    }
  });
});

it('a tournament of an organisation without webhooks costs its creation no delivery rows', async () => {
  const org = await organisationWithPeople(api);
  const cup = await publish(org);
  const rows = await api.db.select().from(endpointDeliveries).innerJoin(tournaments, eq(tournaments.id, cup._id));
  expect(rows.filter((r) => r.endpoint_deliveries.payload.tournament.id === cup._id)).toEqual([]);
});
