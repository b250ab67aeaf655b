import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/lib/api/notifications.ts';
import { notifications } from '../../src/server/db/schema/index.ts';
import { notify } from '../../src/server/services/notices/notifications.ts';
import { useTestApi, type Player } from '../support/builders.ts';

const api = useTestApi();
let alice: Player;
let bob: Player;

beforeAll(async () => {
  alice = await api.signedIn();
  bob = await api.signedIn();
  await notify(api.db, alice.user.id, 'Перше сповіщення');
  await new Promise((resolve) => setTimeout(resolve, 5));
  await notify(api.db, alice.user.id, 'Друге сповіщення', { payload: { tournamentId: crypto.randomUUID() } });
  await notify(api.db, bob.user.id, 'Сповіщення Боба');
});

const list = (who: Player) => api.call<Notification[]>('GET', '/api/users/me/notifications', { token: who.token });

describe('notifications', () => {
  it('lists only the caller’s own, newest first, in the shape of SPEC §3', async () => {
    const res = await list(alice);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.map((n) => n.text)).toEqual(['Друге сповіщення', 'Перше сповіщення']);
    expect(res.body[1]).toEqual({
      _id: expect.any(String),
      text: 'Перше сповіщення',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      read: false,
      actions: [],
      actionType: null,
      payload: {},
    });
    expect((await list(bob)).body.map((n) => n.text)).toEqual(['Сповіщення Боба']);
  });

  it('marks all of the caller’s notifications read, and nobody else’s', async () => {
    const res = await api.call('POST', '/api/users/me/notifications/read', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Усі сповіщення позначено як прочитані');
    expect((await list(alice)).body.every((n) => n.read)).toBe(true);
    expect((await list(bob)).body.every((n) => !n.read)).toBe(true);
    // Again, with nothing left unread, it still succeeds.
    expect((await api.call('POST', '/api/users/me/notifications/read', { token: alice.token })).status).toBe(200);
  });

  it('deletes the caller’s own notification', async () => {
    const [first] = (await list(alice)).body;
    const res = await api.call('DELETE', `/api/users/me/notifications/${first!._id}`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Сповіщення видалено');
    expect((await list(alice)).body.map((n) => n._id)).not.toContain(first!._id);
    expect((await api.call('DELETE', `/api/users/me/notifications/${first!._id}`, { token: alice.token })).status).toBe(404);
  });

  it('answers 404 for someone else’s notification and leaves it alone', async () => {
    const [bobs] = (await list(bob)).body;
    const res = await api.call('DELETE', `/api/users/me/notifications/${bobs!._id}`, { token: alice.token });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Сповіщення не знайдено');
    expect(await api.db.select().from(notifications).where(eq(notifications.id, bobs!._id))).toHaveLength(1);
  });

  it('answers 400 for a malformed id', async () => {
    const res = await api.call('DELETE', '/api/users/me/notifications/12', { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Некоректний ідентифікатор');
  });

  it('needs a signed-in user for every call', async () => {
    expect((await api.call('GET', '/api/users/me/notifications')).status).toBe(401);
    expect((await api.call('POST', '/api/users/me/notifications/read')).status).toBe(401);
    expect((await api.call('DELETE', `/api/users/me/notifications/${crypto.randomUUID()}`)).status).toBe(401);
  });

  it('does not take the /users/me route over', async () => {
    const me = await api.call('GET', '/api/users/me', { token: alice.token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(alice.user.username);
  });
});
