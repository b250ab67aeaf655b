import { beforeAll, describe, expect, it, vi } from 'vitest';
import { NOT_STORED, PRIVATE_READ, PUBLIC_READ } from '../../src/server/api/caching.ts';
import {
  admin as adminOf,
  player as newPlayer,
  recordedMatch,
  statsGame,
  statsOn,
  team,
  tournament as built,
  useTestApi,
  type Player,
} from '../support/builders.ts';

/*
 * HTTP caching of the API (docs/features.md, "Caching"): public reads carry an ETag and a short
 * Cache-Control and answer 304 while unchanged; answers that depend on the token never go to a
 * shared cache.
 */

const api = useTestApi();
let admin: string;
let player: Player;
let gameId: string;
let tournamentId: string;
let newsId: string;
let teamId: string;

/** Every public read, with its ids filled in. */
let publicReads: string[];

beforeAll(async () => {
  admin = (await adminOf(api)).token;
  player = await newPlayer(api);
  gameId = await statsGame(api, { name: 'Cache Arena' });
  // One player on the game's leaderboard: a recorded duel, its loser then taken off the board.
  const rival = await newPlayer(api);
  const duel = await built(api, { game: gameId, soloOnly: true, approved: [player, rival] });
  await statsOn(api, duel.id);
  await recordedMatch(api, duel.id, { participant1Type: 'user', participant1Id: player.user.id, participant2Type: 'user', participant2Id: rival.user.id, score1: 2, score2: 1 });
  expect((await api.call('DELETE', `/api/stats/player/${rival.user.id}/game/${gameId}`, { token: admin })).status).toBe(200);
  const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
    token: admin,
    body: { title: 'Cache Cup', date: '2031-05-01T12:00:00.000Z', game: gameId, soloOnly: true },
  });
  tournamentId = cup.body.tournament._id;
  await api.call('POST', '/api/applications', { token: player.token, body: { tournament: tournamentId } });
  const item = await api.call<{ _id: string }>('POST', '/api/news', { token: admin, body: { title: 'Кеш', content: 'Новина про кеш' } });
  newsId = item.body._id;
  teamId = (await team(api, player, 1, { name: 'Cache Crew' })).id;

  publicReads = [
    '/api/games',
    '/api/game-management/list',
    `/api/game-management/config/${gameId}`,
    `/api/game-management/${gameId}/stats-config`,
    '/api/tournaments',
    `/api/tournaments?game=${gameId}&soloOnly=true`,
    `/api/tournaments/${tournamentId}`,
    `/api/tournaments/${tournamentId}/bracket`,
    '/api/news',
    '/api/news?archived=false',
    `/api/news/${newsId}`,
    '/api/stats/games',
    `/api/stats/leaderboard/game/${gameId}`,
    `/api/stats/leaderboard/teams/game/${gameId}?sort=wins_desc`,
    `/api/stats/achievements/player/${player.user.id}`,
    `/api/stats/matches/player/${player.user.id}`,
    `/api/stats/matches/team/${teamId}`,
    `/api/players/${player.user.id}`,
    `/api/teams/${teamId}`,
    `/api/avatar/${player.user.id}`,
    '/api/openapi.json',
    '/api/docs',
  ];
});

const raw = (path: string, headers: Record<string, string> = {}) => api.app.request(path, { headers });
const varies = (res: Response) => (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());

describe('public reads', () => {
  it('carry an ETag and a short Cache-Control, and answer 304 without a body while unchanged', async () => {
    for (const path of publicReads) {
      const first = await raw(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag');
      const cacheControl = first.headers.get('cache-control') ?? '';
      expect(etag, path).toMatch(/^(W\/)?"[^"]+"$/);
      // Public, and short: never a year, except an avatar URL that names its upload.
      expect(cacheControl, path).toMatch(/public|no-cache/);
      expect(cacheControl, path).not.toMatch(/private|no-store/);
      const maxAge = Number(cacheControl.match(/(?:^|[ ,])max-age=(\d+)/)?.[1] ?? 0);
      expect(maxAge, `${path}: ${cacheControl}`).toBeLessThanOrEqual(300);

      const again = await raw(path, { 'If-None-Match': etag! });
      expect(again.status, path).toBe(304);
      expect(await again.text(), path).toBe('');
      expect(again.headers.get('etag'), path).toBe(etag);
      expect(again.headers.get('cache-control'), path).toBe(cacheControl);
      // A weak form of the same tag, or a list holding it, matches too.
      expect((await raw(path, { 'If-None-Match': `"other", W/${etag!.replace(/^W\//, '')}` })).status, path).toBe(304);
      expect((await raw(path, { 'If-None-Match': '"something-else"' })).status, path).toBe(200);
    }
  });

  it('are the same for every guest, so the ones declared public reads (JSON or HTML) vary by token and language', async () => {
    const varying: string[] = [];
    for (const path of publicReads) {
      const res = await raw(path);
      if (['authorization', 'cookie'].every((name) => varies(res).includes(name))) varying.push(path);
    }
    // A picture varies by neither: its route sets everything itself.
    expect(publicReads.filter((path) => !varying.includes(path))).toEqual([`/api/avatar/${player.user.id}`]);
  });

  it('get the default guest policy where the route names none', async () => {
    expect((await raw('/api/news')).headers.get('cache-control')).toBe(PUBLIC_READ);
    expect((await raw(`/api/news/${newsId}`)).headers.get('cache-control')).toBe(PUBLIC_READ);
    expect((await raw('/api/openapi.json')).headers.get('cache-control')).toBe(PUBLIC_READ);
  });

  it('digest a body once: a route that names its own ETag (leaderboards) is not hashed again', async () => {
    const digest = vi.spyOn(crypto.subtle, 'digest');
    try {
      const path = `/api/stats/leaderboard/game/${gameId}`;
      const first = await raw(path);
      expect(first.status).toBe(200);
      expect(first.headers.get('etag')).toMatch(/^"lb-/);
      expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await first.json()).toHaveLength(1);
      expect((await raw(path, { 'If-None-Match': first.headers.get('etag')! })).status).toBe(304);
      expect(digest).not.toHaveBeenCalled();
      // A route without its own ETag is digested by the middleware, once.
      await raw('/api/games');
      expect(digest).toHaveBeenCalledTimes(1);
    } finally {
      digest.mockRestore();
    }
  });

  it('give a new ETag once the data changes, so the old one gets the new answer', async () => {
    const before = await raw('/api/news');
    const etag = before.headers.get('etag')!;
    await api.call('POST', '/api/news', { token: admin, body: { title: 'Ще одна', content: 'Свіжа новина' } });
    const after = await raw('/api/news', { 'If-None-Match': etag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(((await after.json()) as unknown[]).length).toBe(((await before.json()) as unknown[]).length + 1);
  });

  it('differ by language where the words differ: a leaderboard in English has its own ETag', async () => {
    const path = `/api/stats/leaderboard/game/${gameId}`;
    const uk = await raw(path);
    const en = await raw(path, { cookie: 'lang=en' });
    expect(uk.headers.get('etag')).not.toBe(en.headers.get('etag'));
    expect((await raw(path, { cookie: 'lang=en', 'If-None-Match': uk.headers.get('etag')! })).status).toBe(200);
  });
});

describe('reads with a token', () => {
  it('never go to a shared cache when the answer differs from the guest’s', async () => {
    for (const path of publicReads) {
      const guest = await raw(path);
      const mine = await raw(path, { authorization: `Bearer ${player.token}` });
      expect(mine.status, path).toBe(200);
      const cacheControl = mine.headers.get('cache-control') ?? '';
      if (/private|no-store/.test(cacheControl)) continue;
      // Left public only when the token changes nothing in it.
      expect(await mine.text(), `${path} with a token is "${cacheControl}" but differs`).toBe(await guest.text());
    }
  });

  it('are private where the route names no policy, and still answer 304 to the reader’s browser', async () => {
    const headers = { authorization: `Bearer ${player.token}` };
    const first = await raw('/api/news', headers);
    expect(first.headers.get('cache-control')).toBe(PRIVATE_READ);
    expect((await raw('/api/news', { ...headers, 'If-None-Match': first.headers.get('etag')! })).status).toBe(304);
    // A tournament shows the player their own pending application: that answer is theirs alone.
    const detail = await raw(`/api/tournaments/${tournamentId}`, headers);
    expect(detail.headers.get('cache-control')).toMatch(/^private/);
    expect(varies(detail)).toContain('authorization');
  });

  it('of the caller’s own things and of admin lists are never stored', async () => {
    const own = [
      ['/api/users/me', player.token],
      ['/api/cabinet/me', player.token],
      ['/api/teams/mine', player.token],
      ['/api/users/me/notifications', player.token],
      ['/api/news/saved', player.token],
      [`/api/tournaments/${tournamentId}/eligibility`, player.token],
      [`/api/team/${teamId}/chat`, player.token],
      ['/api/applications', admin],
      ['/api/stats/tournaments', admin],
      [`/api/tournaments/${tournamentId}/stats`, admin],
    ] as const;
    for (const [path, token] of own) {
      const res = await raw(path, { authorization: `Bearer ${token}` });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('cache-control'), path).toMatch(/private|no-store/);
      expect(res.headers.get('cache-control'), path).not.toContain('public');
    }
    expect((await raw('/api/users/me', { authorization: `Bearer ${player.token}` })).headers.get('cache-control')).toBe(NOT_STORED);
  });
});

describe('what is not cached', () => {
  it('refusals carry no ETag and no public policy', async () => {
    for (const path of ['/api/tournaments/00000000-0000-4000-8000-000000000000', '/api/news/not-an-id', '/api/users/me', '/api/nowhere']) {
      const res = await raw(path);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('etag'), path).toBeNull();
      expect(res.headers.get('cache-control') ?? '', path).not.toContain('public');
    }
  });

  it('writes carry no ETag, and a one-time link is never stored', async () => {
    const write = await api.call('POST', '/api/news', { token: admin, body: { title: 'Запис', content: 'Не кешується' } });
    expect(write.status).toBe(201);
    expect(write.headers.get('etag')).toBeNull();
    const email = 'cache-confirm@example.test';
    const registered = await api.call('POST', '/api/auth/register', { body: { username: 'cache_confirm', email, password: 'correct-horse-9' } });
    expect(registered.status).toBeLessThan(300);
    const confirm = await raw(`/api/auth/confirm?token=${encodeURIComponent(api.letterToken(email))}`);
    expect(confirm.status).toBe(200);
    expect(confirm.headers.get('cache-control')).toBe(NOT_STORED);
  });

  it('the health check stays uncached for the balancer', async () => {
    expect((await raw('/api/health')).headers.get('cache-control')).toBe('no-store');
  });
});
