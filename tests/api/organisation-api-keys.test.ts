import { createHash } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyCreated, ApiKeyList, ApiKeyRevoked } from '../../src/lib/api/api-keys.ts';
import { API_KEY_REQUESTS_PER_MINUTE, API_KEYS_PER_ORGANISATION } from '../../src/lib/domain/api-keys.ts';
import { applications, auditLog, organisationApiKeys, organisationMembers, organisations, rateLimits } from '../../src/server/db/schema/index.ts';
import { application, game, organisationWithPeople, player, unique, useTestApi, type BuiltOrganisation } from '../support/builders.ts';

/*
 * Organisations' API keys (issue 60, decision 045): made by an organisation's owner and admins,
 * shown once and stored as a SHA-256, revoked at once; as a bearer, a key reads the public API and
 * its own organisation's tournaments' private reads, and with `run` also runs them, within a
 * limit of its own. Everything else answers it 403; a revoked or unknown key 401.
 */

const api = useTestApi();
let gameId: string;
let org: BuiltOrganisation;
let other: BuiltOrganisation;

const keysPath = (o: { id: string }) => `/api/organisations/${o.id}/api-keys`;
const makeKey = (o: BuiltOrganisation, body: unknown, token = o.owner.token) => api.call<ApiKeyCreated>('POST', keysPath(o), { token, body });
async function keyOf(o: BuiltOrganisation, scope: 'read' | 'run', name = unique('Ключ ')) {
  const made = await makeKey(o, { name, scope });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}
/** A solo tournament of the organisation, published by its owner; `approved` players applied and approved by its owner. */
async function cupOf(o: BuiltOrganisation, approved = 0) {
  const made = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
    token: o.owner.token,
    body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: o.id },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const id = made.body.tournament._id;
  const applications: string[] = [];
  for (let i = 0; i < approved; i++) applications.push((await application(api, id)).id);
  return { id, applications };
}
const rowOf = async (keyId: string) => (await api.db.select().from(organisationApiKeys).where(eq(organisationApiKeys.id, keyId)))[0]!;

beforeAll(async () => {
  gameId = await game(api, unique('Гра '));
  org = await organisationWithPeople(api, 'Ключі ');
  other = await organisationWithPeople(api, 'Інші ');
});

describe('making, listing and revoking keys', () => {
  it('shows the secret once and keeps only its SHA-256 and a short prefix', async () => {
    const made = await keyOf(org, 'read', 'Табло на сцені');
    expect(made.secret).toMatch(/^ka_[A-Za-z0-9_-]{43}$/);
    expect(made.message).toBe('Ключ «Табло на сцені» створено');
    expect(made.key).toMatchObject({ name: 'Табло на сцені', scope: 'read', prefix: made.secret.slice(0, 11), lastUsedAt: null, revokedAt: null, createdBy: org.owner.user.username });
    const row = await rowOf(made.key._id);
    expect(row.hash).toBe(createHash('sha256').update(made.secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(made.secret);

    const list = await api.call<ApiKeyList>('GET', keysPath(org), { token: org.admin.token });
    expect(list.status).toBe(200);
    expect(list.headers.get('cache-control')).toContain('no-store');
    expect(list.body.max).toBe(API_KEYS_PER_ORGANISATION);
    const listed = list.body.keys.find((k) => k._id === made.key._id)!;
    expect(listed).toEqual(made.key);
    expect(JSON.stringify(list.body)).not.toContain(made.secret);
    expect(JSON.stringify(list.body)).not.toContain(row.hash);
  });

  it('lets the owner and admins manage keys, and no one else', async () => {
    expect((await makeKey(org, { name: unique('К '), scope: 'run' }, org.admin.token)).status).toBe(201);
    const stranger = await player(api);
    for (const [token, status] of [
      [undefined, 401],
      [org.staff.token, 403],
      [stranger.token, 403],
      [other.owner.token, 403],
    ] as const) {
      expect((await api.call('POST', keysPath(org), { token, body: { name: unique('К '), scope: 'read' } })).status).toBe(status);
      expect((await api.call('GET', keysPath(org), { token })).status).toBe(status);
    }
    const refused = await makeKey(org, { name: unique('К '), scope: 'read' }, org.staff.token);
    expect(refused.body).toEqual({ message: 'Це можуть лише власник і адміністратори організації' });
  });

  it('refuses a bad name or scope, and a live key’s name twice in any case', async () => {
    for (const body of [{ name: '', scope: 'read' }, { name: '   ', scope: 'read' }, { name: 'x'.repeat(61), scope: 'read' }, { name: 'a\u0000b', scope: 'read' }, { name: 'Ключ', scope: 'admin' }, { name: 5, scope: 'read' }, {}]) {
      const res = await makeKey(org, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof (res.body as unknown as { message: string }).message).toBe('string');
    }
    expect((await makeKey(org, { name: 'x'.repeat(60), scope: 'read' })).status).toBe(201);
    await keyOf(org, 'read', 'Сайт ліги');
    const twice = await makeKey(org, { name: 'САЙТ ЛІГИ', scope: 'run' });
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual({ message: 'Ключ із такою назвою в організації вже є' });
    // Another organisation may use the name.
    expect((await makeKey(other, { name: 'Сайт ліги', scope: 'read' })).status).toBe(201);
  });

  it('revokes at once: the key answers 401 and stays listed; its name is free again', async () => {
    const made = await keyOf(org, 'read', 'Тимчасовий');
    const cup = await cupOf(org);
    expect((await api.call('GET', `/api/tournaments/${cup.id}/export/participants.csv`, { token: made.secret })).status).toBe(200);
    const revoked = await api.call<ApiKeyRevoked>('DELETE', `${keysPath(org)}/${made.key._id}`, { token: org.owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe('Ключ «Тимчасовий» відкликано');
    expect(revoked.body.key.revokedAt).not.toBeNull();
    for (const path of [`/api/tournaments/${cup.id}/export/participants.csv`, '/api/tournaments']) {
      const res = await api.call('GET', path, { token: made.secret });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Ключ API недійсний або відкликаний' });
    }
    // Revoking again changes nothing.
    const again = await api.call<ApiKeyRevoked>('DELETE', `${keysPath(org)}/${made.key._id}`, { token: org.owner.token });
    expect(again.status).toBe(200);
    expect(again.body.key.revokedAt).toBe(revoked.body.key.revokedAt);
    const list = await api.call<ApiKeyList>('GET', keysPath(org), { token: org.owner.token });
    expect(list.body.keys.find((k) => k._id === made.key._id)?.revokedAt).toBe(revoked.body.key.revokedAt);
    expect((await makeKey(org, { name: 'Тимчасовий', scope: 'read' })).status).toBe(201);
  });

  it('revokes the keys of a maker who stops managing (made staff, removed, or leaving), keeps an old owner’s, and lists them revoked', async () => {
    const o = await organisationWithPeople(api, 'Ключі людей ');
    const members = (userId: string) => `/api/organisations/${o.id}/members/${userId}`;
    const listed = async () => new Map((await api.call<ApiKeyList>('GET', keysPath(o), { token: o.owner.token })).body.keys.map((k) => [k.name, k.revokedAt]));
    const [second, third] = [await player(api), await player(api)];
    for (const who of [second, third]) {
      expect((await api.call('POST', `/api/organisations/${o.id}/members`, { token: o.owner.token, body: { user: who.user.id, role: 'admin' } })).status).toBe(201);
    }
    const demoted = (await makeKey(o, { name: 'Стане персоналом', scope: 'run' }, o.admin.token)).body;
    const removed = (await makeKey(o, { name: 'Вилучений', scope: 'read' }, second.token)).body;
    const leaving = (await makeKey(o, { name: 'Пішов сам', scope: 'read' }, third.token)).body;
    const owners = (await makeKey(o, { name: 'Власника', scope: 'read' })).body;

    expect((await api.call('PATCH', members(o.admin.user.id), { token: o.owner.token, body: { role: 'staff' } })).status).toBe(200);
    expect((await api.call('DELETE', members(second.user.id), { token: o.owner.token })).status).toBe(200);
    expect((await api.call('DELETE', members(third.user.id), { token: third.token })).status).toBe(200);
    // The owner hands over and stays an admin: their key still works.
    expect((await api.call('PATCH', members(o.admin.user.id), { token: o.owner.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await api.call('PATCH', members(o.admin.user.id), { token: o.owner.token, body: { role: 'owner' } })).status).toBe(200);

    const keys = await listed();
    for (const name of ['Стане персоналом', 'Вилучений', 'Пішов сам']) expect(keys.get(name), name).not.toBeNull();
    expect(keys.get('Власника')).toBeNull();
    for (const made of [demoted, removed, leaving]) expect((await api.call('GET', '/api/tournaments', { token: made.secret })).status).toBe(401);
    expect((await api.call('GET', '/api/tournaments', { token: owners.secret })).status).toBe(200);
    // Made admin again, the maker's old key stays revoked; their names are free for new keys.
    expect((await api.call('GET', '/api/tournaments', { token: demoted.secret })).status).toBe(401);
    expect((await makeKey(o, { name: 'Вилучений', scope: 'read' }, o.admin.token)).status).toBe(201);
  });

  it('finds no key of another organisation’s, and none that does not exist', async () => {
    const theirs = await keyOf(other, 'read');
    const res = await api.call('DELETE', `${keysPath(org)}/${theirs.key._id}`, { token: org.owner.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Такого ключа в організації немає' });
    expect((await rowOf(theirs.key._id)).revokedAt).toBeNull();
    expect((await api.call('DELETE', `${keysPath(org)}/not-a-uuid`, { token: org.owner.token })).status).toBe(400);
  });

  it('holds at most the cap of live keys, also when asked for many at once', async () => {
    const fresh = await organisationWithPeople(api, 'Межа ');
    const results = await Promise.all(Array.from({ length: API_KEYS_PER_ORGANISATION + 5 }, (_, i) => makeKey(fresh, { name: `Ключ ${i}`, scope: 'read' })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(API_KEYS_PER_ORGANISATION);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused.every((r) => r.status === 409)).toBe(true);
    expect(refused[0]!.body).toEqual({ message: `В організації вже ${API_KEYS_PER_ORGANISATION} активних ключів: відкличте непотрібний` });
    const live = await api.db.select().from(organisationApiKeys).where(eq(organisationApiKeys.organisationId, fresh.id));
    expect(live).toHaveLength(API_KEYS_PER_ORGANISATION);
  });
});

describe('a key as the caller', () => {
  it('with read: reads the public API and its own tournaments’ private reads, and writes nothing', async () => {
    const { secret } = await keyOf(org, 'read');
    const cup = await cupOf(org, 2);
    const theirs = await cupOf(other);
    const token = secret;
    expect((await api.call('GET', '/api/tournaments', { token })).status).toBe(200);
    const csv = await api.call<string>('GET', `/api/tournaments/${cup.id}/export/participants.csv`, { token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect((await api.call('GET', `/api/tournaments/${cup.id}/control`, { token })).status).toBe(200);
    // The tournament's page shows its organisers every application, pending ones too; a guest none of those.
    const page = await api.call<{ applications: unknown[] }>('GET', `/api/tournaments/${cup.id}`, { token });
    expect(page.body.applications).toHaveLength(2);
    expect((await api.call<{ applications: unknown[] }>('GET', `/api/tournaments/${cup.id}`)).body.applications).toHaveLength(0);
    expect((await api.call<{ applications: unknown[] }>('GET', `/api/tournaments/${theirs.id}`, { token })).body.applications).toHaveLength(0);

    const readOnly = await api.call('PATCH', `/api/applications/${cup.applications[0]}/status`, { token, body: { status: 'approved' } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body).toEqual({ message: 'Ключ лише для читання: проводити турніри ним не можна' });
    const elsewhere = await api.call('GET', `/api/tournaments/${theirs.id}/export/participants.csv`, { token });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body).toEqual({ message: 'Ключ API діє лише на турнірах своєї організації' });
    for (const [method, path] of [
      ['GET', '/api/users/me'],
      ['GET', '/api/users/me/notifications'],
      ['GET', '/api/teams/mine'],
      ['GET', keysPath(org)],
      ['POST', keysPath(org)],
      ['POST', '/api/applications'],
      ['POST', '/api/auth/login'],
      ['POST', '/api/tournaments'],
      ['GET', '/api/audit'],
    ] as const) {
      const body = { name: 'x', scope: 'run', tournament: cup.id, loginOrEmail: org.owner.user.username, password: org.owner.password };
      const res = await api.call(method, path, { token, ...(method === 'GET' ? {} : { body }) });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ message: 'Ключем API цього зробити не можна: він діє лише в публічному API й на турнірах своєї організації' });
    }
  });

  it('with run: runs its own organisation’s tournaments, named in the audit with its maker', async () => {
    const { secret: token, key } = await keyOf(org, 'run', 'Бот турніру');
    const cup = await cupOf(org, 2);
    for (const id of cup.applications) {
      expect((await api.call('PATCH', `/api/applications/${id}/status`, { token, body: { status: 'approved' } })).status).toBe(200);
    }
    const staged = await api.call<{ stage: { matches: { _id: string; version: number }[] } }>('POST', `/api/tournaments/${cup.id}/stages`, { token, body: { format: 'single_elimination' } });
    expect(staged.status, JSON.stringify(staged.body)).toBe(201);
    const final = staged.body.stage.matches[0]!;
    const result = await api.call('PATCH', `/api/matches/${final._id}`, { token, body: { scoreA: 2, scoreB: 1, version: final.version } });
    expect(result.status, JSON.stringify(result.body)).toBe(200);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tournamentId, cup.id), eq(auditLog.kind, 'resultEntered')))
      .orderBy(desc(auditLog.createdAt));
    expect(entry).toMatchObject({ actorId: org.owner.user.id, actorName: `${org.owner.user.username} · API «${key.name}»` });

    // Not another organisation's, not the host's own powers (editing, publishing), not management.
    const theirs = await cupOf(other, 1);
    const foreign = await api.call('PATCH', `/api/applications/${theirs.applications[0]}/status`, { token, body: { status: 'approved' } });
    expect(foreign.status).toBe(403);
    expect(await rowsOfStatus(theirs.applications[0]!)).toBe('pending');
    expect((await api.call('PUT', `/api/tournaments/${cup.id}`, { token, body: { title: 'Інша назва', date: '2031-03-01', game: gameId } })).status).toBe(403);
    expect((await api.call('DELETE', `/api/tournaments/${cup.id}`, { token })).status).toBe(403);
    expect((await api.call('DELETE', `${keysPath(org)}/${key._id}`, { token })).status).toBe(403);
    expect((await rowOf(key._id)).revokedAt).toBeNull();
  });

  it('notes its last use at most once a minute', async () => {
    const { secret: token, key } = await keyOf(org, 'read');
    expect((await rowOf(key._id)).lastUsedAt).toBeNull();
    await api.call('GET', '/api/tournaments', { token });
    const first = (await rowOf(key._id)).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await api.call('GET', '/api/games', { token });
    expect((await rowOf(key._id)).lastUsedAt).toEqual(first);
    await api.db.update(organisationApiKeys).set({ lastUsedAt: sql`now() - interval '2 minutes'` }).where(eq(organisationApiKeys.id, key._id));
    const before = (await rowOf(key._id)).lastUsedAt!;
    await api.call('GET', '/api/games', { token });
    expect((await rowOf(key._id)).lastUsedAt!.getTime()).toBeGreaterThan(before.getTime());
    const listed = await api.call<ApiKeyList>('GET', keysPath(org), { token: org.owner.token });
    expect(listed.body.keys.find((k) => k._id === key._id)?.lastUsedAt).not.toBeNull();
  });

  it('answers an unknown key 401, a suspended organisation’s 403, and one whose maker no longer manages 401', async () => {
    const unknown = await api.call('GET', '/api/tournaments', { token: `ka_${'A'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ message: 'Ключ API недійсний або відкликаний' });

    const suspended = await organisationWithPeople(api, 'Призупинена ');
    const { secret } = await keyOf(suspended, 'read');
    await api.db.update(organisations).set({ suspendedAt: new Date(), suspendedReason: 'Перевірка' }).where(eq(organisations.id, suspended.id));
    const refused = await api.call('GET', '/api/tournaments', { token: secret });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: 'Організацію призупинено: її ключі API не діють' });
    await api.db.update(organisations).set({ suspendedAt: null, suspendedReason: null }).where(eq(organisations.id, suspended.id));
    expect((await api.call('GET', '/api/tournaments', { token: secret })).status).toBe(200);

    const byAdmin = (await makeKey(suspended, { name: 'Ключ адміна', scope: 'run' }, suspended.admin.token)).body;
    expect((await api.call('GET', '/api/tournaments', { token: byAdmin.secret })).status).toBe(200);
    await api.db.update(organisationMembers).set({ role: 'staff' }).where(and(eq(organisationMembers.organisationId, suspended.id), eq(organisationMembers.userId, suspended.admin.user.id)));
    const made = await makeKey(suspended, { name: 'Ще один', scope: 'read' }, suspended.admin.token);
    expect(made.status).toBe(403);
    expect((await api.call('GET', '/api/tournaments', { token: byAdmin.secret })).status).toBe(401);
  });

  it(`holds a key to ${API_KEY_REQUESTS_PER_MINUTE} requests a minute: then 429 with Retry-After`, async () => {
    const { secret: token, key } = await keyOf(org, 'read');
    expect((await api.call('GET', '/api/games', { token })).status).toBe(200);
    const [counter] = await api.db.select().from(rateLimits).where(eq(rateLimits.key, `api-key:${key._id}`));
    expect(counter?.count).toBe(1);
    await api.db.update(rateLimits).set({ count: API_KEY_REQUESTS_PER_MINUTE }).where(eq(rateLimits.key, `api-key:${key._id}`));
    const refused = await api.call<{ message: string }>('GET', '/api/games', { token });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/^Забагато запитів із цим ключем\. Спробуйте через \d+ (секунд|секунди|секунду|хвилину)/);
    // Another key of the same organisation has a budget of its own.
    const { secret: second } = await keyOf(org, 'read');
    expect((await api.call('GET', '/api/games', { token: second })).status).toBe(200);
  });
});

async function rowsOfStatus(applicationId: string): Promise<string> {
  const [row] = await api.db.select({ status: applications.status }).from(applications).where(eq(applications.id, applicationId));
  return row?.status ?? 'missing';
}
