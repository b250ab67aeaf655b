import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { OrganisationSaved } from '../../src/lib/api/organisations.ts';
import type { LobbyState, LobbyView } from '../../src/lib/api/stages.ts';
import type { TournamentSaved } from '../../src/lib/api/tournaments.ts';
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, shareCardPath } from '../../src/lib/domain/share-card.ts';
import { PUBLIC_READ } from '../../src/server/api/caching.ts';
import { shareCardContent } from '../../src/server/services/content/share-cards.ts';
import { admin as adminOf, application, game, player, stage, tournament, unique, useTestApi, type Player } from '../support/builders.ts';

/*
 * A free-for-all lobby's own read and share card (issue 59): `GET /api/lobbies/{id}` shows one
 * lobby with its tournament, stage, table, games and names to everyone, as a match is shown;
 * `/api/og/match/{lobbyId}.png` draws it, anew when its table changes.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, unique('PUBG Mobile '));
});

const settings = { lobbySize: 4, games: 2, advance: 2, points: { placement: [10, 6, 5, 4], kill: 1 } };
const read = (lobbyId: string, token?: string) => api.call<LobbyState & { message?: string }>('GET', `/api/lobbies/${lobbyId}`, { token });
const put = (lobbyId: string, n: number, lines: unknown, token: string = admin.token) =>
  api.call<{ message: string; state: string; lobby: LobbyView }>('PUT', `/api/matches/${lobbyId}/games/${n}`, { token, body: { lines } });
/** A game where the members finish in the order given (first wins), each with `kills` (default 1). */
const finish = (order: readonly string[], kills: readonly number[] = []) => order.map((participant, i) => ({ participant, placement: i + 1, kills: kills[i] ?? 1 }));

/** A solo tournament of `n` new players with a free-for-all stage. */
async function ffaCup(n: number, title = unique('Соло-кубок ')) {
  const players = await Promise.all(Array.from({ length: n }, () => player(api)));
  const cup = await tournament(api, { soloOnly: true, game: gameId, title, approved: players });
  const created = await stage(api, cup.id, { format: 'free_for_all', name: 'Лобі', settings });
  return { cup, players, created, byId: new Map(players.map((p) => [p.user.id, p])) };
}

/** The card's answer with its bytes (the test client reads bodies as text). */
async function card(path: string) {
  const response = await api.app.request(path, {}, { clientAddress: '198.51.100.59' });
  return { status: response.status, etag: response.headers.get('etag'), type: response.headers.get('content-type'), bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('GET /api/lobbies/{id}', () => {
  it('shows a lobby to a guest: its tournament, stage and round, its table, games and members’ names, held for guests', async () => {
    const { cup, created, byId } = await ffaCup(8, unique('Кубок Ерангеля '));
    const lobby = created.lobbies[1]!;
    expect((await put(lobby._id, 1, finish(lobby.members, [3]))).status).toBe(200);
    const res = await read(lobby._id);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_READ);
    const { body } = res;
    expect(body.tournament).toEqual({ _id: cup.id, title: cup.title, soloOnly: true, timeZone: null, status: 'started', organisation: null });
    expect(body.stage).toEqual({
      _id: created._id,
      number: 1,
      name: 'Лобі',
      games: 2,
      points: { placement: [10, 6, 5, 4], kill: 1 },
      round: 1,
      lobbies: 2,
      final: false,
      current: true,
    });
    expect(body.lobby).toMatchObject({ _id: lobby._id, round: 1, number: 2, members: lobby.members, complete: false });
    expect(body.lobby.games).toEqual([{ number: 1, lines: finish(lobby.members, [3]) }]);
    // 10 points and 3 kills for the winner; the rest 6, 5, 4 and a kill each.
    expect(body.lobby.table.map((row) => [row.participant, row.points])).toEqual(lobby.members.map((id, i) => [id, [13, 7, 6, 5][i]]));
    // The names as the bracket gives them: its members only, each once.
    expect(body.participants.map((p) => p._id).sort()).toEqual([...lobby.members].sort());
    for (const p of body.participants) expect(p).toMatchObject({ name: byId.get(p._id)!.user.username, type: 'user' });
  });

  it('says which lobby is the final and when a round is over', async () => {
    const { created } = await ffaCup(8);
    for (const lobby of created.lobbies) for (const n of [1, 2]) expect((await put(lobby._id, n, finish(lobby.members))).status).toBe(200);
    const first = await read(created.lobbies[0]!._id);
    expect(first.body.stage).toMatchObject({ round: 1, final: false, current: false });
    expect(first.body.lobby.complete).toBe(true);
    const stages = await api.call<{ stages: { lobbies: LobbyView[] }[] }>('GET', `/api/tournaments/${created.tournament}/stages`);
    const final = stages.body.stages[0]!.lobbies.find((l) => l.round === 2)!;
    const finalRead = await read(final._id);
    expect(finalRead.body.stage).toMatchObject({ round: 2, lobbies: 1, final: true, current: true });
    expect(finalRead.body.lobby.games).toEqual([]);
  });

  it('keeps the players’ proposals out of the public lobby', async () => {
    const { created, byId } = await ffaCup(8);
    const lobby = created.lobbies[0]!;
    const member = byId.get(lobby.members[2]!)!;
    expect((await put(lobby._id, 1, finish(lobby.members), member.token)).body.state).toBe('proposed');
    for (const token of [undefined, member.token, admin.token]) {
      const res = await read(lobby._id, token);
      expect(res.body.lobby.games).toEqual([]);
      expect(res.body.lobby.table.every((row) => row.played === 0)).toBe(true);
    }
  });

  it('answers 404 in Ukrainian for no such lobby, a match or a tournament’s id, and 400 for a malformed id', async () => {
    const { cup } = await ffaCup(2);
    const duel = await tournament(api, { soloOnly: true, game: gameId, approved: 2 });
    const matchId = (await stage(api, duel.id, { format: 'single_elimination' })).matches[0]!._id;
    for (const id of ['00000000-0000-4000-8000-000000000000', matchId, cup.id]) {
      const res = await read(id);
      expect(res.status, id).toBe(404);
      expect(res.body.message).toBe('Лобі не знайдено');
    }
    for (const id of ['not-a-uuid', '1', `${cup.id}x`]) {
      const res = await read(encodeURIComponent(id));
      expect(res.status, id).toBe(400);
      expect(res.body.message).toMatch(/[а-яіїєґ]/i);
    }
  });

  it('answers 404 while the tournament’s organisation is suspended, but to the platform’s admin; its card too', async () => {
    const owner = await player(api);
    const org = await api.call<OrganisationSaved>('POST', '/api/organisations', { token: owner.token, body: { name: unique('Ліга лобі ') } });
    const cupId = (
      await api.call<TournamentSaved>('POST', '/api/tournaments', {
        token: owner.token,
        body: { title: unique('Кубок ліги '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: org.body.organisation._id },
      })
    ).body.tournament._id;
    for (let i = 0; i < 3; i++) await application(api, cupId, 'approved');
    const lobbyId = (await stage(api, cupId, { format: 'free_for_all', settings })).lobbies[0]!._id;
    expect((await read(lobbyId)).body.tournament.organisation).toBe(org.body.organisation._id);
    expect((await card(shareCardPath('match', lobbyId, 'uk'))).status).toBe(200);

    await api.call('PATCH', `/api/organisations/${org.body.organisation._id}`, { token: admin.token, body: { suspended: true, reason: 'Перевірка' } });
    for (const token of [undefined, owner.token]) {
      const hidden = await read(lobbyId, token);
      expect(hidden.status).toBe(404);
      expect(hidden.body.message).toBe('Лобі не знайдено');
    }
    expect((await read(lobbyId, admin.token)).status).toBe(200);
    const hiddenCard = await card(shareCardPath('match', lobbyId, 'uk'));
    expect(hiddenCard.status).toBe(404);

    await api.call('PATCH', `/api/organisations/${org.body.organisation._id}`, { token: admin.token, body: { suspended: false } });
    expect((await read(lobbyId)).status).toBe(200);
  });
});

describe('the share card of a lobby (/api/og/match/{lobbyId}.png)', () => {
  it('draws the lobby: its tournament, «Лобі N · Раунд R», the games played and the top of its table', async () => {
    const { cup, created, byId } = await ffaCup(8, unique('Кубок карток '));
    const lobby = created.lobbies[0]!;
    const site = 'kiberarena.test';
    const before = await shareCardContent(api.db, 'match', lobby._id, 'uk', site);
    expect(before).toEqual({
      kind: 'match',
      label: 'Лобі',
      eyebrow: cup.title,
      title: 'Лобі 1 · Раунд 1',
      versus: null,
      highlight: 'Зіграно ігор: 0 з 2',
      details: [],
      site,
    });
    expect((await put(lobby._id, 1, finish(lobby.members, [12]))).status).toBe(200);
    const name = (i: number) => byId.get(lobby.members[i]!)!.user.username;
    expect(await shareCardContent(api.db, 'match', lobby._id, 'uk', site)).toMatchObject({
      highlight: 'Зіграно ігор: 1 з 2',
      details: [`1. ${name(0)} — 22 оч.`, `2. ${name(1)} — 7 оч.`, `3. ${name(2)} — 6 оч.`],
    });
    expect(await shareCardContent(api.db, 'match', lobby._id, 'en', site)).toMatchObject({
      label: 'Lobby',
      title: 'Lobby 1 · Round 1',
      highlight: 'Games played: 1 of 2',
      details: [`1. ${name(0)} — 22 pts`, `2. ${name(1)} — 7 pts`, `3. ${name(2)} — 6 pts`],
    });
    expect((await put(lobby._id, 2, finish(lobby.members))).status).toBe(200);
    expect(await shareCardContent(api.db, 'match', lobby._id, 'uk', site)).toMatchObject({ highlight: 'Усі ігри зіграно' });
    // The final is named so.
    const stages = await api.call<{ stages: { lobbies: LobbyView[] }[] }>('GET', `/api/tournaments/${cup.id}/stages`);
    const other = stages.body.stages[0]!.lobbies.find((l) => l.round === 1 && l.number === 2)!;
    for (const n of [1, 2]) expect((await put(other._id, n, finish(other.members))).status).toBe(200);
    const final = (await api.call<{ stages: { lobbies: LobbyView[] }[] }>('GET', `/api/tournaments/${cup.id}/stages`)).body.stages[0]!.lobbies.find((l) => l.round === 2)!;
    expect(await shareCardContent(api.db, 'match', final._id, 'uk', site)).toMatchObject({ title: 'Фінальне лобі', highlight: 'Зіграно ігор: 0 з 2' });
  });

  it('is a PNG of 1200×630 whose digest changes once a game is entered, and not for a player’s proposal', async () => {
    const { created, byId } = await ffaCup(8);
    const lobby = created.lobbies[1]!;
    const path = shareCardPath('match', lobby._id, 'uk');
    const first = await card(path);
    expect(first.status).toBe(200);
    expect(first.type).toBe('image/png');
    const meta = await sharp(first.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT]);
    expect(first.etag).toMatch(/^"og-[\w-]+"$/);

    const member = byId.get(lobby.members[0]!)!;
    expect((await put(lobby._id, 1, finish(lobby.members), member.token)).body.state).toBe('proposed');
    expect((await card(path)).etag).toBe(first.etag);

    expect((await put(lobby._id, 1, finish([...lobby.members].reverse()))).body.state).toBe('confirmed');
    const after = await card(path);
    expect(after.status).toBe(200);
    expect(after.etag).not.toBe(first.etag);
    expect(Buffer.from(after.bytes).equals(Buffer.from(first.bytes))).toBe(false);
    // A correction of that game moves the table again: a new card again.
    expect((await put(lobby._id, 1, finish(lobby.members, [5]))).status).toBe(200);
    expect((await card(path)).etag).not.toBe(after.etag);
  });
});
