import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { games, tournaments } from '../../src/server/db/schema/index.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
let admin: string;
let player: string;

beforeAll(async () => {
  admin = (await api.signedIn('admin')).token;
  player = (await api.signedIn('user')).token;
});

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('games', () => {
  it('lists games publicly, as an array of _id, name and image, cacheable for guests', async () => {
    await api.call('POST', '/api/games', { token: admin, body: { name: 'Zeta Arena', image: '/games/cs2.jpg' } });
    await api.call('POST', '/api/games', { token: admin, body: { name: 'Alpha Strike' } });
    const res = await api.call<{ _id: string; name: string; image: string | null }[]>('GET', '/api/games');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    const names = res.body.map((g) => g.name);
    expect(names.indexOf('Alpha Strike')).toBeLessThan(names.indexOf('Zeta Arena'));
    expect(res.body.find((g) => g.name === 'Zeta Arena')).toEqual({ _id: expect.any(String), name: 'Zeta Arena', image: '/games/cs2.jpg' });
    expect(res.body.find((g) => g.name === 'Alpha Strike')?.image).toBeNull();
    expect(res.headers.get('cache-control')).toContain('s-maxage=30');
    const signedIn = await api.call('GET', '/api/games', { token: player });
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store');
  });

  it('lets only admins add games: guests get 401, players 403', async () => {
    const guest = await api.call('POST', '/api/games', { body: { name: 'Guest Game' } });
    expect(guest.status).toBe(401);
    expect(guest.body.message).toBe('Потрібно увійти');
    const user = await api.call('POST', '/api/games', { token: player, body: { name: 'Player Game' } });
    expect(user.status).toBe(403);
    expect(user.body.message).toBe('Доступ лише для адміністратора');
    const created = await api.call<{ message: string; game: { _id: string; name: string } }>('POST', '/api/games', {
      token: admin,
      body: { name: '  Rocket League  ', image: 'https://cdn.example.com/rl.png' },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Гру додано!');
    expect(created.body.game).toMatchObject({ name: 'Rocket League', image: 'https://cdn.example.com/rl.png' });
  });

  it('validates the body: the name is required, images are http(s) links or site paths', async () => {
    const noName = await api.call('POST', '/api/games', { token: admin, body: { name: '   ' } });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('Поле «Назва» обовʼязкове');
    for (const image of ['javascript:alert(1)', '//evil.example/x.png', 'games/cs2.jpg', 'data:image/png;base64,AAAA']) {
      const res = await api.call('POST', '/api/games', { token: admin, body: { name: `Game ${image.length}`, image } });
      expect(res.status, image).toBe(400);
      expect(res.body.message).toMatch(/Зображення/);
    }
    const wrongType = await api.call('POST', '/api/games', { token: admin, body: { name: 42 } });
    expect(wrongType.status).toBe(400);
  });

  it('refuses a second game with the same name, whatever the case', async () => {
    await api.call('POST', '/api/games', { token: admin, body: { name: 'Starcraft' } });
    const again = await api.call('POST', '/api/games', { token: admin, body: { name: 'STARCRAFT' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Гра з такою назвою вже існує');
  });

  it('renames a game and changes or removes its picture (admin only)', async () => {
    const created = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Old Name', image: '/x.png' } });
    const id = created.body.game._id;
    expect((await api.call('PUT', `/api/games/${id}`, { body: { name: 'New' } })).status).toBe(401);
    expect((await api.call('PUT', `/api/games/${id}`, { token: player, body: { name: 'New' } })).status).toBe(403);

    const kept = await api.call<{ message: string; game: { name: string; image: string | null } }>('PUT', `/api/games/${id}`, {
      token: admin,
      body: { name: 'New Name' },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.message).toBe('Гру оновлено!');
    expect(kept.body.game).toMatchObject({ name: 'New Name', image: '/x.png' });
    const removed = await api.call<{ game: { image: string | null } }>('PUT', `/api/games/${id}`, { token: admin, body: { name: 'New Name', image: '' } });
    expect(removed.body.game.image).toBeNull();

    await api.call('POST', '/api/games', { token: admin, body: { name: 'Taken' } });
    expect((await api.call('PUT', `/api/games/${id}`, { token: admin, body: { name: 'taken' } })).status).toBe(409);
    expect((await api.call('PUT', `/api/games/${MISSING}`, { token: admin, body: { name: 'Nobody' } })).status).toBe(404);
    const badId = await api.call('PUT', '/api/games/not-a-uuid', { token: admin, body: { name: 'Nobody' } });
    expect(badId.status).toBe(400);
    expect(badId.body.message).toBe('Некоректний ідентифікатор');
  });

  it('deletes a game without tournaments, and refuses one with tournaments (409), keeping both', async () => {
    const lone = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Lonely' } });
    expect((await api.call('DELETE', `/api/games/${lone.body.game._id}`)).status).toBe(401);
    expect((await api.call('DELETE', `/api/games/${lone.body.game._id}`, { token: player })).status).toBe(403);
    const deleted = await api.call('DELETE', `/api/games/${lone.body.game._id}`, { token: admin });
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe('Гру видалено');
    expect((await api.call('DELETE', `/api/games/${lone.body.game._id}`, { token: admin })).status).toBe(404);

    const busy = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Busy' } });
    const gameId = busy.body.game._id;
    const tournament = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: admin,
      body: { title: 'Busy Cup', date: '2030-01-01', game: gameId },
    });
    await api.call('POST', '/api/tournaments', { token: admin, body: { title: 'Busy Cup 2', date: '2030-02-01', game: gameId } });
    const refused = await api.call('DELETE', `/api/games/${gameId}`, { token: admin });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Не можна видалити гру: до неї привʼязано турнірів — 2. Спершу видаліть їх або перенесіть на іншу гру.',
    );
    const games = await api.call<{ _id: string }[]>('GET', '/api/games');
    expect(games.body.some((g) => g._id === gameId)).toBe(true);
    const stillThere = await api.call('GET', `/api/tournaments/${tournament.body.tournament._id}`);
    expect(stillThere.status).toBe(200);
  });

  it('answers a tournament made while its game is being deleted 404, not 500, and stores nothing', async () => {
    const doomed = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: `Doomed ${Date.now()}` } });
    const gameId = doomed.body.game._id;
    let deleting!: () => void;
    const deleted = new Promise<void>((done) => (deleting = done));
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    // The game's deletion holds its row until it commits, as an admin's would.
    const deletion = api.db.transaction(async (tx) => {
      await tx.delete(games).where(eq(games.id, gameId));
      deleting();
      await released;
    });
    await deleted;
    const creating = api.call<{ message: string }>('POST', '/api/tournaments', { token: admin, body: { title: 'Doomed Cup', date: '2030-01-01', game: gameId } });
    // Long enough for the request to reach the held row on PostgreSQL (on PGlite it waits for the transaction anyway).
    await new Promise((done) => setTimeout(done, 300));
    release();
    await deletion;
    const created = await creating;
    expect([created.status, created.body.message]).toEqual([404, 'Гру не знайдено']);
    expect(await api.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.gameId, gameId))).toEqual([]);
  });
});
