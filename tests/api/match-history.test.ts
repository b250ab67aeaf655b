import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchHistoryItem } from '../../src/lib/api/match-history.ts';
import { matches, matchParticipants } from '../../src/server/db/schema/index.ts';
import { game, player, team, tournament, useTestApi, type Player } from '../support/builders.ts';

const api = useTestApi();
let alice: Player;
let bob: Player;
let loner: Player;
let teamA: string;
let teamB: string;
let gameId: string;
let tournamentId: string;
const MINUTE = 60_000;
const start = Date.parse('2025-05-01T18:00:00.000Z');

beforeAll(async () => {
  alice = await player(api);
  bob = await player(api);
  loner = await player(api);
  gameId = await game(api, 'Valorant');
  tournamentId = (await tournament(api, { title: 'Нічна ліга', date: new Date(start).toISOString(), game: gameId, soloOnly: true })).id;
  teamA = (await team(api, alice, 1, { name: 'Alpha' })).id;
  teamB = (await team(api, bob, 1, { name: 'Beta' })).id;

  // The matches are written: draws, matches outside a tournament, set times and a scheduled match are
  // history no route records (record-match refuses a draw and stamps the time now).
  // 25 duels of Alice and Bob, one a minute; Alice wins the even ones, the last one is a draw.
  for (let i = 0; i < 25; i++) {
    const draw = i === 24;
    const [match] = await api.db
      .insert(matches)
      .values({
        gameId,
        tournamentId: i < 5 ? tournamentId : null,
        isDraw: draw,
        duration: 30 + i,
        gameSpecificData: { map: `Map ${i}` },
        completedAt: new Date(start + i * MINUTE),
        createdAt: new Date(start + i * MINUTE - 40 * MINUTE),
      })
      .returning();
    await api.db.insert(matchParticipants).values([
      { matchId: match!.id, participantType: 'user', userId: alice.user.id, name: alice.user.username, score: draw ? 1 : i % 2 === 0 ? 13 : 7, isWinner: !draw && i % 2 === 0 },
      { matchId: match!.id, participantType: 'user', userId: bob.user.id, name: bob.user.username, score: draw ? 1 : i % 2 === 0 ? 7 : 13, isWinner: !draw && i % 2 === 1 },
    ]);
  }
  // One scheduled team match without an end yet.
  const [scheduled] = await api.db.insert(matches).values({ gameId, status: 'scheduled', createdAt: new Date(start + 100 * MINUTE) }).returning();
  await api.db.insert(matchParticipants).values([
    { matchId: scheduled!.id, participantType: 'team', teamId: teamA, name: 'Alpha' },
    { matchId: scheduled!.id, participantType: 'team', teamId: teamB, name: 'Beta' },
  ]);
});

const history = (path: string) => api.call<MatchHistoryItem[]>('GET', `/api/stats/matches/${path}`);

describe('match history', () => {
  it('gives a player’s last 20 matches, newest first, without a token', async () => {
    const res = await history(`player/${alice.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(20);
    const times = res.body.map((m) => m.completedAt!);
    expect(times).toEqual([...times].sort().reverse());
    expect(res.body[0]).toEqual({
      _id: expect.any(String),
      participants: [
        expect.objectContaining({ id: expect.any(String), type: 'user', score: 1, isWinner: false }),
        expect.objectContaining({ id: expect.any(String), type: 'user', score: 1, isWinner: false }),
      ],
      result: { isDraw: true },
      gameId: { _id: gameId, name: 'Valorant' },
      tournamentId: null,
      completedAt: new Date(start + 24 * MINUTE).toISOString(),
      createdAt: new Date(start - 16 * MINUTE).toISOString(),
      matchDetails: { duration: 54, gameSpecificData: { map: 'Map 24' } },
      status: 'completed',
    });
    expect(res.body[0]?.participants.map((p) => p.id).sort()).toEqual([alice.user.id, bob.user.id].sort());
  });

  it('loads more by offset or by a `before` time, and names the tournament', async () => {
    const more = await history(`player/${alice.user.id}?limit=20&offset=20`);
    expect(more.body).toHaveLength(5);
    expect(more.body.at(-1)?.tournamentId).toEqual({ _id: tournamentId, title: 'Нічна ліга' });
    const first = await history(`player/${alice.user.id}`);
    const before = first.body.at(-1)!.completedAt!;
    const older = await history(`player/${alice.user.id}?before=${encodeURIComponent(before)}`);
    expect(older.body.map((m) => m._id)).toEqual(more.body.map((m) => m._id));
    const all = await history(`player/${bob.user.id}?limit=100`);
    expect(all.body).toHaveLength(25);
    const clamped = await history(`player/${bob.user.id}?limit=5000`);
    expect(clamped.status).toBe(200);
    expect(clamped.body).toHaveLength(25);
  });

  it('gives a team’s matches, a match still scheduled included', async () => {
    const res = await history(`team/${teamA}?limit=20`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({ status: 'scheduled', completedAt: null, participants: [{ type: 'team' }, { type: 'team' }] });
  });

  it('is empty for someone who never played', async () => {
    const res = await history(`player/${loner.user.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers 404 for unknown players and teams, 400 for malformed ids and queries', async () => {
    const player = await history(`player/${crypto.randomUUID()}`);
    expect(player.status).toBe(404);
    expect((player.body as unknown as { message: string }).message).toBe('Гравця не знайдено');
    const team = await history(`team/${crypto.randomUUID()}`);
    expect(team.status).toBe(404);
    expect((team.body as unknown as { message: string }).message).toBe('Команду не знайдено');
    expect((await history('player/abc')).status).toBe(400);
    expect((await history(`player/${alice.user.id}?limit=lots`)).status).toBe(400);
    const before = await history(`player/${alice.user.id}?before=yesterday`);
    expect(before.status).toBe(400);
    expect((before.body as unknown as { message: string }).message).toBe('Параметр before має бути часом ISO 8601');
  });
});
