import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { notifications, teams } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, game, player as newPlayer, team, tournament, useTestApi, type BuiltTournament, type Player, type TournamentOptions } from '../support/builders.ts';

const api = useTestApi();
let admin: string;
let gameId: string;

const MISSING = '00000000-0000-4000-8000-000000000000';

interface ApplicationBody {
  _id: string;
  tournament: string;
  status: string;
  comment: string;
  createdAt: string;
  user: { _id: string; username: string };
  team: { _id: string; name: string; members: { username: string }[] } | null;
  tournamentTitle?: string;
}

const player = () => newPlayer(api);
/** A team of `size` members, captain included; `members` are put in first, after the captain. */
const makeTeam = async (captain: Player, size: number, members: Player[] = []) => (await team(api, captain, size, { members: members.map((m) => m.user.id) })).id;
/** A tournament of the file's game (made pending, then given `status`). */
const cup = (options: TournamentOptions = {}) => tournament(api, { game: gameId, ...options });

const apply = (who: Player | string, body: Record<string, unknown>) =>
  api.call<{ message: string; application: ApplicationBody }>('POST', '/api/applications', {
    token: typeof who === 'string' ? who : who.token,
    body,
  });

beforeAll(async () => {
  admin = (await adminOf(api)).token;
  gameId = await game(api, 'CS2');
});

describe('solo applications', () => {
  it('need a signed-in player', async () => {
    const t = await cup({ soloOnly: true });
    const res = await api.call('POST', '/api/applications', { body: { tournament: t.id } });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Потрібно увійти');
  });

  it('are accepted once per player while the tournament is pending; a second one is «Заявку вже подано»', async () => {
    const t = await cup({ soloOnly: true });
    const me = await player();
    const first = await apply(me, { tournament: t.id });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe('Заявку подано!');
    expect(first.body.application).toMatchObject({ tournament: t.id, status: 'pending', team: null, user: { _id: me.user.id, username: me.user.username } });
    const second = await apply(me, { tournament: t.id, team: null });
    expect(second.status).toBe(409);
    expect(second.body.message).toBe('Заявку вже подано');
  });

  it('are refused for team tournaments and for tournaments that are not pending', async () => {
    const me = await player();
    const team = await apply(me, { tournament: (await cup({ soloOnly: false })).id });
    expect(team.status).toBe(422);
    expect(team.body.message).toBe('Це командний турнір: заявку подає капітан команди');
    for (const status of ['started', 'finished'] as const) {
      const res = await apply(me, { tournament: (await cup({ soloOnly: true, status })).id });
      expect(res.status, status).toBe(409);
      expect(res.body.message).toBe('Заявки приймаються, лише поки турнір очікує початку');
    }
  });

  it('may be filed again after a rejection, but not while the first is approved', async () => {
    const t = await cup({ soloOnly: true });
    const me = await player();
    const first = await apply(me, { tournament: t.id });
    await api.call('PATCH', `/api/applications/${first.body.application._id}/status`, { token: admin, body: { status: 'rejected' } });
    const again = await apply(me, { tournament: t.id });
    expect(again.status).toBe(201);
    await api.call('PATCH', `/api/applications/${again.body.application._id}`, { token: admin, body: { status: 'approved' } });
    expect((await apply(me, { tournament: t.id })).status).toBe(409);
    // Bringing the rejected one back would make two live applications.
    const revive = await api.call('PATCH', `/api/applications/${first.body.application._id}/status`, { token: admin, body: { status: 'approved' } });
    expect(revive.status).toBe(409);
    expect(revive.body.message).toBe('Заявку вже подано');
  });

  it('answer 404 for an unknown tournament and 400 for bad ids or bodies', async () => {
    const me = await player();
    const missing = await apply(me, { tournament: MISSING });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Турнір не знайдено');
    expect((await apply(me, { tournament: 'abc' })).status).toBe(400);
    expect((await apply(me, {})).status).toBe(400);
    expect((await apply(me, { tournament: 7 })).status).toBe(400);
    expect((await apply(me, { tournament: MISSING, team: 'our-team' })).status).toBe(400);
  });

  it('are decided by the partial unique index when two requests race', async () => {
    const t = await cup({ soloOnly: true });
    const me = await player();
    const results = await Promise.all([apply(me, { tournament: t.id }), apply(me, { tournament: t.id }), apply(me, { tournament: t.id })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('team applications', () => {
  it('are accepted from the captain of a team of 5 to 7', async () => {
    for (const size of [5, 7]) {
      const t = await cup();
      const captain = await player();
      const teamId = await makeTeam(captain, size);
      const res = await apply(captain, { tournament: t.id, team: teamId });
      expect(res.status, `size ${size}`).toBe(201);
      expect(res.body.message).toBe('Заявку від команди подано! Очікуйте підтвердження від організатора.');
      expect(res.body.application.team).toMatchObject({ _id: teamId, captain: captain.user.id });
      expect(res.body.application.team!.members).toHaveLength(size);
      expect(res.body.application.team!.members[0]!.username).toBe(captain.user.username);
    }
  });

  it('are refused for teams of 4 or 8', async () => {
    for (const size of [4, 8]) {
      const t = await cup();
      const captain = await player();
      const res = await apply(captain, { tournament: t.id, team: await makeTeam(captain, size) });
      expect(res.status, `size ${size}`).toBe(422);
      expect(res.body.message).toBe('У команді має бути від 5 до 7 гравців');
    }
  });

  it('are refused from a member who is not the captain, and for someone else’s team', async () => {
    const t = await cup();
    const captain = await player();
    const member = await player();
    const outsider = await player();
    const teamId = await makeTeam(captain, 5, [member]);
    const byMember = await apply(member, { tournament: t.id, team: teamId });
    expect(byMember.status).toBe(403);
    expect(byMember.body.message).toBe('Лише капітан може подати заявку від команди');
    const byOutsider = await apply(outsider, { tournament: t.id, team: teamId });
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body.message).toBe('Лише капітан може подати заявку від команди');
    const missingTeam = await apply(captain, { tournament: t.id, team: MISSING });
    expect(missingTeam.status).toBe(404);
    expect(missingTeam.body.message).toBe('Команду не знайдено');
  });

  it('are refused for solo tournaments and for tournaments that are not pending', async () => {
    const captain = await player();
    const teamId = await makeTeam(captain, 5);
    const solo = await apply(captain, { tournament: (await cup({ soloOnly: true })).id, team: teamId });
    expect(solo.status).toBe(422);
    expect(solo.body.message).toBe('Це турнір для соло-гравців: командні заявки не приймаються');
    const started = await apply(captain, { tournament: (await cup({ status: 'started' })).id, team: teamId });
    expect(started.status).toBe(409);
    expect(started.body.message).toBe('Заявки приймаються, лише поки турнір очікує початку');
  });

  it('count once per team: a second one is «Заявку вже подано», even from a new captain', async () => {
    const t = await cup();
    const captain = await player();
    const successor = await player();
    const teamId = await makeTeam(captain, 6, [successor]);
    expect((await apply(captain, { tournament: t.id, team: teamId })).status).toBe(201);
    const twice = await apply(captain, { tournament: t.id, team: teamId });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe('Заявку вже подано');
    await api.db.update(teams).set({ captainId: successor.user.id }).where(eq(teams.id, teamId));
    expect((await apply(successor, { tournament: t.id, team: teamId })).status).toBe(409);
    // A player of the team may still enter solo tournaments on their own.
    expect((await apply(captain, { tournament: (await cup({ soloOnly: true })).id })).status).toBe(201);
  });
});

describe('the admin list and decisions', () => {
  let t: BuiltTournament;
  let soloT: BuiltTournament;
  let applicant: Player;
  let captain: Player;
  let soloId: string;
  let teamApplicationId: string;
  let teamId: string;

  beforeAll(async () => {
    t = await cup({ title: 'Decision Cup' });
    soloT = await cup({ title: 'Solo Decision Cup', soloOnly: true });
    applicant = await player();
    captain = await player();
    teamId = await makeTeam(captain, 5);
    soloId = (await apply(applicant, { tournament: soloT.id })).body.application._id;
    teamApplicationId = (await apply(captain, { tournament: t.id, team: teamId })).body.application._id;
  });

  it('lists applications for admins only, with the tournament title, by status or tournament', async () => {
    expect((await api.call('GET', '/api/applications')).status).toBe(401);
    expect((await api.call('GET', '/api/applications', { token: applicant.token })).status).toBe(403);
    const all = await api.call<ApplicationBody[]>('GET', '/api/applications', { token: admin });
    expect(all.status).toBe(200);
    expect(all.body.find((a) => a._id === soloId)).toMatchObject({ tournamentTitle: 'Solo Decision Cup', soloOnly: true, tournamentStatus: 'pending', tournamentDrawn: false });
    const ofOne = await api.call<ApplicationBody[]>('GET', `/api/applications?tournament=${t.id}`, { token: admin });
    expect(ofOne.body.map((a) => a._id)).toEqual([teamApplicationId]);
    const pending = await api.call<ApplicationBody[]>('GET', '/api/applications?status=pending', { token: admin });
    expect(pending.body.every((a) => a.status === 'pending')).toBe(true);
    expect((await api.call('GET', '/api/applications?status=maybe', { token: admin })).status).toBe(400);
    expect((await api.call('GET', '/api/applications?tournament=12', { token: admin })).status).toBe(400);
  });

  it('pages the admin list newest first, pointing to the next page until the last', async () => {
    const all = (await api.call<ApplicationBody[]>('GET', '/api/applications', { token: admin })).body;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const created = all.map((a) => Date.parse(a.createdAt));
    expect(created).toEqual([...created].sort((x, y) => y - x));
    const first = await api.call<ApplicationBody[]>('GET', '/api/applications?limit=1', { token: admin });
    expect(first.body).toEqual(all.slice(0, 1));
    expect(first.headers.get('link')).toBe('</api/applications?limit=1&offset=1>; rel="next"');
    const last = await api.call<ApplicationBody[]>('GET', `/api/applications?limit=1&offset=${all.length - 1}`, { token: admin });
    expect(last.body).toEqual(all.slice(-1));
    expect(last.headers.get('link')).toBeNull();
    for (const query of ['limit=0', 'limit=101', 'offset=-1']) {
      expect((await api.call('GET', `/api/applications?${query}`, { token: admin })).status, query).toBe(400);
    }
  });

  it('lets only admins change a status, through either path', async () => {
    for (const path of [`/api/applications/${soloId}/status`, `/api/applications/${soloId}`]) {
      expect((await api.call('PATCH', path, { body: { status: 'approved' } })).status).toBe(401);
      expect((await api.call('PATCH', path, { token: applicant.token, body: { status: 'approved' } })).status).toBe(403);
    }
  });

  it('approves an application, tells the applicant, and the player appears among participants', async () => {
    const before = await api.call<{ applications: ApplicationBody[] }>('GET', `/api/tournaments/${soloT.id}`);
    expect(before.body.applications).toEqual([]);
    const res = await api.call<{ message: string; application: ApplicationBody }>('PATCH', `/api/applications/${soloId}/status`, {
      token: admin,
      body: { status: 'approved' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Заявку схвалено');
    expect(res.body.application.status).toBe('approved');
    const after = await api.call<{ applications: ApplicationBody[] }>('GET', `/api/tournaments/${soloT.id}`);
    expect(after.body.applications.map((a) => a.user.username)).toEqual([applicant.user.username]);
    const notes = await api.db.select().from(notifications).where(eq(notifications.userId, applicant.user.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      text: 'Вашу заявку на турнір «Solo Decision Cup» схвалено.',
      read: false,
      payload: { applicationId: soloId, tournamentId: soloT.id },
    });
    // Saving the same status again tells nobody twice.
    await api.call('PATCH', `/api/applications/${soloId}`, { token: admin, body: { status: 'approved' } });
    expect(await api.db.select().from(notifications).where(eq(notifications.userId, applicant.user.id))).toHaveLength(1);
  });

  it('rejects a team application with a comment and tells its captain', async () => {
    const res = await api.call<{ message: string; application: ApplicationBody }>('PATCH', `/api/applications/${teamApplicationId}`, {
      token: admin,
      body: { status: 'rejected', comment: 'Склад не підтверджено.' },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Заявку відхилено');
    expect(res.body.application).toMatchObject({ status: 'rejected', comment: 'Склад не підтверджено.' });
    const [note] = await api.db.select().from(notifications).where(eq(notifications.userId, captain.user.id));
    const [team] = await api.db.select().from(teams).where(eq(teams.id, teamId));
    expect(note?.text).toBe(`Заявку команди «${team!.name}» на турнір «Decision Cup» відхилено. Коментар: Склад не підтверджено.`);
    expect(note?.payload).toMatchObject({ applicationId: teamApplicationId, tournamentId: t.id, teamId });
  });

  it('validates the status change: only approved or rejected, real ids', async () => {
    for (const status of ['pending', 'accepted', '']) {
      expect((await api.call('PATCH', `/api/applications/${soloId}/status`, { token: admin, body: { status } })).status).toBe(400);
    }
    const missing = await api.call('PATCH', `/api/applications/${MISSING}/status`, { token: admin, body: { status: 'approved' } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Заявку не знайдено');
    expect((await api.call('PATCH', '/api/applications/1/status', { token: admin, body: { status: 'approved' } })).status).toBe(400);
    const long = await api.call('PATCH', `/api/applications/${soloId}`, { token: admin, body: { status: 'rejected', comment: 'x'.repeat(501) } });
    expect(long.status).toBe(400);
  });

  it('deletes applications for admins; another player cannot (the applicant may withdraw: registration.test.ts)', async () => {
    const t2 = await cup({ soloOnly: true });
    const me = await player();
    const id = (await apply(me, { tournament: t2.id })).body.application._id;
    expect((await api.call('DELETE', `/api/applications/${id}`)).status).toBe(401);
    expect((await api.call('DELETE', `/api/applications/${id}`, { token: (await player()).token })).status).toBe(403);
    const res = await api.call('DELETE', `/api/applications/${id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Заявку видалено');
    expect((await api.call('DELETE', `/api/applications/${id}`, { token: admin })).status).toBe(404);
    expect((await api.call('DELETE', '/api/applications/zzz', { token: admin })).status).toBe(400);
    // The slot is free again.
    expect((await apply(me, { tournament: t2.id })).status).toBe(201);
  });
});

describe('the admin list once a competition is drawn (issue 57)', () => {
  it('says the tournament is drawn, so approving is no longer offered', async () => {
    const drawnCup = await cup({ soloOnly: true, approved: 2 });
    const late = (await apply(await player(), { tournament: drawnCup.id })).body.application._id;
    const before = await api.call<{ _id: string; tournamentDrawn: boolean }[]>('GET', `/api/applications?tournament=${drawnCup.id}`, { token: admin });
    expect(before.body.every((a) => !a.tournamentDrawn)).toBe(true);
    expect((await api.call('POST', `/api/tournaments/${drawnCup.id}/stages`, { token: admin, body: { format: 'single_elimination' } })).status).toBe(201);
    const after = await api.call<{ _id: string; tournamentDrawn: boolean }[]>('GET', `/api/applications?tournament=${drawnCup.id}`, { token: admin });
    expect(after.body.map((a) => a.tournamentDrawn)).toEqual([true, true, true]);
    // And the server refuses it as before.
    expect((await api.call('PATCH', `/api/applications/${late}/status`, { token: admin, body: { status: 'approved' } })).status).toBe(409);
  });
});
