import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrationsView } from '../../src/lib/api/integrations.ts';
import type { TournamentSaved } from '../../src/lib/api/tournaments.ts';
import { DELIVERY_ATTEMPTS, DELIVERY_RETRY_MS } from '../../src/lib/domain/organisation-events.ts';
import { endpointDeliveries, organisationEndpoints, organisations, tournaments } from '../../src/server/db/schema/index.ts';
import { announceCheckInOpen } from '../../src/server/services/match-day/registration.ts';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { sendDueDeliveries, type DeliveryDeps } from '../../src/server/services/integrations/deliveries.ts';
import { tellOrganisation } from '../../src/server/services/integrations/events.ts';
import { admin as adminOf, application, game, player, stage, unique, useTestApi, type Player, organisationWithPeople, type BuiltOrganisation } from '../support/builders.ts';
import { discordStandIn, type DiscordStandIn } from '../support/discord-service.ts';

/*
 * An organisation's Discord channel (issue 60): its managers connect a webhook; its new tournaments
 * and champions are written to the outbox with the change and posted to a Discord stand-in on
 * loopback by the deliveries' sweep — retried after a failure or a 429, given up after
 * `DELIVERY_ATTEMPTS`, the endpoint marked broken when Discord says the webhook is gone — and
 * the action that caused them never waits for Discord.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;
let discord: DiscordStandIn;
let deps: DeliveryDeps;

const WEBHOOK = `https://discord.com/api/webhooks/112233445566778899/${'Tk_-9'.repeat(14)}`;

type Org = BuiltOrganisation;
const organisation = () => organisationWithPeople(api, 'Клуб ');

const connect = (org: Org, url = WEBHOOK, token = org.owner.token) =>
  api.call<{ message: string; integrations: IntegrationsView }>('PUT', `/api/organisations/${org.id}/discord`, { token, body: { url } });
const publish = async (org: Org) => {
  const made = await api.call<TournamentSaved>('POST', '/api/tournaments', {
    token: org.owner.token,
    body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: org.id },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.tournament;
};
const deliveriesOf = (org: Org) =>
  api.db
    .select({ delivery: endpointDeliveries })
    .from(endpointDeliveries)
    .innerJoin(organisationEndpoints, eq(organisationEndpoints.id, endpointDeliveries.endpointId))
    .where(eq(organisationEndpoints.organisationId, org.id))
    .then((rows) => rows.map((r) => r.delivery));
/** A clock far enough ahead that every waiting delivery is due. */
const later = (ms: number) => new Date(Date.now() + ms);

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, unique('Гра '));
  discord = await discordStandIn();
  deps = { siteUrl: 'https://kiberarena.test', discordApi: discord.api, timeoutMs: 500 };
});

afterAll(() => discord.close());

describe('connecting Discord', () => {
  it('takes a Discord webhook address from the owner or an admin, shows it cut short, and refuses anything else in Ukrainian', async () => {
    const org = await organisation();
    for (const url of [
      '',
      'https://example.com/api/webhooks/112233445566778899/abc',
      'http://discord.com/api/webhooks/112233445566778899/' + 'a'.repeat(68),
      'https://discord.com.evil.io/api/webhooks/112233445566778899/' + 'a'.repeat(68),
      'https://user:pass@discord.com/api/webhooks/112233445566778899/' + 'a'.repeat(68),
      `${WEBHOOK}?wait=true`,
      `${WEBHOOK}\u0000`,
      'x'.repeat(5000),
    ]) {
      const refused = await connect(org, url);
      expect(refused.status, url.slice(0, 60)).toBe(400);
      const expected = url.includes('\u0000') ? /недопустимі символи/ : url.length > 300 ? /задовге/ : /^Це не адреса вебхука Discord/;
      expect(refused.body.message).toMatch(expected);
    }
    expect((await api.db.select().from(organisationEndpoints).where(eq(organisationEndpoints.organisationId, org.id))).length).toBe(0);

    const saved = await connect(org, WEBHOOK, org.admin.token);
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe('Вебхук Discord збережено: події турнірів організації з’являтимуться в каналі');
    expect(saved.body.integrations.discord).toEqual({ url: 'https://discord.com/api/webhooks/112233445566778899/Tk_-…', broken: false, locale: 'uk' });
    expect(JSON.stringify(saved.body)).not.toContain(WEBHOOK.split('/').at(-1));

    // The staff member organises but does not manage; strangers and guests are not in it.
    expect((await connect(org, WEBHOOK, org.staff.token)).status).toBe(403);
    expect((await connect(org, WEBHOOK, (await player(api)).token)).status).toBe(403);
    expect((await api.call('GET', `/api/organisations/${org.id}/integrations`)).status).toBe(401);
    const read = await api.call<IntegrationsView>('GET', `/api/organisations/${org.id}/integrations`, { token: org.owner.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('private, no-store');

    const removed = await api.call<{ message: string }>('DELETE', `/api/organisations/${org.id}/discord`, { token: org.owner.token });
    expect([removed.status, removed.body.message]).toEqual([200, 'Discord від’єднано']);
    const again = await api.call<{ message: string }>('DELETE', `/api/organisations/${org.id}/discord`, { token: org.owner.token });
    expect([again.status, again.body.message]).toEqual([404, 'Discord цієї організації не під’єднано']);
  });
});

describe('posting to Discord', () => {
  it('posts a new tournament and its champion as embeds, once, after the change committed', async () => {
    const org = await organisation();
    expect((await connect(org)).status).toBe(200);
    const cup = await publish(org);
    const [pending] = await deliveriesOf(org);
    expect(pending).toMatchObject({ event: 'tournament.created', state: 'pending', attempts: 0 });
    discord.posts.length = 0;
    const run = await sendDueDeliveries(api.db, deps);
    expect(run, JSON.stringify(await deliveriesOf(org))).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(discord.posts).toHaveLength(1);
    expect(discord.posts[0]!.path).toBe(`/api/v10/webhooks/112233445566778899/${'Tk_-9'.repeat(14)}`);
    expect(discord.posts[0]!.body.embeds[0]).toMatchObject({ title: `🎮 ${cup.title}`, url: `https://kiberarena.test/tournaments/${cup._id}` });
    // Sent once: a second run finds nothing.
    expect(await sendDueDeliveries(api.db, deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    // The champion: an approved player set as winner, finishing the tournament.
    const champ = await player(api);
    await application(api, cup._id, 'approved', champ);
    expect(
      (
        await api.call('PUT', `/api/tournaments/${cup._id}`, {
          token: org.owner.token,
          body: { title: cup.title, date: cup.date, game: gameId, status: 'started' },
        })
      ).status,
    ).toBe(200);
    const won = await api.call('PATCH', `/api/tournaments/${cup._id}/winner`, {
      token: org.owner.token,
      body: { winnerType: 'user', winnerId: champ.user.id, finish: true },
    });
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    await sendDueDeliveries(api.db, deps);
    expect(discord.posts.at(-1)!.body.embeds[0]!.description).toBe(`Турнір завершено. Чемпіон — ${champ.user.username}!`);
    const log = (await api.call<IntegrationsView>('GET', `/api/organisations/${org.id}/integrations`, { token: org.admin.token })).body.log;
    expect(log.map((d) => [d.event, d.state, d.tournament])).toEqual([
      ['tournament.finished', 'sent', cup.title],
      ['tournament.created', 'sent', cup.title],
    ]);
  });

  it('tries again after a failure, a hang or a 429 (waiting what Discord said), and gives up after the last attempt', async () => {
    const org = await organisation();
    await connect(org);
    await publish(org);
    discord.answer({ status: 500, body: { message: 'oops' } });
    expect(await sendDueDeliveries(api.db, deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    let [delivery] = await deliveriesOf(org);
    expect(delivery).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 500 });
    expect(delivery!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(DELIVERY_RETRY_MS - 5000);
    // Not due yet: nothing happens.
    expect(await sendDueDeliveries(api.db, deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    // A hang times out and waits twice as long; a 429 waits what Discord asked when that is longer.
    discord.answer('hang');
    expect(await sendDueDeliveries(api.db, deps, later(DELIVERY_RETRY_MS + 1000))).toEqual({ sent: 0, retried: 1, failed: 0 });
    [delivery] = await deliveriesOf(org);
    expect(delivery).toMatchObject({ attempts: 2, lastStatus: 0 });
    discord.answer({ status: 429, body: { message: 'You are being rate limited.', retry_after: 600, global: false }, headers: { 'retry-after': '600' } });
    const at = later(5 * DELIVERY_RETRY_MS);
    expect(await sendDueDeliveries(api.db, deps, at)).toEqual({ sent: 0, retried: 1, failed: 0 });
    [delivery] = await deliveriesOf(org);
    expect(delivery).toMatchObject({ attempts: 3, lastStatus: 429 });
    expect(delivery!.nextAttemptAt.getTime() - at.getTime()).toBeGreaterThanOrEqual(590_000);

    // Then it goes through.
    const posted = discord.posts.length;
    expect(await sendDueDeliveries(api.db, deps, later(60 * 60_000))).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(discord.posts.length).toBe(posted + 1);

    // Another that fails every time is given up after the last attempt, and stays in the log.
    await publish(org);
    for (let i = 0; i < DELIVERY_ATTEMPTS; i++) discord.answer({ status: 502 });
    for (let i = 1; i <= DELIVERY_ATTEMPTS; i++) await sendDueDeliveries(api.db, deps, later(i * 24 * 60 * 60_000));
    const failed = (await deliveriesOf(org)).find((d) => d.state !== 'sent');
    expect(failed).toMatchObject({ state: 'failed', attempts: DELIVERY_ATTEMPTS, lastStatus: 502 });
  });

  it('marks the channel broken when Discord says the webhook is gone, queues nothing more, and mends with a new address', async () => {
    const org = await organisation();
    await connect(org);
    await publish(org);
    discord.answer({ status: 404, body: { message: 'Unknown Webhook', code: 10015 } });
    expect(await sendDueDeliveries(api.db, deps)).toEqual({ sent: 0, retried: 0, failed: 1 });
    const view = (await api.call<IntegrationsView>('GET', `/api/organisations/${org.id}/integrations`, { token: org.owner.token })).body;
    expect(view.discord?.broken).toBe(true);
    expect(view.log[0]).toMatchObject({ state: 'failed', lastStatus: 404 });
    await publish(org);
    expect(await deliveriesOf(org)).toHaveLength(1);
    expect((await connect(org, WEBHOOK.replace('112233445566778899', '998877665544332211'))).body.integrations.discord?.broken).toBe(false);
    await publish(org);
    expect((await deliveriesOf(org)).map((d) => d.state)).toEqual(['pending']);
  });

  it('tells nobody of a tournament with no organisation, or of a suspended organisation', async () => {
    const org = await organisation();
    await connect(org);
    const cup = await publish(org);
    const siteCup = await api.call<TournamentSaved>('POST', '/api/tournaments', {
      token: admin.token,
      body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    expect(siteCup.status).toBe(201);
    await tellOrganisation(api.db, siteCup.body.tournament._id, 'tournament.finished');
    expect(await deliveriesOf(org)).toHaveLength(1);
    await api.db.update(organisations).set({ suspendedAt: new Date() }).where(eq(organisations.id, org.id));
    await tellOrganisation(api.db, cup._id, 'tournament.finished');
    expect(await deliveriesOf(org)).toHaveLength(1);
  });

  it('tells of check-in opening once, however often the sweep finds it open, and of each round as its first match is ready', async () => {
    const org = await organisation();
    await connect(org);
    const soon = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const made = await api.call<TournamentSaved>('POST', '/api/tournaments', {
      token: org.owner.token,
      body: {
        title: unique('Кубок '),
        date: soon(2),
        game: gameId,
        soloOnly: true,
        organisation: org.id,
        checkInEnabled: true,
        checkInOpensAt: soon(-1),
        checkInClosesAt: soon(1),
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const cupId = made.body.tournament._id;
    const players = [await player(api), await player(api), await player(api), await player(api)];
    for (const p of players) await application(api, cupId, 'approved', p);
    await announceCheckInOpen(api.db, cupId);
    await announceCheckInOpen(api.db, cupId);
    const events = async () => (await deliveriesOf(org)).filter((d) => d.payload.tournament.id === cupId).map((d) => [d.event, d.payload.round?.number ?? null]);
    expect(await events()).toEqual([
      ['tournament.created', null],
      ['checkIn.opened', null],
    ]);
    await api.db.update(tournaments).set({ checkInEnabled: false }).where(eq(tournaments.id, cupId));

    // A four-player bracket: round 1 starts with the stage, round 2 with its first result… and only once.
    await stage(api, cupId, { format: 'single_elimination' });
    const stagesNow = async () => (await api.call<StagesState>('GET', `/api/tournaments/${cupId}/stages`)).body.stages[0]!;
    const [first, second] = (await stagesNow()).matches.filter((m) => m.round === 1);
    const result = async (match: { _id: string; version: number }) =>
      expect((await api.call('PATCH', `/api/matches/${match._id}`, { token: org.owner.token, body: { version: match.version, scoreA: 2, scoreB: 0 } })).status).toBe(200);
    await result(first!);
    await result(second!);
    expect(await events()).toEqual([
      ['tournament.created', null],
      ['checkIn.opened', null],
      ['round.started', 1],
      ['round.started', 2],
    ]);
    discord.posts.length = 0;
    await sendDueDeliveries(api.db, deps);
    expect(discord.posts.map((p) => p.body.embeds[0]!.description)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Реєстрацію присутності відкрито/), 'Розпочався раунд 1 етапу «Етап 1».', 'Розпочався раунд 2 етапу «Етап 1».']),
    );
  });

  it('tells of a free-for-all stage’s first round of lobbies, and of the next when the round is played', async () => {
    const org = await organisation();
    await connect(org);
    const cup = await publish(org);
    const players = [await player(api), await player(api), await player(api), await player(api), await player(api), await player(api), await player(api), await player(api)];
    for (const p of players) await application(api, cup._id, 'approved', p);
    const created = await stage(api, cup._id, { format: 'free_for_all', settings: { lobbySize: 4, games: 1, advance: 2 } });
    const rounds = async () => (await deliveriesOf(org)).filter((d) => d.event === 'round.started').map((d) => d.payload.round?.number);
    expect(await rounds()).toEqual([1]);
    for (const lobby of created.lobbies) {
      const lines = lobby.members.map((participant, i) => ({ participant, placement: i + 1, kills: 0 }));
      expect((await api.call('PUT', `/api/matches/${lobby._id}/games/1`, { token: org.owner.token, body: { lines } })).status).toBe(200);
    }
    expect((await rounds()).sort()).toEqual([1, 2]);
  });
});
