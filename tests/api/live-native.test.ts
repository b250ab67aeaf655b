import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servingServer } from '../../scripts/serve.ts';
import { createApp } from '../../src/server/api/app.ts';
import type { Deps } from '../../src/server/api/context.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import { closeStreams, connectLive } from '../../src/server/services/live.ts';
import { application, player, tournament, useTestApi } from '../support/builders.ts';

/**
 * Event streams as a built server serves them (issue 24): on the socket, in front of Astro
 * (serving/event-streams.ts), with the route's headers, frames and caps; what that path does not
 * take (a refusal, an unknown tournament, an id that is not one, a guest) is answered by the route.
 */
const api = useTestApi();
let disconnect: () => Promise<void>;
let server: http.Server;
let port: number;
let clientDir: string;
/** Requests that reached the app behind the front (the route), by path. */
const reachedApp: string[] = [];
let deps: Deps;

beforeAll(async () => {
  disconnect = await connectLive({ database: api.database });
  deps = {
    database: api.database,
    mailer: { send: async () => {} },
    limits: databaseLimiter(api.db),
    sessionTtlDays: 30,
    trustProxy: 0,
    siteUrl: 'https://arena.test',
    eventStreams: { max: 3, perAddress: 2 },
  };
  const app = createApp(deps);
  const listener = getRequestListener((request, node) => app.fetch(request, { clientAddress: node.incoming.socket.remoteAddress }));
  clientDir = mkdtempSync(join(tmpdir(), 'kiberarena-live-'));
  server = servingServer(
    (req, res) => {
      reachedApp.push(req.url ?? '');
      void listener(req, res);
    },
    clientDir,
    { concurrency: 2, streamDeps: async () => deps },
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((done) => server.close(done));
  rmSync(clientDir, { recursive: true, force: true });
  await disconnect();
});

interface Stream {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Waits until the text read so far matches `pattern`. */
  until(pattern: RegExp): Promise<string>;
  text(): string;
  ended: Promise<void>;
  close(): void;
}

/** Opens `path` from the loopback address `from` (the caps count per address) and reads as it arrives. */
function open(path: string, from = '127.0.0.1', token?: string): Promise<Stream> {
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

describe('event streams served on the socket', () => {
  it('opens with ready and the retry line, then relays the tournament’s events, without reaching the app', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const before = reachedApp.length;
    const stream = await open(eventsOf(cup.id));
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['cache-control']).toBe('no-store, no-transform');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers.etag).toBeUndefined();
    expect(await stream.until(/\n\n/)).toMatch(/^event: ready\ndata: \{\}\nid: \d+\nretry: 3000\n\n$/);
    await application(api, cup.id, 'approved');
    const text = await stream.until(/event: application\n/);
    const data = text.split('\n').find((line) => line.startsWith('data: {"tournamentId"'));
    expect(JSON.parse(data!.slice(6))).toEqual({ tournamentId: cup.id, kind: 'application' });
    expect(reachedApp.slice(before)).not.toContain(eventsOf(cup.id));
    stream.close();
    await stream.ended;
  });

  it('leaves what it does not serve to the route: 404 for an unknown tournament, 400 for an id that is not one, in Ukrainian', async () => {
    const missing = await open(eventsOf('00000000-0000-4000-8000-000000000000'));
    await missing.ended;
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text())).toEqual({ message: 'Турнір не знайдено' });
    const wrong = await open(eventsOf('not-an-id'));
    await wrong.ended;
    expect(wrong.status).toBe(400);
  });

  it('counts its streams with the route’s: 429 past an address’s share, 503 when the process is full, with Retry-After', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const held = [await open(eventsOf(cup.id), '127.0.0.2'), await open(eventsOf(cup.id), '127.0.0.2')];
    for (const stream of held) await stream.until(/event: ready/);
    const tooMany = await open(eventsOf(cup.id), '127.0.0.2');
    await tooMany.ended;
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers['retry-after']).toBe('3');
    expect(JSON.parse(tooMany.text())).toEqual({ message: expect.stringMatching(/^Забагато відкритих оновлень наживо/) });
    // The last place of three goes to a reader's own stream: both kinds are counted together. The
    // refusals below are the route's (this path leaves them to it): it counts the same places.
    const reader = await player(api);
    const third = await open('/api/users/me/events', '127.0.0.3', reader.token);
    expect(third.status).toBe(200);
    await third.until(/event: ready/);
    const full = await open(eventsOf(cup.id), '127.0.0.4');
    await full.ended;
    expect(full.status).toBe(503);
    expect(full.headers['retry-after']).toBe('3');
    expect(JSON.parse(full.text())).toEqual({ message: expect.stringMatching(/^Оновлення наживо зараз недоступні/) });
    // A viewer leaving gives its place back.
    third.close();
    await third.ended;
    await expect.poll(async () => {
      const again = await open(eventsOf(cup.id), '127.0.0.4');
      again.close();
      return again.status;
    }).toBe(200);
    for (const stream of held) stream.close();
    await Promise.all(held.map((s) => s.ended));
  });

  it('serves the signed-in reader’s own stream too, and leaves a guest or a stale token to the route (401)', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const reader = await player(api);
    const before = reachedApp.length;
    const mine = await open('/api/users/me/events', '127.0.0.7', reader.token);
    expect(mine.status).toBe(200);
    await mine.until(/event: ready\n/);
    // Approving the reader's application stores a notice for them.
    await application(api, cup.id, 'approved', reader);
    expect(await mine.until(/event: notification\n/)).toContain(`data: {"userId":"${reader.user.id}","kind":"notification"}`);
    expect(reachedApp.slice(before)).not.toContain('/api/users/me/events');
    mine.close();
    await mine.ended;
    for (const token of [undefined, 'not-a-session-token']) {
      const refused = await open('/api/users/me/events', '127.0.0.7', token);
      await refused.ended;
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.text())).toEqual({ message: expect.any(String) });
    }
  });

  it('ends every stream on shutdown, giving the places back', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const streams = [await open(eventsOf(cup.id), '127.0.0.5'), await open(eventsOf(cup.id), '127.0.0.6')];
    for (const stream of streams) await stream.until(/event: ready/);
    closeStreams();
    await Promise.all(streams.map((s) => s.ended));
    const after = await open(eventsOf(cup.id), '127.0.0.5');
    expect(after.status).toBe(200);
    await after.until(/event: ready/);
    after.close();
    await after.ended;
  });
});
