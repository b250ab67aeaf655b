import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LobbyView, StagesState, StageView } from '../../src/lib/api/stages.ts';
import { lobbyGames, stages as stagesTable } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * Free-for-all lobbies through the API (issue 59): lobbies spread by seed, games entered by the
 * organisers or proposed by a lobby's players, tables by placement and kill points, each lobby's
 * top into the final, places; and every refusal.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'PUBG Mobile');
});

const settings = { lobbySize: 4, games: 2, advance: 2, points: { placement: [10, 6, 5, 4], kill: 1 } };
const stageOf = async (tournamentId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`)).body.stages[0]!;
const put = (lobbyId: string, n: number, lines: unknown, token: string | undefined = admin.token) =>
  api.call<{ message: string; state: string; lobby: LobbyView }>('PUT', `/api/matches/${lobbyId}/games/${n}`, { token, body: { lines } });
/** A game where the lobby's members finish in the order given (first wins), each with `kills` (default 1). */
const finish = (order: readonly string[], kills: readonly number[] = []) =>
  order.map((participant, i) => ({ participant, placement: i + 1, kills: kills[i] ?? 1 }));

/** A solo tournament of `n` players, signed in, with a free-for-all stage. */
async function ffaCup(n: number) {
  const players = await Promise.all(Array.from({ length: n }, () => player(api)));
  const cup = await tournament(api, { soloOnly: true, game: gameId, approved: players });
  const created = await stage(api, cup.id, { format: 'free_for_all', settings });
  return { cup, players, created, byId: new Map(players.map((p) => [p.user.id, p])) };
}

describe('a free-for-all stage', () => {
  it('spreads 8 into two lobbies of 4, sends the top 2 of each to the final, and places everyone', async () => {
    const { cup, created } = await ffaCup(8);
    expect(created.matches).toEqual([]);
    expect(created.lobbies.map((l) => [l.round, l.number, l.members.length])).toEqual([
      [1, 1, 4],
      [1, 2, 4],
    ]);
    const seeds = created.seeds as string[];
    // Snake: lobby 1 takes seeds 1, 4, 5, 8; lobby 2 seeds 2, 3, 6, 7.
    expect(created.lobbies[0]!.members).toEqual([seeds[0], seeds[3], seeds[4], seeds[7]]);
    for (const lobby of created.lobbies) {
      // Twice in seed order, the top seed with 3 kills.
      for (const n of [1, 2]) expect((await put(lobby._id, n, finish(lobby.members, [3]))).status).toBe(200);
    }
    const afterRound = await stageOf(cup.id);
    const final = afterRound.lobbies.find((l) => l.round === 2)!;
    // Winners first, then runners-up: seeds 1, 2, then 4, 3.
    expect(final.members).toEqual([seeds[0], seeds[1], seeds[3], seeds[2]]);
    const table = afterRound.lobbies[0]!.table;
    // The winner: 2 × (10 + 3 kills) = 26; second: 2 × (6 + 1) = 14.
    expect(table.map((r) => r.points)).toEqual([26, 14, 12, 10]);
    expect(afterRound.complete).toBe(false);
    // The final, reversed: seed 3 wins.
    for (const n of [1, 2]) expect((await put(final._id, n, finish([...final.members].reverse()))).status).toBe(200);
    const done = await stageOf(cup.id);
    expect(done.complete).toBe(true);
    expect(done.placements.map((p) => `${p.from}-${p.to}`)).toEqual(['1-1', '2-2', '3-3', '4-4', '5-6', '5-6', '7-8', '7-8']);
    expect(done.placements[0]!.participant).toBe(seeds[2]);
    const standings = await api.call<{ final: boolean; placements: { participant: string }[] }>('GET', `/api/tournaments/${cup.id}/standings`);
    expect(standings.body.final).toBe(true);
    expect(standings.body.placements[0]!.participant).toBe(seeds[2]);
    // The round is over: its games stay as they are.
    const late = await put(created.lobbies[0]!._id, 1, finish(created.lobbies[0]!.members));
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Наступний раунд уже складено з цих результатів, тож змінити їх не можна');
  });

  it('lets a lobby’s player propose a game for the organisers, who enter it; the public table counts only what they entered', async () => {
    const { cup, created, byId } = await ffaCup(8);
    const lobby = created.lobbies[0]!;
    const member = byId.get(lobby.members[1]!)!;
    const proposed = await put(lobby._id, 1, finish(lobby.members), member.token);
    expect(proposed.status).toBe(200);
    expect(proposed.body.state).toBe('proposed');
    expect(proposed.body.message).toBe('Гру 1 запропоновано: її внесе організатор');
    expect((await stageOf(cup.id)).lobbies[0]!.games).toEqual([]);
    const seen = await api.call<{ state: string }[]>('GET', `/api/matches/${lobby._id}/games`, { token: member.token });
    expect(seen.body.map((g) => g.state)).toEqual(['proposed']);
    const entered = await put(lobby._id, 1, finish([...lobby.members].reverse()));
    expect(entered.body.state).toBe('confirmed');
    expect((await stageOf(cup.id)).lobbies[0]!.games).toHaveLength(1);
    const again = await put(lobby._id, 1, finish(lobby.members), member.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Цю гру вже вніс організатор: змінити її може лише він');
  });

  it('refuses what does not fit the lobby with a Ukrainian message, and writes nothing', async () => {
    const { created, players } = await ffaCup(8);
    const lobby = created.lobbies[0]!;
    const other = created.lobbies[1]!;
    const outsider = players.find((p) => other.members.includes(p.user.id))!;
    const stranger = '00000000-0000-4000-8000-000000000000';
    const cases: [unknown, number, number, string | RegExp][] = [
      [finish(lobby.members.slice(0, 3)), 1, 422, 'Вкажіть місце й вбивства кожного учасника лобі'],
      [finish([...lobby.members.slice(0, 3), stranger]), 1, 422, 'У грі вказано учасника, якого немає в цьому лобі'],
      [[...finish(lobby.members.slice(0, 3)), { participant: lobby.members[0], placement: 4, kills: 0 }], 1, 422, 'Кожного учасника лобі вказуйте лише раз'],
      [
        finish(lobby.members).map((l, i) => (i === 3 ? { ...l, placement: 1 } : l)),
        1,
        422,
        'Місця мають бути від 1 до кількості учасників лобі, кожне рівно раз',
      ],
      [
        finish(lobby.members).map((l, i) => (i === 3 ? { ...l, placement: 7 } : l)),
        1,
        422,
        'Місця мають бути від 1 до кількості учасників лобі, кожне рівно раз',
      ],
      [finish(lobby.members), 3, 404, 'Такої гри немає: ігор у лобі — 2'],
      [finish(lobby.members, [100]), 1, 400, /[а-яіїєґ]/i],
      [finish(lobby.members).map((l) => ({ ...l, kills: -1 })), 1, 400, /[а-яіїєґ]/i],
      [finish(lobby.members).map((l) => ({ ...l, kills: '1' })), 1, 400, /[а-яіїєґ]/i],
      [finish(lobby.members).map((l) => ({ ...l, participant: `${l.participant}\u0000` })), 1, 400, /[а-яіїєґ]/i],
      [[], 1, 400, /[а-яіїєґ]/i],
      ['everyone', 1, 400, /[а-яіїєґ]/i],
    ];
    for (const [lines, n, status, message] of cases) {
      const res = await put(lobby._id, n, lines);
      expect(res.status, JSON.stringify(lines)).toBe(status);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    // Someone of another lobby, a guest, a bad path, no such lobby.
    const foreign = await put(lobby._id, 1, 'not even lines', outsider.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('Ігри лобі вносять лише його гравці (капітани команд) та організатори турніру');
    expect((await api.call('PUT', `/api/matches/${lobby._id}/games/1`, { body: { lines: finish(lobby.members) } })).status).toBe(401);
    expect((await put(stranger, 1, finish(lobby.members))).status).toBe(404);
    expect((await put('not-a-uuid', 1, finish(lobby.members))).status).toBe(400);
    expect((await api.call('GET', `/api/matches/${lobby._id}/games`, { token: outsider.token })).status).toBe(403);
    expect(await api.db.select().from(lobbyGames).where(eq(lobbyGames.lobbyId, lobby._id))).toEqual([]);
  });

  it('a parallel burst of the same game enters it once', async () => {
    const { cup, created } = await ffaCup(8);
    const lobby = created.lobbies[0]!;
    const answers = await Promise.all(Array.from({ length: 5 }, () => put(lobby._id, 1, finish(lobby.members))));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await api.db.select().from(lobbyGames).where(eq(lobbyGames.lobbyId, lobby._id))).toHaveLength(1);
    expect((await stageOf(cup.id)).lobbies[0]!.table[0]!.points).toBe(11);
  });
});

describe('creating a free-for-all stage', () => {
  it('refuses settings that do not make one, and writes nothing', async () => {
    const players = await Promise.all(Array.from({ length: 8 }, () => player(api)));
    const cup = await tournament(api, { soloOnly: true, game: gameId, approved: players });
    const cases: [Record<string, unknown>, number, string | RegExp][] = [
      [{ format: 'free_for_all', settings: { games: 2 } }, 400, 'Для формату «кожен сам за себе» вкажіть розмір лобі й кількість ігор'],
      [{ format: 'free_for_all', settings: { lobbySize: 4 } }, 400, 'Для формату «кожен сам за себе» вкажіть розмір лобі й кількість ігор'],
      [{ format: 'free_for_all', settings: { lobbySize: 4, games: 2 } }, 422, /^8 учасників не вміщуються в одне лобі/],
      [{ format: 'free_for_all', settings: { lobbySize: 4, games: 2, advance: 3 } }, 422, /^З такою кількістю тих, хто проходить далі/],
      [
        { format: 'free_for_all', settings: { lobbySize: 4, games: 2, advance: 2, points: { win: 3, draw: 1, loss: 0 } } },
        400,
        /^Очки у форматі «кожен сам за себе»/,
      ],
      [{ format: 'round_robin', settings: { lobbySize: 4 } }, 400, /^Розмір лобі, кількість ігор/],
      [{ format: 'round_robin', settings: { points: { placement: [3, 2, 1], kill: 1 } } }, 400, /^Очки за місця й вбивства/],
      [{ format: 'free_for_all', settings: { lobbySize: 1, games: 2 } }, 400, /[а-яіїєґ]/i],
      [{ format: 'free_for_all', settings: { lobbySize: 4, games: 21 } }, 400, /[а-яіїєґ]/i],
      [{ format: 'free_for_all', settings: { lobbySize: 4, games: 2, advance: 2, points: { placement: [], kill: 1 } } }, 400, /[а-яіїєґ]/i],
      [{ format: 'free_for_all', settings: { lobbySize: 4, games: 2, advance: 2, points: { placement: [10, -1], kill: 1 } } }, 400, /[а-яіїєґ]/i],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.call('POST', `/api/tournaments/${cup.id}/stages`, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    expect(await api.db.select().from(stagesTable).where(eq(stagesTable.tournamentId, cup.id))).toEqual([]);
    // One lobby for everyone needs no advance: it is the final.
    const one: StageView = await stage(api, cup.id, { format: 'free_for_all', settings: { lobbySize: 8, games: 1 } });
    expect(one.lobbies).toHaveLength(1);
  });
});

describe('a free-for-all stage in the audit log, and with someone disqualified', () => {
  type Entry = { kind: string; match: string | null; before: unknown; after: unknown };
  const history = async (tournamentId: string) => (await api.call<Entry[]>('GET', `/api/tournaments/${tournamentId}/history`)).body;

  it('records an organiser’s entry and its correction with the names by place, and no row for a player’s proposal', async () => {
    const { cup, created, byId } = await ffaCup(8);
    const lobby = created.lobbies[1]!;
    const name = (id: string) => byId.get(id)!.user.username;
    const member = byId.get(lobby.members[0]!)!;
    expect((await put(lobby._id, 1, finish(lobby.members), member.token)).status).toBe(200);
    expect((await history(cup.id)).filter((e) => e.kind.startsWith('lobbyGame'))).toEqual([]);
    expect((await put(lobby._id, 1, finish(lobby.members))).status).toBe(200);
    const reversed = [...lobby.members].reverse();
    expect((await put(lobby._id, 1, finish(reversed))).status).toBe(200);
    const rows = (await history(cup.id)).filter((e) => e.kind.startsWith('lobbyGame'));
    // Newest first.
    expect(rows).toEqual([
      {
        ...rows[0],
        kind: 'lobbyGameCorrected',
        match: lobby._id,
        before: { round: 1, lobby: 2, final: false, game: 1, order: lobby.members.map(name) },
        after: { round: 1, lobby: 2, final: false, game: 1, order: reversed.map(name) },
      },
      { ...rows[1], kind: 'lobbyGameEntered', match: lobby._id, before: null, after: { round: 1, lobby: 2, final: false, game: 1, order: lobby.members.map(name) } },
    ]);
  });

  it('lets the organisers leave a disqualified member out of the games left, and sends them to no next round', async () => {
    const { cup, created } = await ffaCup(8);
    const [first, second] = created.lobbies;
    const out = first!.members[0]!;
    expect((await api.call('POST', `/api/tournaments/${cup.id}/disqualify`, { token: admin.token, body: { participant: out } })).status).toBe(200);
    const without = first!.members.filter((m) => m !== out);
    // Still needed from everyone else, and the places run over those who played.
    const short = await put(first!._id, 1, finish(without.slice(1)));
    expect(short.status).toBe(422);
    for (const n of [1, 2]) {
      expect((await put(first!._id, n, finish(without))).status).toBe(200);
      expect((await put(second!._id, n, finish(second!.members))).status).toBe(200);
    }
    const final = (await stageOf(cup.id)).lobbies.find((l) => l.round === 2)!;
    expect(final.members).toHaveLength(4);
    expect(final.members).not.toContain(out);
    expect(final.members).toEqual(expect.arrayContaining(without.slice(0, 2)));
  });
});
