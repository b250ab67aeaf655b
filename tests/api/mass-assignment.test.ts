import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applications, chatMessages, teamMembers, teams, tournaments, users } from '../../src/server/db/schema/index.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

/* Issue 10: no body sets a field it should not — role, captain, status, another user's id. */

let api: TestApi;
let admin: Awaited<ReturnType<TestApi['signedIn']>>;
let player: Awaited<ReturnType<TestApi['signedIn']>>;
let other: Awaited<ReturnType<TestApi['signedIn']>>;
let game: string;
let solo: string;
let otherTeam: string;
const unique = () => randomUUID().slice(0, 8);

async function userRow(id: string) {
  const [row] = await api.db.select().from(users).where(eq(users.id, id));
  return row!;
}

beforeAll(async () => {
  api = await createTestApi();
  admin = await api.signedIn('admin');
  player = await api.signedIn();
  other = await api.signedIn();
  const setup = await api.call<{ game: { _id: string } }>('POST', '/api/game-management/setup', { token: admin.token, body: { name: `Гра ${unique()}` } });
  game = setup.body.game._id;
  const created = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
    token: admin.token,
    body: { title: 'Соло', date: '2030-01-01', game, soloOnly: true },
  });
  solo = created.body.tournament._id;
  const team = await api.call<{ team: { _id: string } }>('POST', '/api/teams', { token: other.token, body: { name: `Чужа ${unique()}` } });
  otherTeam = team.body.team._id;
});

afterAll(async () => {
  await api?.close();
});

describe('mass assignment', () => {
  it('registers a plain user whatever role the body names', async () => {
    const username = `sneaky_${unique()}`;
    const res = await api.call('POST', '/api/auth/register', {
      body: { username, email: `${username}@example.test`, password: 'correct-horse-9', role: 'admin', emailConfirmedAt: new Date().toISOString(), confirmed: true },
    });
    expect(res.status).toBeLessThan(500);
    const [row] = await api.db.select().from(users).where(eq(users.username, username));
    if (row) {
      expect(row.role).toBe('user');
      expect(row.emailConfirmedAt).toBeNull();
    }
  });

  it('keeps the role when a user edits the profile', async () => {
    const res = await api.call('PUT', '/api/cabinet/me', { token: player.token, body: { username: `renamed_${unique()}`, role: 'admin', id: other.user.id } });
    expect(res.status).toBeLessThan(500);
    expect((await userRow(player.user.id)).role).toBe('user');
    expect((await userRow(other.user.id)).username).toBe(other.user.username);
    expect((await api.call('GET', '/api/applications', { token: player.token })).status).toBe(403);
  });

  it('creates one’s own pending application, never an approved one or another user’s', async () => {
    const res = await api.call<{ application: { _id: string } }>('POST', '/api/applications', {
      token: player.token,
      body: { tournament: solo, status: 'approved', user: other.user.id, userId: other.user.id, comment: 'сам собі схвалив' },
    });
    expect(res.status).toBe(201);
    const [row] = await api.db.select().from(applications).where(eq(applications.id, res.body.application._id));
    expect(row).toMatchObject({ userId: player.user.id, status: 'pending', tournamentId: solo });
    const ofOther = await api.db.select().from(applications).where(eq(applications.userId, other.user.id));
    expect(ofOther).toEqual([]);
  });

  it('makes the author the captain of a new team, and a logo change keeps the captain', async () => {
    const res = await api.call<{ team: { _id: string } }>('POST', '/api/teams', {
      token: player.token,
      body: { name: `Моя ${unique()}`, captain: other.user.id, captainId: other.user.id, members: [other.user.id] },
    });
    expect(res.status).toBe(201);
    const id = res.body.team._id;
    const logo = await api.call('PATCH', `/api/teams/${id}/logo`, {
      token: player.token,
      body: { logoUrl: 'https://example.test/logo.png', captainId: other.user.id, captain: other.user.id, name: 'Інша назва' },
    });
    expect(logo.status).toBe(200);
    const [row] = await api.db.select().from(teams).where(eq(teams.id, id));
    expect(row!.captainId).toBe(player.user.id);
    const members = await api.db.select().from(teamMembers).where(eq(teamMembers.teamId, id));
    expect(members.map((m) => m.userId)).toEqual([player.user.id]);
  });

  it('posts chat messages as the caller into the team of the path', async () => {
    const mine = await api.call<{ team: { _id: string } }>('POST', '/api/teams', { token: player.token, body: { name: `Чат ${unique()}` } });
    const teamId = mine.body.team._id;
    const res = await api.call('POST', `/api/team/${teamId}/chat`, {
      token: player.token,
      body: { message: 'Привіт', userId: other.user.id, user: other.user.id, teamId: otherTeam, team: otherTeam },
    });
    expect(res.status).toBe(201);
    const rows = await api.db.select().from(chatMessages).where(eq(chatMessages.teamId, teamId));
    expect(rows.map((r) => r.userId)).toEqual([player.user.id]);
    expect(await api.db.select().from(chatMessages).where(eq(chatMessages.teamId, otherTeam))).toEqual([]);
  });

  it('ignores notification ids of other users and bodies on the read-all route', async () => {
    const res = await api.call('POST', '/api/users/me/notifications/read', { token: player.token, body: { userId: other.user.id } });
    expect(res.status).toBe(200);
  });

  it('lets no one but an admin set a tournament’s winner, and no edit body sets it at all', async () => {
    const before = (await api.db.select().from(tournaments).where(eq(tournaments.id, solo)))[0]!;
    const winner = { winnerType: 'user', winnerId: player.user.id, winner: player.user.id, status: 'finished' };
    const asPlayer = await api.call('PUT', `/api/tournaments/${solo}`, { token: player.token, body: { title: 'Моя перемога', date: '2030-01-01', game, ...winner } });
    expect(asPlayer.status).toBe(403);
    expect((await api.call('PATCH', `/api/tournaments/${solo}/winner`, { token: player.token, body: winner })).status).toBe(403);
    let after = (await api.db.select().from(tournaments).where(eq(tournaments.id, solo)))[0]!;
    expect(after).toEqual(before);

    const asAdmin = await api.call('PUT', `/api/tournaments/${solo}`, {
      token: admin.token,
      body: { title: 'Соло', date: '2030-01-01', game, winnerType: 'user', winnerId: player.user.id, bracketVersion: 99, id: randomUUID() },
    });
    expect(asAdmin.status).toBe(200);
    after = (await api.db.select().from(tournaments).where(eq(tournaments.id, solo)))[0]!;
    expect(after).toMatchObject({ id: solo, winnerType: null, winnerId: null, bracketVersion: before.bracketVersion });
  });

  it('refuses version tricks on the bracket', async () => {
    const version = async () => (await api.db.select().from(tournaments).where(eq(tournaments.id, solo)))[0]!.bracketVersion;
    const start = await version();
    for (const bad of [-1, 1.5, '0', null, 1e20]) {
      const res = await api.call('PATCH', `/api/tournaments/${solo}/bracket`, { token: admin.token, body: { bracket: [], version: bad } });
      expect(res.status, String(bad)).toBe(400);
    }
    const stale = await api.call('PATCH', `/api/tournaments/${solo}/bracket`, { token: admin.token, body: { bracket: [], version: start + 5 } });
    expect(stale.status).toBe(409);
    expect(await version()).toBe(start);
    const asPlayer = await api.call('PATCH', `/api/tournaments/${solo}/bracket`, { token: player.token, body: { bracket: [], version: start } });
    expect(asPlayer.status).toBe(403);
    expect(await version()).toBe(start);
  });

  it('treats __proto__ and constructor keys as plain unknown keys: nothing changes, no 500', async () => {
    const name = `Прото ${unique()}`;
    const raw = `{"name":${JSON.stringify(name)},"__proto__":{"captainId":"${other.user.id}","role":"admin"},"constructor":{"prototype":{"role":"admin"}}}`;
    const team = await api.call<{ team: { _id: string } }>('POST', '/api/teams', { token: player.token, raw });
    expect(team.status).toBe(201);
    const [row] = await api.db.select().from(teams).where(eq(teams.id, team.body.team._id));
    expect(row!.captainId).toBe(player.user.id);

    const username = `proto_${unique()}`;
    const register = await api.call('POST', '/api/auth/register', {
      raw: `{"username":"${username}","email":"${username}@example.test","password":"correct-horse-9","__proto__":{"role":"admin"},"constructor":{"prototype":{"role":"admin"}}}`,
    });
    expect(register.status).toBeLessThan(500);
    const [registered] = await api.db.select().from(users).where(eq(users.username, username));
    if (registered) expect(registered.role).toBe('user');

    for (const [method, path, token] of [
      ['PUT', '/api/cabinet/me', player.token],
      ['POST', '/api/applications', player.token],
      ['POST', `/api/team/${otherTeam}/chat`, other.token],
      ['POST', '/api/news', admin.token],
    ] as const) {
      const res = await api.call(method, path, { token, raw: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}' });
      expect(res.status, `${method} ${path}`).toBeLessThan(500);
      expect(res.body, `${method} ${path}`).toHaveProperty('message');
    }
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).role).toBeUndefined();
    expect((await userRow(player.user.id)).role).toBe('user');
  });
});
