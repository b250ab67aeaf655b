import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StageView } from '../../src/lib/api/stages.ts';
import { setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { MAX_TOURNAMENT_STAFF } from '../../src/lib/domain/organisers.ts';
import { tournamentStaff } from '../../src/server/db/schema/index.ts';
import { accounts, admin as adminOf, application, coOrganiser, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * Tournament staff (issue 23, decision 016): the admin names co-organisers; for that tournament
 * alone they do what the admin does to decide it, and nothing in another one.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'Valorant');
});

type StaffAnswer = { message: string; staff: { _id: string; username: string; avatar: string }[] };

/** Named by the admin unless `token` says who (null: a guest). */
const add = (tournamentId: string, user: unknown, token: string | null = admin.token) =>
  api.call<StaffAnswer>('POST', `/api/tournaments/${tournamentId}/staff`, { token: token ?? undefined, body: { user } });
const remove = (tournamentId: string, userId: string, token: string | null = admin.token) =>
  api.call<StaffAnswer>('DELETE', `/api/tournaments/${tournamentId}/staff/${userId}`, { token: token ?? undefined });
const list = async (tournamentId: string) => (await api.call<StaffAnswer['staff']>('GET', `/api/tournaments/${tournamentId}/staff`)).body;

const cup = (options: Parameters<typeof tournament>[1] = {}) => tournament(api, { game: gameId, soloOnly: true, ...options });

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await api.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** Everything a refused change could have touched in one tournament: its row, applications, matches, stages, staff and audit rows. */
async function stateOf(tournamentId: string): Promise<string> {
  const [row] = await rows<{ state: unknown }>(sql`select json_build_object(
    'tournament', (select row_to_json(t) from tournaments t where t.id = ${tournamentId}),
    'applications', (select json_agg(a order by a.id) from applications a where a.tournament_id = ${tournamentId}),
    'stages', (select count(*) from stages where tournament_id = ${tournamentId}),
    'matches', (select json_agg(m order by m.id) from stage_matches m join stages s on s.id = m.stage_id where s.tournament_id = ${tournamentId}),
    'staff', (select count(*) from tournament_staff where tournament_id = ${tournamentId}),
    'audit', (select count(*) from audit_log where tournament_id = ${tournamentId}),
    'notifications', (select count(*) from notifications)
  ) as state`);
  return JSON.stringify(row!.state);
}

/** The audit rows of staff changes on the tournament, oldest first. */
const staffAudit = (tournamentId: string) =>
  rows<{ kind: string; actor_id: string; actor_name: string; subject_id: string; before: unknown; after: unknown }>(
    sql`select kind, actor_id, actor_name, subject_id, before, after from audit_log
        where tournament_id = ${tournamentId} and kind in ('staffAdded', 'staffRemoved') order by created_at, id`,
  );

const bellOf = async (person: Player) => (await api.call<{ text: string; link?: string; payload: { tournamentId?: string } }[]>('GET', '/api/users/me/notifications', { token: person.token })).body;

describe('naming and removing co-organisers', () => {
  it('adds by nickname, email or id; anyone reads the list (id, name, avatar, no email); the person is told in the bell with a link', async () => {
    const { id } = await cup();
    const [byName, byEmail, byId] = [await player(api), await player(api), await player(api)];

    const named = await add(id, byName.user.username.toUpperCase());
    expect(named.status).toBe(201);
    expect(named.body.message).toBe(`${byName.user.username} тепер організатор турніру`);
    expect((await add(id, byEmail.user.email)).status).toBe(201);
    expect((await add(id, byId.user.id)).status).toBe(201);

    const shown = await list(id);
    expect(shown.map((s) => s._id)).toEqual([byName.user.id, byEmail.user.id, byId.user.id]);
    expect(Object.keys(shown[0]!).sort()).toEqual(['_id', 'avatar', 'username']);
    expect(JSON.stringify(shown)).not.toContain('@');

    const [notice] = await bellOf(byName);
    expect(notice!.text).toMatch(/^Вас призначено організатором турніру «.+»\.$/);
    expect(notice!.link).toBe(`/tournaments/${id}`);
    expect(notice!.payload.tournamentId).toBe(id);
  });

  it('words the notice in the person’s own language, not the admin’s', async () => {
    const { id } = await cup();
    const reader = await player(api);
    await api.call('PUT', '/api/users/me/locale', { token: reader.token, body: { locale: 'en' } });
    expect((await add(id, reader.user.username)).status).toBe(201);
    expect((await bellOf(reader))[0]!.text).toMatch(/^You were made an organiser of the tournament ".+"\.$/);
  });

  it('tells the person their tournaments in GET /api/users/me (staffOf), and no one else', async () => {
    const [a, b] = [await cup(), await cup()];
    const person = await coOrganiser(api, a.id);
    await coOrganiser(api, b.id, person);
    const me = await api.call<{ staffOf: string[]; role: string }>('GET', '/api/users/me', { token: person.token });
    expect(me.body.staffOf).toEqual([a.id, b.id]);
    expect(me.body.role).toBe('user');
    const stranger = await player(api);
    expect((await api.call<{ staffOf: string[] }>('GET', '/api/users/me', { token: stranger.token })).body.staffOf).toEqual([]);
  });

  it('removes a co-organiser (told in the bell), and the audit log records both changes with who made them', async () => {
    const { id } = await cup();
    const person = await coOrganiser(api, id);
    const removed = await remove(id, person.user.id);
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(`${person.user.username} більше не організатор турніру`);
    expect(removed.body.staff).toEqual([]);
    expect(await list(id)).toEqual([]);
    expect((await bellOf(person))[0]!.text).toMatch(/^Ви більше не організатор турніру «.+»\.$/);

    expect(await staffAudit(id)).toEqual([
      { kind: 'staffAdded', actor_id: admin.user.id, actor_name: admin.user.username, subject_id: person.user.id, before: null, after: { username: person.user.username } },
      { kind: 'staffRemoved', actor_id: admin.user.id, actor_name: admin.user.username, subject_id: person.user.id, before: { username: person.user.username }, after: null },
    ]);
  });

  it('refuses each broken rule with its status and Ukrainian message, and changes nothing', async () => {
    const { id } = await cup();
    const staffer = await coOrganiser(api, id);
    const stranger = await player(api);
    const missing = '00000000-0000-4000-8000-000000000000';
    const cases: [string, () => Promise<{ status: number; body: unknown }>, number, string][] = [
      ['an unknown nickname', () => add(id, 'nobody_here_at_all'), 404, 'Користувача не знайдено'],
      ['an unknown id', () => add(id, missing), 404, 'Користувача не знайдено'],
      ['an unknown tournament', () => add(missing, stranger.user.username), 404, 'Турнір не знайдено'],
      ['someone already staff', () => add(id, staffer.user.email), 409, 'Цей користувач уже організатор турніру'],
      ['an admin', () => add(id, admin.user.username), 409, 'Адміністратор і так організовує кожен турнір'],
      ['an empty name', () => add(id, '   '), 400, 'Вкажіть нікнейм або email'],
      ['a name too long', () => add(id, 'я'.repeat(255)), 400, 'Нікнейм або email — не довше 254 символів'],
      ['a guest', () => add(id, stranger.user.username, null), 401, 'Потрібно увійти'],
      ['a player', () => add(id, stranger.user.username, stranger.token), 403, 'Доступ лише для адміністратора'],
      ['a co-organiser naming another', () => add(id, stranger.user.username, staffer.token), 403, 'Доступ лише для адміністратора'],
      ['removing someone not staff', () => remove(id, stranger.user.id), 404, 'Цей користувач не є організатором турніру'],
      ['removing from an unknown tournament', () => remove(missing, staffer.user.id), 404, 'Турнір не знайдено'],
      ['a guest removing', () => remove(id, staffer.user.id, null), 401, 'Потрібно увійти'],
      ['a co-organiser removing themselves', () => remove(id, staffer.user.id, staffer.token), 403, 'Доступ лише для адміністратора'],
    ];
    for (const [what, call, status, message] of cases) {
      const before = await stateOf(id);
      const res = await call();
      expect(res.status, what).toBe(status);
      expect(res.body, what).toEqual({ message });
      expect(await stateOf(id), what).toBe(before);
    }
  });

  it(`holds at most ${MAX_TOURNAMENT_STAFF} co-organisers (422), and changes nothing when full`, async () => {
    const { id } = await cup();
    for (const userId of await accounts(api, MAX_TOURNAMENT_STAFF)) expect((await add(id, userId)).status).toBe(201);
    const extra = await player(api);
    const before = await stateOf(id);
    const res = await add(id, extra.user.username);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: `У турніру може бути щонайбільше ${MAX_TOURNAMENT_STAFF} співорганізаторів` });
    expect(await stateOf(id)).toBe(before);
  });

  it('adds one row for a burst of the same request: one 201, the rest 409', async () => {
    const { id } = await cup();
    const person = await player(api);
    const answers = await Promise.all(Array.from({ length: 6 }, () => add(id, person.user.username)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const stored = await api.db.select().from(tournamentStaff).where(sql`${tournamentStaff.tournamentId} = ${id}`);
    expect(stored).toHaveLength(1);
    expect((await staffAudit(id)).filter((r) => r.kind === 'staffAdded')).toHaveLength(1);
  });
});

/*
 * Each organiser route, built twice: on a tournament the co-organiser organises (A, where the
 * action succeeds) and on one they do not (B, where it is 403 and changes nothing).
 */
interface Action {
  route: string;
  /** Sets up a fresh tournament and the request to make on it. */
  build: () => Promise<{ tournamentId: string; method: string; path: string; body?: unknown }>;
  /** The status the organiser gets. */
  ok: number;
}

const hour = 3_600_000;
const pendingApplication = async (method: string, suffix: string, body?: unknown) => {
  const { id } = await cup();
  const applied = await application(api, id);
  return { tournamentId: id, method, path: `/api/applications/${applied.id}${suffix}`, body };
};
const checkInCup = async (method: string) => {
  const { id } = await cup({
    date: new Date(Date.now() + 2 * hour).toISOString(),
    settings: { checkInEnabled: true, checkInOpensAt: new Date(Date.now() - hour).toISOString(), checkInClosesAt: new Date(Date.now() + hour).toISOString() },
  });
  const applied = await application(api, id, 'approved');
  if (method === 'DELETE') {
    await api.call('POST', `/api/tournaments/${id}/check-in`, { token: admin.token, body: { applicationId: applied.id } });
  }
  return { tournamentId: id, method, path: `/api/tournaments/${id}/check-in`, body: { applicationId: applied.id } };
};
/** A Swiss stage of four whose first round the admin has played. */
async function swissPlayed() {
  const { id } = await cup({ approved: 4 });
  const made: StageView = await stage(api, id, { format: 'swiss' });
  for (const m of made.matches.filter((x) => x.round === 1)) {
    await api.call('PATCH', `/api/matches/${m._id}`, { token: admin.token, body: { scoreA: 1, scoreB: 0, version: m.version } });
  }
  return { id, stageId: made._id };
}

const ACTIONS: Action[] = [
  { route: 'PATCH /api/applications/:id/status', ok: 200, build: () => pendingApplication('PATCH', '/status', { status: 'approved' }) },
  { route: 'PATCH /api/applications/:id', ok: 200, build: () => pendingApplication('PATCH', '', { status: 'rejected' }) },
  { route: 'DELETE /api/applications/:id', ok: 200, build: () => pendingApplication('DELETE', '') },
  { route: 'POST /api/tournaments/:id/check-in (applicationId)', ok: 200, build: () => checkInCup('POST') },
  { route: 'DELETE /api/tournaments/:id/check-in (applicationId)', ok: 200, build: () => checkInCup('DELETE') },
  {
    route: 'POST /api/tournaments/:id/stages',
    ok: 201,
    build: async () => {
      const { id } = await cup({ approved: 2 });
      return { tournamentId: id, method: 'POST', path: `/api/tournaments/${id}/stages`, body: { format: 'single_elimination' } };
    },
  },
  {
    route: 'PATCH /api/matches/:id',
    ok: 200,
    build: async () => {
      const { id } = await cup({ approved: 2 });
      const [match] = (await stage(api, id, { format: 'single_elimination' })).matches;
      return { tournamentId: id, method: 'PATCH', path: `/api/matches/${match!._id}`, body: { scoreA: 2, scoreB: 0, version: match!.version } };
    },
  },
  {
    route: 'POST /api/tournaments/:id/stages/:stageId/next-round',
    ok: 200,
    build: async () => {
      const { id, stageId } = await swissPlayed();
      return { tournamentId: id, method: 'POST', path: `/api/tournaments/${id}/stages/${stageId}/next-round` };
    },
  },
  {
    route: 'POST /api/tournaments/:id/disqualify',
    ok: 200,
    build: async () => {
      const { id, approved } = await cup({ approved: 3 });
      await stage(api, id, { format: 'round_robin' });
      return { tournamentId: id, method: 'POST', path: `/api/tournaments/${id}/disqualify`, body: { participant: approved[0] } };
    },
  },
  {
    route: 'POST /api/tournaments/:id/stages/:stageId/schedule',
    ok: 200,
    build: async () => {
      const { id } = await cup({ approved: 2 });
      const made = await stage(api, id, { format: 'single_elimination' });
      return { tournamentId: id, method: 'POST', path: `/api/tournaments/${id}/stages/${made._id}/schedule`, body: { start: '2030-05-01T19:00:00+03:00', roundMinutes: 60 } };
    },
  },
  {
    route: 'POST /api/tournaments/:id/bracket',
    ok: 201,
    build: async () => {
      const { id } = await cup({ approved: 2 });
      return { tournamentId: id, method: 'POST', path: `/api/tournaments/${id}/bracket`, body: {} };
    },
  },
  {
    route: 'PATCH /api/tournaments/:id/bracket',
    ok: 200,
    build: async () => {
      const { id } = await cup({ approved: 2 });
      const drawn = await api.call<{ bracket: Bracket; version: number }>('POST', `/api/tournaments/${id}/bracket`, { token: admin.token, body: {} });
      const bracket = setResult(drawn.body.bracket, 0, 0, drawn.body.bracket[0]!.matches[0]!.a!);
      return { tournamentId: id, method: 'PATCH', path: `/api/tournaments/${id}/bracket`, body: { bracket, version: drawn.body.version } };
    },
  },
  {
    route: 'PATCH /api/tournaments/:id/winner',
    ok: 200,
    build: async () => {
      const { id, approved } = await cup({ approved: 2, status: 'finished' });
      return { tournamentId: id, method: 'PATCH', path: `/api/tournaments/${id}/winner`, body: { winnerType: 'user', winnerId: approved[0] } };
    },
  },
];

describe('what a co-organiser may do, and where', () => {
  let staffer: Player;
  beforeAll(async () => {
    staffer = await player(api);
  });

  for (const action of ACTIONS) {
    it(`${action.route}: done on their own tournament, 403 on another one, which keeps everything as it was`, async () => {
      const mine = await action.build();
      await coOrganiser(api, mine.tournamentId, staffer);
      const done = await api.call(mine.method, mine.path, { token: staffer.token, body: mine.body });
      expect(done.status, JSON.stringify(done.body)).toBe(action.ok);

      const theirs = await action.build();
      // Staff of a third tournament too: rights on some tournament are no rights on this one.
      const before = await stateOf(theirs.tournamentId);
      const refused = await api.call<{ message: string }>(theirs.method, theirs.path, { token: staffer.token, body: theirs.body });
      expect(refused.status).toBe(403);
      expect(typeof refused.body.message).toBe('string');
      expect(await stateOf(theirs.tournamentId)).toBe(before);
    });
  }

  it('refuses another tournament’s organiser routes with the organisers’ message, before the body is read', async () => {
    const other = await cup({ approved: 2 });
    const res = await api.call('POST', `/api/tournaments/${other.id}/stages`, { token: staffer.token, raw: '{"broken":' });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Доступ лише для організаторів цього турніру' });
    // A guest is asked to sign in first.
    expect((await api.call('POST', `/api/tournaments/${other.id}/stages`, { raw: '{"broken":' })).status).toBe(401);
  });

  it('sees every application of their tournament (guests see the approved only), and is no organiser of another', async () => {
    const a = await cup({ approved: 1 });
    const b = await cup({ approved: 1 });
    for (const { id } of [a, b]) await application(api, id);
    await coOrganiser(api, a.id, staffer);
    const read = async (id: string) =>
      (await api.call<{ applications: { status: string }[] }>('GET', `/api/tournaments/${id}`, { token: staffer.token })).body.applications.map((x) => x.status).sort();
    expect(await read(a.id)).toEqual(['approved', 'pending']);
    expect(await read(b.id)).toEqual(['approved']);
  });

  it('is refused everything admin-only, on their own tournament too', async () => {
    const own = await cup({ approved: 2 });
    await coOrganiser(api, own.id, staffer);
    const title = { title: 'Інша назва', date: '2030-05-01T16:00:00Z', game: gameId };
    const calls: [string, string, unknown?][] = [
      ['PUT', `/api/tournaments/${own.id}`, title],
      ['DELETE', `/api/tournaments/${own.id}`],
      ['POST', `/api/tournaments/${own.id}/enable-stats`],
      ['POST', `/api/tournaments/${own.id}/record-match`, {}],
      ['GET', '/api/applications'],
      ['POST', '/api/applications/invite', { tournament: own.id, user: staffer.user.id }],
      ['POST', `/api/tournaments/${own.id}/staff`, { user: 'someone' }],
      ['POST', '/api/games', { name: 'Нова гра' }],
      ['POST', '/api/news', { title: 'Новина', content: 'Текст' }],
    ];
    for (const [method, path, body] of calls) {
      const before = await stateOf(own.id);
      const res = await api.call(method, path, { token: staffer.token, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      // Editing and deleting a tournament is its hosts' (issue 56): the admin and its organisation's people.
      const hostsOnly = path === `/api/tournaments/${own.id}` && (method === 'PUT' || method === 'DELETE');
      const message = hostsOnly ? 'Це можуть лише адміністратор сайту та люди організації, що проводить турнір' : 'Доступ лише для адміністратора';
      expect(res.body, `${method} ${path}`).toEqual({ message });
      expect(await stateOf(own.id)).toBe(before);
    }
  });

  it('loses the rights the moment the admin removes them', async () => {
    const { id } = await cup();
    const first = await application(api, id);
    const second = await application(api, id);
    const person = await coOrganiser(api, id);
    expect((await api.call('PATCH', `/api/applications/${first.id}/status`, { token: person.token, body: { status: 'approved' } })).status).toBe(200);
    expect((await remove(id, person.user.id)).status).toBe(200);
    const before = await stateOf(id);
    const res = await api.call('PATCH', `/api/applications/${second.id}/status`, { token: person.token, body: { status: 'approved' } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: 'Доступ лише для організаторів цього турніру' });
    expect(await stateOf(id)).toBe(before);
    expect((await api.call<{ staffOf: string[] }>('GET', '/api/users/me', { token: person.token })).body.staffOf).toEqual([]);
  });
});
