import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servingServer } from '../../scripts/serve.ts';
import { createApp } from '../../src/server/api/app.ts';
import { streamListener, streamPaths } from '../../src/server/api/on-node.ts';
import type { Deps } from '../../src/server/api/context.ts';
import { openDatabase, type DatabaseHandle } from '../../src/server/db/client.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import {
  closeStreams,
  connectLive,
  isRecentChange,
  LIVE_CHANNEL,
  onTeamChat,
  publishTournament,
  receive,
  signalUsers,
  subscribeTournament,
} from '../../src/server/services/live/live.ts';
import { redisLink } from '../../src/server/services/live/live-redis.ts';
import { NO_PROXY } from '../../src/server/transport.ts';
import { collectChanges, type DataTag, onChanges, tournamentData } from '../../src/server/services/live/changes.ts';
import { admin, application, invitedTeam, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/**
 * Live pages (issue 22): the event streams of a tournament and of the signed-in user, their caps,
 * their end, and the links that carry events between instances (PostgreSQL NOTIFY, Redis pub/sub).
 */
const api = useTestApi();
let boss: Player;
let disconnect: () => Promise<void>;

beforeAll(async () => {
  boss = await admin(api);
  // The database listener: stored notices signal their readers through it.
  disconnect = await connectLive({ database: api.database });
});
afterAll(async () => {
  await disconnect();
});

/** An open event stream, read as it arrives. */
interface Stream {
  status: number;
  headers: Headers;
  /** Waits for the next event named `name`; its data. */
  next(name: string): Promise<Record<string, unknown>>;
  /** Everything read so far. */
  text(): string;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): Promise<void>;
}

async function open(path: string, options: { token?: string; ip?: string; app?: ReturnType<typeof createApp> } = {}): Promise<Stream> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const response = await (options.app ?? api.app).request(path, { headers }, { clientAddress: options.ip ?? '203.0.113.9' });
  let buffer = '';
  let consumed = 0;
  const waiters = new Set<() => void>();
  const streaming = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const reader = streaming ? response.body?.getReader() : undefined;
  const decoder = new TextDecoder();
  const ended = (async () => {
    if (!reader) {
      buffer = await response.text();
      return;
    }
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      for (const wake of waiters) wake();
    }
  })();
  const next = (name: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const look = () => {
        const blocks = buffer.slice(consumed).split('\n\n');
        let offset = consumed;
        for (const block of blocks.slice(0, -1)) {
          offset += block.length + 2;
          if (block.split('\n').includes(`event: ${name}`)) {
            consumed = offset;
            waiters.delete(look);
            clearTimeout(timer);
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            resolve(JSON.parse(data?.slice(6) ?? '{}') as Record<string, unknown>);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(look);
        reject(new Error(`no «${name}» event within 3 s; read: ${buffer}`));
      }, 3000);
      waiters.add(look);
      look();
    });
  return {
    status: response.status,
    headers: response.headers,
    next,
    text: () => buffer,
    ended,
    close: async () => {
      await reader?.cancel().catch(() => {});
      await ended;
    },
  };
}

/** A single-elimination stage of four approved players; its first ready match. */
async function readyMatch() {
  const cup = await tournament(api, { soloOnly: true, approved: 4 });
  const made = await stage(api, cup.id, { format: 'single_elimination' });
  const match = made.matches.find((m) => m.status === 'ready')!;
  return { cup, match };
}

describe('GET /api/tournaments/{id}/events', () => {
  it('opens an event stream that no cache keeps and no proxy buffers, and says when to reconnect', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const stream = await open(`/api/tournaments/${cup.id}/events`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    // The ETag digest would read a body that never ends.
    expect(stream.headers.get('etag')).toBeNull();
    await stream.next('ready');
    expect(stream.text()).toMatch(/^retry: 3000$/m);
    expect(stream.text()).toMatch(/^id: \d+$/m);
    await stream.close();
  });

  it('tells the viewer of a bracket that a result was saved, naming the match', async () => {
    const { cup, match } = await readyMatch();
    const stream = await open(`/api/tournaments/${cup.id}/events`);
    await stream.next('ready');
    const saved = await api.call('PATCH', `/api/matches/${match._id}`, { token: boss.token, body: { version: match.version, scoreA: 1, scoreB: 0 } });
    expect(saved.status).toBe(200);
    // Ids, the version and the event's change (what the page reads after it is named by it); whether
    // the result counted in the statistics is for the instances, not the pages.
    expect(await stream.next('match')).toEqual({ tournamentId: cup.id, kind: 'match', matchId: match._id, version: expect.any(Number), change: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await stream.close();
  });

  it('tells of an application and of a new stage, and nothing of other tournaments', async () => {
    const cup = await tournament(api, { soloOnly: true, approved: 2 });
    const other = await tournament(api, { soloOnly: true });
    const stream = await open(`/api/tournaments/${cup.id}/events`);
    await stream.next('ready');
    await application(api, other.id);
    await application(api, cup.id);
    expect(await stream.next('application')).toMatchObject({ tournamentId: cup.id });
    await stage(api, cup.id, { format: 'single_elimination' });
    expect(await stream.next('stage')).toMatchObject({ tournamentId: cup.id });
    expect(stream.text()).not.toContain(other.id);
    await stream.close();
  });

  it('tells of a player’s report, a dispute and a confirmation sent through their routes, naming the match', async () => {
    const [first, second] = [await player(api), await player(api)];
    const cup = await tournament(api, { soloOnly: true, approved: [first, second] });
    const made = await stage(api, cup.id, { format: 'single_elimination' });
    const match = made.matches.find((m) => m.status === 'ready')!;
    const [sideA, sideB] = match.a === first.user.id ? [first, second] : [second, first];
    const stream = await open(`/api/tournaments/${cup.id}/events`);
    await stream.next('ready');
    const reported = await api.call('POST', `/api/matches/${match._id}/report`, { token: sideA.token, body: { scoreA: 1, scoreB: 0 } });
    expect(reported.status).toBe(200);
    // The version told is the one the stages now show: a viewer holding it reads nothing again.
    const stagesVersion = async () => (await api.call<{ version: number }>('GET', `/api/tournaments/${cup.id}/stages`)).body.version;
    expect(await stream.next('report')).toMatchObject({ tournamentId: cup.id, kind: 'report', matchId: match._id, version: await stagesVersion() });
    const disputed = await api.call('POST', `/api/matches/${match._id}/dispute`, { token: sideB.token, body: { reason: 'Було 0:1' } });
    expect(disputed.status).toBe(200);
    expect(await stream.next('report')).toMatchObject({ tournamentId: cup.id, matchId: match._id, version: await stagesVersion() });
    await stream.close();

    // Another match: its report confirmed by the other side is a result, told as one.
    const [third, fourth] = [await player(api), await player(api)];
    const next = await tournament(api, { soloOnly: true, approved: [third, fourth] });
    const final = (await stage(api, next.id, { format: 'single_elimination' })).matches[0]!;
    const [reporter, confirmer] = final.a === third.user.id ? [third, fourth] : [fourth, third];
    const watching = await open(`/api/tournaments/${next.id}/events`);
    await watching.next('ready');
    await api.call('POST', `/api/matches/${final._id}/report`, { token: reporter.token, body: { scoreA: 0, scoreB: 1 } });
    await watching.next('report');
    const confirmed = await api.call('POST', `/api/matches/${final._id}/confirm`, { token: confirmer.token });
    expect(confirmed.status).toBe(200);
    expect(await watching.next('match')).toMatchObject({ tournamentId: next.id, kind: 'match', matchId: final._id });
    await watching.close();
  });

  it('tells of a check-in and of its undoing sent through the route', async () => {
    const me = await player(api);
    const hour = 3_600_000;
    const at = (hours: number) => new Date(Date.now() + hours * hour).toISOString();
    const cup = await tournament(api, {
      soloOnly: true,
      approved: [me],
      date: at(2),
      settings: { checkInEnabled: true, checkInOpensAt: at(-1), checkInClosesAt: at(1) },
    });
    const stream = await open(`/api/tournaments/${cup.id}/events`);
    await stream.next('ready');
    expect((await api.call('POST', `/api/tournaments/${cup.id}/check-in`, { token: me.token })).status).toBe(200);
    expect(await stream.next('checkIn')).toMatchObject({ tournamentId: cup.id, kind: 'checkIn' });
    expect((await api.call('DELETE', `/api/tournaments/${cup.id}/check-in`, { token: me.token })).status).toBe(200);
    expect(await stream.next('checkIn')).toMatchObject({ tournamentId: cup.id, kind: 'checkIn' });
    await stream.close();
  });

  it('answers 404 for an unknown tournament and 400 for an id that is not one, in Ukrainian', async () => {
    const missing = await api.call('GET', '/api/tournaments/00000000-0000-4000-8000-000000000000/events');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Турнір не знайдено' });
    expect((await api.call('GET', '/api/tournaments/not-an-id/events')).status).toBe(400);
  });

  it('ends cleanly when the viewer leaves, giving its place back, and when the server shuts down', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const tight = createApp({ ...deps(), eventStreams: { max: 10, perAddress: 1 } });
    const first = await open(`/api/tournaments/${cup.id}/events`, { app: tight, ip: '198.51.100.7' });
    await first.next('ready');
    expect((await open(`/api/tournaments/${cup.id}/events`, { app: tight, ip: '198.51.100.7' })).status).toBe(429);
    await first.close();
    const again = await open(`/api/tournaments/${cup.id}/events`, { app: tight, ip: '198.51.100.7' });
    expect(again.status).toBe(200);
    await again.next('ready');
    closeStreams();
    await again.ended;
    // The place is given back on shutdown too.
    const third = await open(`/api/tournaments/${cup.id}/events`, { app: tight, ip: '198.51.100.7' });
    expect(third.status).toBe(200);
    await third.close();
  });
});

/** The test API's own dependencies, for an app with other stream caps over the same database. */
const deps = () => ({
  database: api.database,
  mailer: { send: async () => {} },
  limits: databaseLimiter(api.db),
  sessionTtlDays: 30,
  trustProxy: NO_PROXY,
  siteUrl: 'https://arena.test',
});

describe('stream caps', () => {
  it('refuses an address past its share with 429 and a full process with 503, in Ukrainian, with Retry-After', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const capped = createApp({ ...deps(), eventStreams: { max: 3, perAddress: 2 } });
    const path = `/api/tournaments/${cup.id}/events`;
    const held = [await open(path, { app: capped, ip: '192.0.2.1' }), await open(path, { app: capped, ip: '192.0.2.1' })];
    const tooMany = await open(path, { app: capped, ip: '192.0.2.1' });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers.get('retry-after')).toBe('3');
    await tooMany.ended;
    expect(JSON.parse(tooMany.text())).toEqual({ message: expect.stringMatching(/^Забагато відкритих оновлень наживо/) });
    held.push(await open(path, { app: capped, ip: '192.0.2.2' }));
    const full = await open(path, { app: capped, ip: '192.0.2.3' });
    expect(full.status).toBe(503);
    await full.ended;
    expect(JSON.parse(full.text())).toEqual({ message: expect.stringMatching(/^Оновлення наживо зараз недоступні/) });
    for (const stream of held) await stream.close();
  });

  it('lets a reader that stops reading go once 64 KB wait unsent, giving its place back', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const capped = createApp({ ...deps(), eventStreams: { max: 10, perAddress: 1 } });
    const path = `/api/tournaments/${cup.id}/events`;
    // Its body is never read: every frame stays queued in the answer.
    const idle = await capped.request(path, {}, { clientAddress: '192.0.2.60' });
    expect(idle.status).toBe(200);
    const frames = (count: number) => {
      for (let i = 0; i < count; i++) publishTournament({ tournamentId: cup.id, kind: 'match', matchId: randomUUID() });
    };
    // Under the bound it keeps its place.
    frames(100);
    await new Promise((done) => setTimeout(done, 200));
    expect((await capped.request(path, {}, { clientAddress: '192.0.2.60' })).status).toBe(429);
    // Well past it (each frame is about 150 bytes), it is let go.
    frames(1000);
    await expect.poll(async () => {
      const again = await open(path, { app: capped, ip: '192.0.2.60' });
      await again.close();
      return again.status;
    }).toBe(200);
    await idle.body?.cancel().catch(() => {});
  });

  it('counts a burst of streams opened at once exactly', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const capped = createApp({ ...deps(), eventStreams: { max: 100, perAddress: 5 } });
    const burst = await Promise.all(Array.from({ length: 12 }, () => open(`/api/tournaments/${cup.id}/events`, { app: capped, ip: '192.0.2.50' })));
    expect(burst.filter((s) => s.status === 200)).toHaveLength(5);
    expect(burst.filter((s) => s.status === 429)).toHaveLength(7);
    for (const stream of burst) await stream.close();
  });
});

describe('GET /api/users/me/events', () => {
  it('is for a signed-in reader only', async () => {
    const guest = await api.call('GET', '/api/users/me/events');
    expect(guest.status).toBe(401);
    expect(guest.body).toEqual({ message: expect.any(String) });
  });

  it('rings the bell when a notification is stored for the reader, and not for anyone else', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const reader = await player(api);
    const bystander = await player(api);
    const mine = await open('/api/users/me/events', { token: reader.token });
    const theirs = await open('/api/users/me/events', { token: bystander.token });
    await mine.next('ready');
    await theirs.next('ready');
    // The admin's answer to an application notifies the applicant, inside its transaction.
    await application(api, cup.id, 'approved', reader);
    expect(await mine.next('notification')).toEqual({ userId: reader.user.id, kind: 'notification' });
    expect(theirs.text()).not.toContain('notification');
    await mine.close();
    await theirs.close();
  });

  it('says nothing of a notice whose transaction rolled back', async () => {
    const reader = await player(api);
    const stream = await open('/api/users/me/events', { token: reader.token });
    await stream.next('ready');
    await api.db
      .transaction(async (tx) => {
        await signalUsers(tx, [reader.user.id]);
        throw new Error('rolled back');
      })
      .catch(() => {});
    await api.db.transaction((tx) => signalUsers(tx, [reader.user.id], 'team'));
    // Signals arrive in commit order: once the committed one is here, the rolled-back one never will.
    await stream.next('team');
    expect(stream.text()).not.toContain('event: notification');
    await stream.close();
  });
});

describe('a team’s changes on its members’ streams', () => {
  it('tells every member, and a removed one, when the roster, the invites, the logo or the chat change, and nobody outside', async () => {
    const captain = await player(api);
    const mate = await player(api);
    const outsider = await player(api);
    const built = await invitedTeam(api, 3, captain, [mate]);
    const teamId = built.team._id;
    const captainStream = await open('/api/users/me/events', { token: captain.token });
    const mateStream = await open('/api/users/me/events', { token: mate.token });
    const outsiderStream = await open('/api/users/me/events', { token: outsider.token });
    for (const stream of [captainStream, mateStream, outsiderStream]) await stream.next('ready');
    const changes: [string, Parameters<typeof api.call>][] = [
      ['chat', ['POST', `/api/team/${teamId}/chat`, { token: mate.token, body: { message: 'gg' } }]],
      ['logo', ['PATCH', `/api/teams/${teamId}/logo`, { token: captain.token, body: { logoUrl: 'https://example.com/logo.png' } }]],
      ['invite', ['POST', `/api/teams/${teamId}/invite`, { token: captain.token, body: { query: outsider.user.username } }]],
      ['withdrawn invite', ['DELETE', `/api/teams/${teamId}/invites/${outsider.user.id}`, { token: captain.token }]],
    ];
    for (const [what, request] of changes) {
      const answer = await api.call(...request);
      expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
      expect(await captainStream.next('team'), what).toEqual({ userId: captain.user.id, kind: 'team' });
      expect(await mateStream.next('team'), what).toEqual({ userId: mate.user.id, kind: 'team' });
    }
    const removed = await api.call('DELETE', `/api/teams/${teamId}/members/${mate.user.id}`, { token: captain.token });
    expect(removed.status).toBe(200);
    await captainStream.next('team');
    await mateStream.next('team');
    // The outsider heard of the invite in the bell, never of the team itself.
    expect(outsiderStream.text()).not.toContain('event: team');
    for (const stream of [captainStream, mateStream, outsiderStream]) await stream.close();
  });

  it('tells nothing when the change is refused', async () => {
    const captain = await player(api);
    const built = await invitedTeam(api, 2, captain);
    const stream = await open('/api/users/me/events', { token: captain.token });
    await stream.next('ready');
    const empty = await api.call('POST', `/api/team/${built.team._id}/chat`, { token: captain.token, body: { message: '   ' } });
    expect(empty.status).toBe(400);
    const notMember = await api.call('DELETE', `/api/teams/${built.team._id}/members/${boss.user.id}`, { token: captain.token });
    expect(notMember.status).toBe(404);
    // A committed change after the refusals: its event is the first «team» event the stream carries.
    await api.call('POST', `/api/team/${built.team._id}/chat`, { token: captain.token, body: { message: 'after' } });
    await stream.next('team');
    expect(stream.text().split('event: team').length).toBe(2);
    await stream.close();
  });
});

describe('events between instances', () => {
  it('delivers an event from another instance once, however many links bring it, as it does for this instance’s own', async () => {
    const tournamentId = '11111111-1111-4111-8111-111111111111';
    const heard: string[] = [];
    const stop = subscribeTournament(tournamentId, (event) => heard.push(event.kind));
    const wire = JSON.stringify({ n: 'abc-1', t: tournamentId, k: 'report', m: '22222222-2222-4222-8222-222222222222' });
    receive(wire);
    receive(wire);
    // Junk on the channel (anyone who can NOTIFY) is dropped.
    receive('{"n":"x","t":"y","k":"drop tables"}');
    receive('not json');
    expect(heard).toEqual(['report']);
    // This instance's own events are delivered at once outside a request, and not again when they come back.
    publishTournament({ tournamentId, kind: 'checkIn' });
    expect(heard).toEqual(['report', 'checkIn']);
    stop();
  });

  it('hears another instance’s changes once and checked; its own go to the others, never back to itself', () => {
    const heard: { tags: DataTag[]; here: boolean }[] = [];
    const stop = onChanges((tags, here) => heard.push({ tags: [...tags], here }));
    const id = randomUUID();
    const wire = JSON.stringify({ n: randomUUID(), d: [tournamentData(id), 'ratings'] });
    receive(wire);
    receive(wire);
    // Junk: an unknown tag, a tournament that is no id, a list far too long, no list, no event id.
    receive(JSON.stringify({ n: randomUUID(), d: ['drop tables'] }));
    receive(JSON.stringify({ n: randomUUID(), d: ['tournament:42'] }));
    receive(JSON.stringify({ n: randomUUID(), d: Array.from({ length: 40 }, () => 'news') }));
    receive(JSON.stringify({ n: randomUUID(), d: 'news' }));
    receive(JSON.stringify({ d: ['news'] }));
    expect(heard).toEqual([{ tags: [tournamentData(id), 'ratings'], here: false }]);
    stop();
  });

  it('remembers each tournament’s last changes, so an address naming one of them may be held, and a made-up one not', () => {
    const tournamentId = randomUUID();
    const heard: (string | undefined)[] = [];
    const stop = subscribeTournament(tournamentId, (event) => heard.push(event.change));
    const changes = Array.from({ length: 9 }, () => randomUUID());
    for (const n of changes) receive(JSON.stringify({ n, t: tournamentId, k: 'match' }));
    // The event a viewer gets names its change: the same on every instance (the wire's id).
    expect(heard).toEqual(changes);
    expect(isRecentChange(tournamentId, changes[8]!)).toBe(true);
    expect(isRecentChange(tournamentId.toUpperCase(), changes[1]!)).toBe(true);
    // The oldest goes past eight; another tournament's change, or none heard, is not one.
    expect(isRecentChange(tournamentId, changes[0]!)).toBe(false);
    expect(isRecentChange(randomUUID(), changes[8]!)).toBe(false);
    expect(isRecentChange(tournamentId, 'made-up')).toBe(false);
    stop();
  });

  it('says what each kind of tournament event changed, told before the event reaches a viewer', async () => {
    const id = randomUUID();
    const order: string[] = [];
    const stopChanges = onChanges((tags) => order.push(`changed ${[...tags].sort().join(' ')}`));
    const stopEvents = subscribeTournament(id, (event) => order.push(`event ${event.kind}`));
    await collectChanges(async () => {
      publishTournament({ tournamentId: id, kind: 'match', counted: true });
      // Nothing is told while the request runs: its transaction may not have committed.
      expect(order).toEqual([]);
    });
    expect(order).toEqual([`changed ratings ${tournamentData(id)}`, 'event match']);
    order.length = 0;
    // A result moves what results move across the site (a tournament that counts no statistics still moves places);
    // a report waiting changes the tournament alone; a check-in, a stage, an application or the tournament's own
    // details change what the lists show.
    for (const [kind, tags] of [
      ['match', ['ratings', tournamentData(id)]],
      ['report', [tournamentData(id)]],
      ['checkIn', [tournamentData(id), 'tournaments']],
      ['stage', [tournamentData(id), 'tournaments']],
      ['application', [tournamentData(id), 'tournaments']],
      ['tournament', [tournamentData(id), 'tournaments']],
    ] as const) {
      await collectChanges(async () => publishTournament({ tournamentId: id, kind, counted: false }));
      expect(order, kind).toEqual([`changed ${[...tags].sort().join(' ')}`, `event ${kind}`]);
      order.length = 0;
    }
    stopChanges();
    stopEvents();
  });

  it('hears of every message posted to a team chat, on any instance, from the message’s own signal, checked', async () => {
    const heard: string[] = [];
    const stop = onTeamChat((teamId) => heard.push(teamId));
    const teamId = randomUUID();
    const wire = JSON.stringify({ n: randomUUID(), u: [], k: 'team', c: teamId });
    receive(wire);
    receive(wire);
    // Junk: a team that is no id.
    receive(JSON.stringify({ n: randomUUID(), u: [], k: 'team', c: 42 }));
    receive(JSON.stringify({ n: randomUUID(), u: [], k: 'team', c: 'x'.repeat(100) }));
    expect(heard).toEqual([teamId]);
    // A message posted here comes back over the database's link, naming its team.
    const captain = await player(api);
    const built = await invitedTeam(api, 2, captain);
    const posted = await api.call('POST', `/api/team/${built.team._id}/chat`, { token: captain.token, body: { message: 'чутно' } });
    expect(posted.status).toBe(201);
    await expect.poll(() => heard).toContain(built.team._id);
    stop();
  });

  it('tells whether a result counted in the statistics to the other instances, and drops a junk flag', async () => {
    const tournamentId = '66666666-6666-4666-8666-666666666666';
    const held: (boolean | undefined)[] = [];
    const stopHeld = subscribeTournament(tournamentId, (event) => held.push(event.counted));
    receive(JSON.stringify({ n: randomUUID(), t: tournamentId, k: 'match', s: 0 }));
    receive(JSON.stringify({ n: randomUUID(), t: tournamentId, k: 'match', s: 1 }));
    receive(JSON.stringify({ n: randomUUID(), t: tournamentId, k: 'match' }));
    receive(JSON.stringify({ n: randomUUID(), t: tournamentId, k: 'match', s: 'так' }));
    receive(JSON.stringify({ n: randomUUID(), t: tournamentId, k: 'match', s: 2 }));
    expect(held).toEqual([false, true, undefined]);
    stopHeld();
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('PostgreSQL LISTEN/NOTIFY', () => {
  let other: DatabaseHandle;
  beforeAll(async () => {
    // A second instance: its own pool and listener on the same database.
    other = await openDatabase({ url: databaseUrl() });
  });
  afterAll(async () => {
    await other.close();
  });

  function databaseUrl(): string {
    // The scratch database's address, from the test API's pool.
    return (api.database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options.connectionString;
  }

  /** What the other instance hears on the channel, and the function that stops it listening. */
  async function otherHears() {
    const got: string[] = [];
    const stop = await other.listen(
      LIVE_CHANNEL,
      (payload) => got.push(payload),
      () => {},
    );
    return { got, stop };
  }

  it('carries a NOTIFY from one instance to the listener of another, and only on commit', async () => {
    const { got, stop } = await otherHears();
    // The channel is the database's: events of other tests (sent a turn late, in batches) may arrive meanwhile.
    const probe = `probe-${randomUUID()}`;
    const mine = () => got.filter((payload) => payload.startsWith(probe)).map((payload) => payload.slice(probe.length + 1));
    await api.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${`${probe} committed`})`);
    });
    await api.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${`${probe} rolled back`})`);
        throw new Error('no');
      })
      .catch(() => {});
    await api.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${`${probe} last`})`);
    await expect.poll(() => mine().at(-1)).toBe('last');
    expect(mine()).toEqual(['committed', 'last']);
    await stop();
  });

  it('sends what a request changed to the other instances over NOTIFY, once it ended', async () => {
    const { got, stop } = await otherHears();
    const id = randomUUID();
    await collectChanges(async () => publishTournament({ tournamentId: id, kind: 'tournament' }));
    const wires = () => got.map((payload) => JSON.parse(payload) as { d?: string[]; t?: string }).filter((wire) => wire.t === id || wire.d?.includes(tournamentData(id)));
    await expect.poll(() => wires().length).toBe(2);
    // The change goes first, so every instance has marked what it held before its viewers hear the event.
    expect(wires()).toMatchObject([{ d: [tournamentData(id), 'tournaments'] }, { t: id }]);
    await stop();
  });

  it('sends the events of one turn in one statement, each heard once and in order', async () => {
    const { got, stop } = await otherHears();
    const tournamentId = randomUUID();
    const kinds = ['report', 'match', 'checkIn', 'stage', 'application', 'tournament'] as const;
    const burst = Array.from({ length: 60 }, (_, i) => kinds[i % kinds.length]!);
    const events = () => got.filter((payload) => payload.includes(`"t":"${tournamentId}"`));
    const { queries } = await api.queriesOf(async () => {
      // One request's: what they changed goes as one message before them.
      await collectChanges(async () => {
        for (const kind of burst) publishTournament({ tournamentId, kind });
      });
      await expect.poll(() => events().length).toBe(burst.length);
    });
    expect(events().map((payload) => (JSON.parse(payload) as { k: string }).k)).toEqual(burst);
    // Sixty events and their change, fifty a statement.
    expect(queries.filter((text) => text.includes('pg_notify'))).toHaveLength(2);
    await stop();
  });

  it('listens again after its connection is cut (a database restart), and says so', async () => {
    const got: string[] = [];
    let reconnected = 0;
    const stop = await other.listen(
      LIVE_CHANNEL,
      (payload) => got.push(payload),
      () => reconnected++,
    );
    await api.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where query = ${`listen ${LIVE_CHANNEL}`} and pid <> pg_backend_pid()`);
    await expect.poll(() => reconnected, { timeout: 5000 }).toBeGreaterThan(0);
    await api.db.execute(sql`select pg_notify(${LIVE_CHANNEL}, 'after')`);
    await expect.poll(() => got).toContain('after');
    await stop();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('Redis pub/sub', () => {
  it('carries an event from one instance to another', async () => {
    const heardByA: string[] = [];
    const heardByB: string[] = [];
    const a = await redisLink(
      redisUrl!,
      (text) => heardByA.push(text),
      () => {},
    );
    const b = await redisLink(
      redisUrl!,
      (text) => heardByB.push(text),
      () => {},
    );
    // The channel is this Redis's: other instances (another suite, a running server) may speak on it too.
    const sent = JSON.stringify({ n: randomUUID() });
    const mine = (heard: string[]) => heard.filter((text) => text === sent);
    await a.send(sent);
    await expect.poll(() => mine(heardByB)).toEqual([sent]);
    // A publisher hears itself too: the hub's event ids drop the repeat.
    await expect.poll(() => mine(heardByA)).toEqual([sent]);
    await Promise.all([a.close(), b.close()]);
  });
});

/**
 * Event streams as a built server serves them: through its HTTP server (scripts/serve.ts), which
 * lets them past the read queue, to the route, written through Node's response.
 */
let server: http.Server;
let port: number;
let clientDir: string;
let frontDeps: Deps;
/** The paths the site's handler (Astro's, in the built site) was given. */
const handled: string[] = [];

interface SocketStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Waits until the text read so far matches `pattern`. */
  until(pattern: RegExp): Promise<string>;
  text(): string;
  ended: Promise<void>;
  close(): void;
  /** Stops reading: what the server sends piles up in the kernel, then in its response. */
  pause(): void;
}

/** Opens `path` from the loopback address `from` (the caps count per address) and reads as it arrives. */
function openOnSocket(path: string, from = '127.0.0.1', token?: string): Promise<SocketStream> {
  return new Promise((resolve, reject) => {
    const headers = token ? { authorization: `Bearer ${token}` } : {};
    const request = http.get({ host: '127.0.0.1', port, path, localAddress: from, agent: false, headers }, (response) => {
      let text = '';
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        for (const wake of waiters) wake();
      });
      const ended = new Promise<void>((done) => response.on('close', () => done()));
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        text: () => text,
        ended,
        close: () => request.destroy(),
        pause: () => response.pause(),
        until: (pattern) =>
          new Promise((found, missing) => {
            const look = () => {
              if (!pattern.test(text)) return;
              waiters.delete(look);
              clearTimeout(timer);
              found(text);
            };
            const timer = setTimeout(() => {
              waiters.delete(look);
              missing(new Error(`${pattern} not read within 3 s; read: ${text}`));
            }, 3000);
            waiters.add(look);
            look();
          }),
      });
    });
    request.on('error', reject);
  });
}

const eventsOf = (id: string) => `/api/tournaments/${id}/events`;

describe('which requests are event streams (streamPaths)', () => {
  it('knows the routes that answer text/event-stream, and nothing else', () => {
    const isStream = streamPaths(createApp(deps()));
    const id = randomUUID();
    expect(isStream(`/api/tournaments/${id}/events`)).toBe(true);
    expect(isStream(`/api/tournaments/${id}/events/`)).toBe(true);
    expect(isStream('/api/users/me/events')).toBe(true);
    for (const other of [`/api/tournaments/${id}`, `/api/tournaments/${id}/events/more`, `/api/tournaments/${id}/stages`, '/api/users/me', '/tournaments/x/events', '/api/tournaments//events']) {
      expect(isStream(other)).toBe(false);
    }
  });
});

describe('event streams through the site’s server', () => {
  beforeAll(async () => {
    frontDeps = { ...deps(), eventStreams: { max: 3, perAddress: 2 } };
    const app = createApp(frontDeps);
    // As in the built site: everything else goes through a handler that gives the app no Node
    // response (Astro's), the streams to the app's own Node listener (scripts/serve.ts, decision 047).
    const handler = getRequestListener((request, node) => {
      handled.push(new URL(request.url).pathname);
      return app.fetch(request, { clientAddress: node.incoming.socket.remoteAddress });
    });
    clientDir = mkdtempSync(join(tmpdir(), 'kiberarena-live-'));
    // One place in each line: a stream that took one would hold it for as long as it is open.
    server = servingServer((req, res) => void handler(req, res), clientDir, { concurrency: 1, streams: { isStream: streamPaths(app), listener: streamListener(app) } });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('opens with ready and the retry line, then relays the tournament’s events, holding no place of the read line', async () => {
    const cup = await tournament(api, { soloOnly: true });
    handled.length = 0;
    const stream = await openOnSocket(eventsOf(cup.id));
    expect(stream.status).toBe(200);
    // Answered on Node's response, not by the handler the pages and reads go through.
    expect(handled).toEqual([]);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers.etag).toBeUndefined();
    expect(stream.headers['transfer-encoding']).toBe('chunked');
    expect(Math.abs(Date.parse(stream.headers.date!) - Date.now())).toBeLessThan(5000);
    expect(await stream.until(/\n\n/)).toMatch(/^event: ready\ndata: \{\}\nid: \d+\nretry: 3000\n\n$/);
    await application(api, cup.id, 'approved');
    const text = await stream.until(/event: application\n/);
    const data = text.split('\n').find((line) => line.startsWith('data: {"tournamentId"'));
    expect(JSON.parse(data!.slice(6))).toEqual({ tournamentId: cup.id, kind: 'application', change: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    // The API's one place is free: a read gets in while the stream is open.
    expect((await fetch(`http://127.0.0.1:${port}/api/tournaments/${cup.id}`)).status).toBe(200);
    stream.close();
    await stream.ended;
  });

  it('serves an HTTP/1.0 client (a proxy’s default) unchunked, and closes the connection when the stream ends', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const socket = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.7' });
    let read = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (read += chunk));
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.write(`GET ${eventsOf(cup.id)} HTTP/1.0\r\nHost: arena.test\r\n\r\n`);
    await expect.poll(() => read, { timeout: 3000 }).toMatch(/retry: 3000\n\n$/);
    const [head = '', body] = read.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nContent-Type: text\/event-stream\r\n/i);
    expect(head).toMatch(/\r\nConnection: close(\r\n|$)/i);
    expect(head).not.toMatch(/Transfer-Encoding/i);
    expect(body).toMatch(/^event: ready\ndata: \{\}\nid: \d+\nretry: 3000\n\n$/);
    closeStreams();
    await closed;
  });

  it('carries HSTS when the site is served over HTTPS, as every other answer does, and not over plain HTTP', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const headerOver = async (siteUrl: string) => {
      frontDeps.siteUrl = siteUrl;
      const stream = await openOnSocket(eventsOf(cup.id));
      stream.close();
      await stream.ended;
      expect(stream.status).toBe(200);
      return stream.headers['strict-transport-security'];
    };
    try {
      expect(await headerOver('https://arena.test')).toBe('max-age=31536000; includeSubDomains');
      expect(await headerOver('http://arena.test')).toBeUndefined();
    } finally {
      frontDeps.siteUrl = deps().siteUrl;
    }
  });

  it('answers HEAD with the stream’s head alone, holding no place', async () => {
    const cup = await tournament(api, { soloOnly: true });
    // The address's share is two: three heads in a row would be refused if any held a place.
    for (let i = 0; i < 3; i++) {
      const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = http.request({ host: '127.0.0.1', port, path: eventsOf(cup.id), method: 'HEAD', localAddress: '127.0.0.9', agent: false }, resolve);
        request.on('error', reject);
        request.end();
      });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/event-stream/);
      answer.resume();
      await new Promise((done) => answer.on('end', done));
    }
    const stream = await openOnSocket(eventsOf(cup.id), '127.0.0.9');
    expect(stream.status).toBe(200);
    stream.close();
    await stream.ended;
  });

  it('answers 404 for an unknown tournament and 400 for an id that is not one, in Ukrainian', async () => {
    const missing = await openOnSocket(eventsOf('00000000-0000-4000-8000-000000000000'));
    await missing.ended;
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text())).toEqual({ message: 'Турнір не знайдено' });
    const wrong = await openOnSocket(eventsOf('not-an-id'));
    await wrong.ended;
    expect(wrong.status).toBe(400);
  });

  it('counts its streams with the route’s: 429 past an address’s share, 503 when the process is full, with Retry-After', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const held = [await openOnSocket(eventsOf(cup.id), '127.0.0.2'), await openOnSocket(eventsOf(cup.id), '127.0.0.2')];
    for (const stream of held) await stream.until(/event: ready/);
    const tooMany = await openOnSocket(eventsOf(cup.id), '127.0.0.2');
    await tooMany.ended;
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers['retry-after']).toBe('3');
    expect(JSON.parse(tooMany.text())).toEqual({ message: expect.stringMatching(/^Забагато відкритих оновлень наживо/) });
    // The last place of three goes to a reader's own stream: both kinds are counted together.
    const reader = await player(api);
    const third = await openOnSocket('/api/users/me/events', '127.0.0.3', reader.token);
    expect(third.status).toBe(200);
    await third.until(/event: ready/);
    const full = await openOnSocket(eventsOf(cup.id), '127.0.0.4');
    await full.ended;
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('3');
    expect(JSON.parse(full.text())).toEqual({ message: expect.stringMatching(/^Оновлення наживо зараз недоступні/) });
    // A viewer leaving gives its place back.
    third.close();
    await third.ended;
    await expect.poll(async () => {
      const again = await openOnSocket(eventsOf(cup.id), '127.0.0.4');
      again.close();
      return again.status;
    }).toBe(200);
    for (const stream of held) stream.close();
    await Promise.all(held.map((s) => s.ended));
  });

  it('serves the signed-in reader’s own stream too, and refuses a guest or a stale token (401)', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const reader = await player(api);
    const mine = await openOnSocket('/api/users/me/events', '127.0.0.7', reader.token);
    expect(mine.status).toBe(200);
    await mine.until(/event: ready\n/);
    // Approving the reader's application stores a notice for them.
    await application(api, cup.id, 'approved', reader);
    expect(await mine.until(/event: notification\n/)).toContain(`data: {"userId":"${reader.user.id}","kind":"notification"}`);
    mine.close();
    await mine.ended;
    for (const token of [undefined, 'not-a-session-token']) {
      const refused = await openOnSocket('/api/users/me/events', '127.0.0.7', token);
      await refused.ended;
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text())).toEqual({ message: expect.any(String) });
    }
  });

  it('cuts off a reader that stops reading once 64 KB wait unsent in the response, giving its place back', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const stalled = await openOnSocket(eventsOf(cup.id), '127.0.0.8');
    const other = await openOnSocket(eventsOf(cup.id), '127.0.0.8');
    for (const stream of [stalled, other]) await stream.until(/event: ready/);
    // The address's share is two, both taken.
    const refused = await openOnSocket(eventsOf(cup.id), '127.0.0.8');
    await refused.ended;
    expect(refused.status).toBe(429);
    stalled.pause();
    // The kernel's buffers take a few megabytes first; past them the response keeps what is unsent.
    const placeFree = async () => {
      const again = await openOnSocket(eventsOf(cup.id), '127.0.0.8');
      if (again.status === 200) return again;
      await again.ended;
      return null;
    };
    let again: SocketStream | null = null;
    for (let round = 0; round < 50 && !again; round++) {
      for (let i = 0; i < 2000; i++) publishTournament({ tournamentId: cup.id, kind: 'match', matchId: randomUUID() });
      await new Promise((done) => setTimeout(done, 20));
      again = await placeFree();
    }
    // The stalled reader's place is free again, and the reader still reading was not cut off.
    expect(again?.status).toBe(200);
    expect(stalled.text()).not.toMatch(/event: match/);
    expect(other.text()).toMatch(/event: match\n/);
    if (!again) return;
    for (const stream of [again, other]) stream.close();
    await Promise.all([again.ended, other.ended]);
  });

  it('ends every stream on shutdown, giving the places back', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const streams = [await openOnSocket(eventsOf(cup.id), '127.0.0.5'), await openOnSocket(eventsOf(cup.id), '127.0.0.6')];
    for (const stream of streams) await stream.until(/event: ready/);
    closeStreams();
    await Promise.all(streams.map((s) => s.ended));
    const after = await openOnSocket(eventsOf(cup.id), '127.0.0.5');
    expect(after.status).toBe(200);
    await after.until(/event: ready/);
    after.close();
    await after.ended;
  });
});
