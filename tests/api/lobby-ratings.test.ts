import { asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchHistoryItem } from '../../src/lib/api/match-history.ts';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { INITIAL_RATING, rateLobby, rateMatch } from '../../src/lib/domain/rating.ts';
import { matches, matchParticipants, playerGameStats } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, player, stage, statsGame, statsOn, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * Free-for-all lobbies in the ratings (issue 59, decision 039): a complete lobby's final table is
 * one record with a side per member and its place, rated as every pair once with K / (n − 1); a
 * corrected lobby is taken back and counted again; a lobby still playing counts nothing.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await statsGame(api);
});

const fresh = (n: number) => Array.from({ length: n }, () => ({ rating: INITIAL_RATING, matchesPlayed: 0 }));
const finish = (order: readonly string[]) => order.map((participant, i) => ({ participant, placement: i + 1, kills: 0 }));
const put = (lobbyId: string, n: number, order: readonly string[], token = admin.token) =>
  api.call<{ message: string }>('PUT', `/api/matches/${lobbyId}/games/${n}`, { token, body: { lines: finish(order) } });

/** A solo cup of `n` players with statistics on (unless told) and one free-for-all lobby of `games` games. */
async function lobbyCup(n: number, games: number, stats = true) {
  const players = await Promise.all(Array.from({ length: n }, () => player(api)));
  const cup = await tournament(api, { soloOnly: true, game: gameId, approved: players });
  if (stats) await statsOn(api, cup.id);
  await stage(api, cup.id, { format: 'free_for_all', settings: { lobbySize: n, games, points: { placement: [10, 6, 5, 4, 3, 2], kill: 1 } } });
  const lobby = (await lobbiesOf(cup.id))[0]!;
  return { cup, lobby, members: lobby.members, tokens: new Map(players.map((p) => [p.user.id, p.token])) };
}

const lobbiesOf = async (cupId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${cupId}/stages`)).body.stages[0]!.lobbies;

const ratingsOf = async (ids: readonly string[]) => {
  const rows = await api.db
    .select()
    .from(playerGameStats)
    .where(inArray(playerGameStats.userId, [...ids]));
  return ids.map((id) => rows.find((r) => r.userId === id && r.gameId === gameId) ?? null);
};

const recordsOf = (lobbyId: string) => api.db.select().from(matches).where(eq(matches.lobbyId, lobbyId));

describe('a free-for-all lobby in the ratings', () => {
  it('counts nothing while the lobby plays, then its final table once: each member by its place, the winner with a win', async () => {
    const { cup, lobby, members } = await lobbyCup(4, 2);
    expect((await put(lobby._id, 1, members)).status).toBe(200);
    expect(await recordsOf(lobby._id)).toEqual([]);
    expect((await ratingsOf(members)).every((row) => row === null)).toBe(true);

    // Game 2 with the first two swapped: the record follows the table's ranks.
    expect((await put(lobby._id, 2, [members[1]!, members[0]!, members[2]!, members[3]!])).status).toBe(200);
    const [record] = await recordsOf(lobby._id);
    expect(record).toMatchObject({ status: 'completed', isDraw: false, stageMatchId: null });
    const sides = await api.db.select().from(matchParticipants).where(eq(matchParticipants.matchId, record!.id)).orderBy(asc(matchParticipants.placement));
    const table = (await lobbiesOf(cup.id))[0]!.table;
    expect(sides.map((s) => [s.userId, s.placement, s.score, s.isWinner])).toEqual(table.map((row) => [row.participant, row.rank, row.points, row.rank === 1]));
    const expected = rateLobby(fresh(4), [1, 2, 3, 4]);
    const rows = await ratingsOf(table.map((row) => row.participant));
    expect(rows.map((r) => r!.rating)).toEqual(expected);
    expect(rows.map((r) => [r!.matchesPlayed, r!.matchesWon, r!.matchesLost, r!.currentStreak])).toEqual([
      [1, 1, 0, 1],
      [1, 0, 1, -1],
      [1, 0, 1, -1],
      [1, 0, 1, -1],
    ]);
    expect(sides.map((s) => s.ratingAfter)).toEqual(expected);

    // The profile's history shows the lobby once, every member with its place.
    const history = await api.call<MatchHistoryItem[]>('GET', `/api/stats/matches/player/${table[0]!.participant}`);
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(1);
    expect(history.body[0]!.participants.map((p) => [p.id, p.placement, p.isWinner])).toEqual(table.map((row) => [row.participant, row.rank, row.rank === 1]));
  });

  it('takes a corrected lobby back and counts it again, and a later match is replayed on top of it', async () => {
    const { cup, lobby, members } = await lobbyCup(3, 1);
    expect((await put(lobby._id, 1, members)).status).toBe(200);
    const [first] = await recordsOf(lobby._id);
    expect((await ratingsOf(members)).map((r) => r!.rating)).toEqual(rateLobby(fresh(3), [1, 2, 3]));
    // A match of the same game afterwards between the lobby's last and first.
    const recorded = await api.call('POST', `/api/tournaments/${cup.id}/record-match`, {
      token: admin.token,
      body: { participant1Type: 'user', participant2Type: 'user', participant1Id: members[2], participant2Id: members[0], score1: 1, score2: 0 },
    });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);

    // The organiser corrects the game: the last was first.
    const reversed = [...members].reverse();
    expect((await put(lobby._id, 1, reversed)).status).toBe(200);
    const [second] = await recordsOf(lobby._id);
    expect(second!.id).not.toBe(first!.id);
    const afterLobby = rateLobby(fresh(3), [3, 2, 1]);
    const duel = rateMatch({ rating: afterLobby[2]!, matchesPlayed: 1 }, { rating: afterLobby[0]!, matchesPlayed: 1 });
    const rows = await ratingsOf(members);
    expect(rows.map((r) => r!.rating)).toEqual([duel.loser, afterLobby[1], duel.winner]);
    expect(rows.map((r) => r!.matchesWon)).toEqual([0, 0, 2]);
  });

  it('counts nothing where the tournament keeps no statistics, and nothing for a player’s proposal', async () => {
    const off = await lobbyCup(3, 1, false);
    expect((await put(off.lobby._id, 1, off.members)).status).toBe(200);
    expect(await recordsOf(off.lobby._id)).toEqual([]);

    const on = await lobbyCup(3, 1);
    expect((await put(on.lobby._id, 1, on.members, on.tokens.get(on.members[0]!))).status).toBe(200);
    expect(await recordsOf(on.lobby._id)).toEqual([]);
  });
});
