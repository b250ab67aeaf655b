import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '../../src/lib/api/notifications.ts';
import type { Team, TeamMessage } from '../../src/lib/api/teams.ts';
import { notifications, teamInvites, teamMembers } from '../../src/server/db/schema/index.ts';
import { DEMO_PASSWORD, seedDemo } from '../../src/server/db/seed.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { invitedTeam, useTestApi, type Player } from '../support/builders.ts';

const api = useTestApi();
const XSS = '<img src=x onerror=alert(1)>';
let counter = 0;
const uniqueName = (prefix = 'Команда') => `${prefix} ${++counter}-${Math.random().toString(36).slice(2, 7)}`;

async function newTeam(captain: Player, name = uniqueName()): Promise<Team> {
  const res = await api.call<TeamMessage>('POST', '/api/teams', { token: captain.token, body: { name } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.team;
}

/** A team of the captain plus `extra` players who joined through invites. */
const teamWith = (extra: number) => invitedTeam(api, extra + 1);

const notificationsOf = (player: Player) => api.call<Notification[]>('GET', '/api/users/me/notifications', { token: player.token });

describe('creating a team', () => {
  it('makes the creator its captain and first member, and lists it under /teams/mine', async () => {
    const captain = await api.signedIn();
    const res = await api.call<TeamMessage>('POST', '/api/teams', { token: captain.token, body: { name: '  Київські Кіборги  ', logoUrl: 'https://cdn.example.com/logo.png' } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Команду створено!');
    expect(res.body.team).toMatchObject({
      name: 'Київські Кіборги',
      logoUrl: 'https://cdn.example.com/logo.png',
      captain: { _id: captain.user.id, username: captain.user.username, email: captain.user.email, avatar: `/api/avatar/${captain.user.id}` },
      members: [{ _id: captain.user.id }],
      invites: [],
    });
    const mine = await api.call<Team[]>('GET', '/api/teams/mine', { token: captain.token });
    expect(mine.status).toBe(200);
    expect(mine.body.map((t) => t._id)).toEqual([res.body.team._id]);
    const me = await api.call('GET', '/api/users/me', { token: captain.token });
    expect(me.body).toMatchObject({ teams: [res.body.team._id], team: res.body.team._id });
  });

  it('requires a name, and says so in the words of the team tab', async () => {
    const captain = await api.signedIn();
    for (const body of [{}, { name: '' }, { name: '   ' }]) {
      const res = await api.call('POST', '/api/teams', { token: captain.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Введіть назву команди');
    }
    const long = await api.call('POST', '/api/teams', { token: captain.token, body: { name: 'я'.repeat(41) } });
    expect(long.status).toBe(400);
    expect(long.body.message).toMatch(/не більше 40/);
    const control = await api.call('POST', '/api/teams', { token: captain.token, body: { name: 'nul\u0000name' } });
    expect(control.status).toBe(400);
    expect((await api.call<Team[]>('GET', '/api/teams/mine', { token: captain.token })).body).toEqual([]);
  });

  it('refuses a name already taken, whatever its case', async () => {
    const first = await api.signedIn();
    const second = await api.signedIn();
    await newTeam(first, 'Dnipro Dragons');
    const res = await api.call('POST', '/api/teams', { token: second.token, body: { name: 'DNIPRO dragons' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Команда з такою назвою вже існує');
  });

  it('takes only http(s) logo links, and no logo at all', async () => {
    const captain = await api.signedIn();
    for (const logoUrl of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/teams/1.png', 'ftp://example.com/x.png']) {
      const res = await api.call('POST', '/api/teams', { token: captain.token, body: { name: uniqueName(), logoUrl } });
      expect(res.status, logoUrl).toBe(400);
      expect(res.body.message).toBe('Посилання на зображення має починатися з http:// або https://');
    }
    for (const logoUrl of ['', null, undefined]) {
      const res = await api.call<TeamMessage>('POST', '/api/teams', { token: captain.token, body: { name: uniqueName(), logoUrl } });
      expect(res.status).toBe(201);
      expect(res.body.team.logoUrl).toBeNull();
    }
  });

  it('gives back a name with HTML in it as inert text', async () => {
    const captain = await api.signedIn();
    const res = await api.call<TeamMessage>('POST', '/api/teams', { token: captain.token, body: { name: XSS } });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.body.team.name).toBe(XSS);
    const mine = await api.call<Team[]>('GET', '/api/teams/mine', { token: captain.token });
    expect(mine.body[0]?.name).toBe(XSS);
  });

  it('needs a signed-in user', async () => {
    expect((await api.call('POST', '/api/teams', { body: { name: uniqueName() } })).status).toBe(401);
    expect((await api.call('GET', '/api/teams/mine')).status).toBe(401);
    expect((await api.call('GET', '/api/teams/mine', { token: 'not-a-real-token' })).status).toBe(401);
  });
});

describe('inviting players', () => {
  it('words the invite in the invitee’s language, not the captain’s', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain, uniqueName('Мовна команда'));
    const reader = await api.signedIn();
    expect((await api.call('PUT', '/api/users/me/locale', { token: reader.token, body: { locale: 'en' } })).status).toBe(200);
    // The captain writes in Ukrainian (the request's language); the invitee reads English.
    expect((await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: reader.user.username } })).status).toBe(201);
    const [text] = await api.db.select({ text: notifications.text }).from(notifications).where(eq(notifications.userId, reader.user.id));
    expect(text?.text).toBe(`The captain of team "${team.name}" invites you to join the team.`);
  });

  it('invites by nickname (any case) or email and notifies the player with accept and decline', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain, uniqueName('Львівські Леви'));
    const byNick = await api.signedIn();
    const byEmail = await api.signedIn();

    const first = await api.call<TeamMessage>('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: byNick.user.username.toUpperCase() } });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe(`Запрошення надіслано гравцю ${byNick.user.username}`);
    const second = await api.call<TeamMessage>('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: ` ${byEmail.user.email} ` } });
    expect(second.status).toBe(201);
    expect(second.body.message).toBe('Якщо ця адреса належить гравцю Кіберарени, він отримає запрошення у сповіщеннях.');
    // An invite by address is the invitee's alone to see: the team's list does not say whose the address is.
    expect(second.body.team.invites.map((i) => i._id)).toEqual([byNick.user.id]);
    expect((await notificationsOf(byEmail)).body[0]).toMatchObject({ actionType: 'acceptTeamInvite', payload: { teamId: team._id } });
    expect(second.body.team.invites[0]).toMatchObject({ username: byNick.user.username, email: byNick.user.email, avatar: `/api/avatar/${byNick.user.id}` });
    expect(second.body.team.invites[0]?.inviteId).toMatch(/^[0-9a-f-]{36}$/);

    const bell = await notificationsOf(byNick);
    expect(bell.body).toHaveLength(1);
    expect(bell.body[0]).toMatchObject({
      text: `Капітан команди «${team.name}» запрошує вас приєднатися до команди.`,
      read: false,
      actionType: 'acceptTeamInvite',
      payload: { teamId: team._id },
      actions: [
        { label: 'Прийняти', type: 'accept' },
        { label: 'Відхилити', type: 'reject' },
      ],
    });
  });

  it('answers an invite by address alike whether the address is a player’s, a member’s, invited already or nobody’s', async () => {
    const { captain, team, members } = await teamWith(1);
    const player = await api.signedIn();
    const url = `/api/teams/${team._id}/invite`;
    const answers = [];
    for (const query of [player.user.email, player.user.email.toUpperCase(), members[0]!.user.email, captain.user.email, 'nobody-here@example.test']) {
      const res = await api.call<TeamMessage>('POST', url, { token: captain.token, body: { query } });
      answers.push({ status: res.status, message: res.body.message, invites: res.body.team.invites });
    }
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]!.status).toBe(201);
    expect(answers[0]!.invites).toEqual([]);
    // Nor can the captain find the hidden invite by the player's id to withdraw it.
    expect((await api.call('DELETE', `/api/teams/${team._id}/invites/${player.user.id}`, { token: captain.token })).status).toBe(404);
    // The player got one invite, and can answer it.
    const accepted = await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: player.token });
    expect(accepted.status).toBe(200);
  });

  it('limits new teams per account, invites per captain and invites per player', async () => {
    const founder = await api.signedIn();
    for (let i = 0; i < 5; i++) expect((await api.call('POST', '/api/teams', { token: founder.token, body: { name: uniqueName(`Ліміт ${i}`) } })).status).toBe(201);
    const sixth = await api.call('POST', '/api/teams', { token: founder.token, body: { name: uniqueName('Шоста') } });
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toMatch(/^Забагато нових команд\. Спробуйте знову через \d+ хвилин/);
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);

    // Ten captains, one invite each, to one player: the eleventh is refused, whoever sends it.
    const target = await api.signedIn();
    const captains = await Promise.all(Array.from({ length: 11 }, async (_, i) => {
      const captain = await api.signedIn();
      return { captain, team: await newTeam(captain, uniqueName(`Зграя ${i}`)) };
    }));
    const sent = await Promise.all(captains.map(({ captain, team }) => api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: target.user.username } })));
    expect(sent.map((r) => r.status).sort()).toEqual([...Array(10).fill(201), 429]);
    expect(sent.find((r) => r.status === 429)?.body.message).toMatch(/^Цей гравець щойно отримав забагато запрошень/);

    // One captain: 30 invites an hour.
    const { captain, team } = captains[0]!;
    const players = await Promise.all(Array.from({ length: 30 }, () => api.signedIn()));
    const many = await Promise.all(players.map((p) => api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: p.user.username } })));
    expect(many.filter((r) => r.status === 429)).toHaveLength(1);
    expect(many.find((r) => r.status === 429)?.body.message).toMatch(/^Забагато запрошень\. Спробуйте знову через/);
  });

  it('answers 404 with a message for a player nobody knows, and asks for a nickname when none is given', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const unknown = await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: 'NoSuchPlayer_404' } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Гравця не знайдено');
    for (const body of [{}, { query: '' }, { query: '   ' }]) {
      const empty = await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Введіть нік!');
    }
  });

  it('refuses a second invite and an invite to a member, captain included, with 409', async () => {
    const { captain, team, members } = await teamWith(1);
    const player = await api.signedIn();
    const url = `/api/teams/${team._id}/invite`;
    expect((await api.call('POST', url, { token: captain.token, body: { query: player.user.username } })).status).toBe(201);
    const again = await api.call('POST', url, { token: captain.token, body: { query: player.user.username.toLowerCase() } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Гравця вже запрошено до цієї команди');
    for (const who of [members[0]!, captain]) {
      const member = await api.call('POST', url, { token: captain.token, body: { query: who.user.username } });
      expect(member.status).toBe(409);
      expect(member.body.message).toBe('Гравець уже в команді');
    }
    const rows = await api.db.select().from(teamInvites).where(eq(teamInvites.teamId, team._id));
    expect(rows).toHaveLength(1);
    expect((await notificationsOf(player)).body).toHaveLength(1);
  });
});

describe('captain-only actions', () => {
  let captain: Player;
  let member: Player;
  let stranger: Player;
  let invited: Player;
  let team: Team;

  beforeAll(async () => {
    const made = await teamWith(2);
    captain = made.captain;
    member = made.members[0]!;
    team = made.team;
    stranger = await api.signedIn();
    invited = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: invited.user.username } });
  });

  const actions = () => [
    { name: 'change the logo', method: 'PATCH', path: `/api/teams/${team._id}/logo`, body: { logoUrl: 'https://example.com/new.png' } },
    { name: 'invite a player', method: 'POST', path: `/api/teams/${team._id}/invite`, body: { query: stranger.user.username } },
    { name: 'withdraw an invite', method: 'DELETE', path: `/api/teams/${team._id}/invites/${invited.user.id}` },
    { name: 'remove a member', method: 'DELETE', path: `/api/teams/${team._id}/members/${member.user.id}` },
  ];

  it('are refused to a member who is not the captain, with 403', async () => {
    for (const action of actions()) {
      const res = await api.call(action.method, action.path, { token: member.token, body: action.body });
      expect(res.status, action.name).toBe(403);
      expect(res.body.message).toBe('Це може зробити лише капітан команди');
    }
  });

  it('are refused to a stranger, with 403', async () => {
    for (const action of actions()) {
      const res = await api.call(action.method, action.path, { token: stranger.token, body: action.body });
      expect(res.status, action.name).toBe(403);
    }
  });

  it('are refused to a non-captain before the body is read: a malformed body still gets 403, not 400', async () => {
    for (const [path, method] of [[`/api/teams/${team._id}/logo`, 'PATCH'], [`/api/teams/${team._id}/invite`, 'POST']] as const) {
      for (const options of [{ body: {} }, { body: { logoUrl: 42, query: ['x'] } }, { raw: '{not json' }]) {
        const res = await api.call(method, path, { token: member.token, ...options });
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.message).toBe('Це може зробити лише капітан команди');
      }
    }
    const unknown = await api.call('PATCH', `/api/teams/${crypto.randomUUID()}/logo`, { token: member.token, body: {} });
    expect(unknown.status).toBe(404);
  });

  it('are refused to a guest, with 401', async () => {
    for (const action of actions()) {
      const res = await api.call(action.method, action.path, { body: action.body });
      expect(res.status, action.name).toBe(401);
    }
  });

  it('changed nothing when refused', async () => {
    const [fresh] = (await api.call<Team[]>('GET', '/api/teams/mine', { token: captain.token })).body;
    expect(fresh?.logoUrl).toBeNull();
    expect(fresh?.members).toHaveLength(3);
    expect(fresh?.members.map((m) => m._id)).toContain(member.user.id);
    expect(fresh?.invites.map((i) => i._id)).toEqual([invited.user.id]);
  });

  it('answer 400 for malformed ids and 404 for unknown teams', async () => {
    const bad = await api.call('PATCH', '/api/teams/not-a-uuid/logo', { token: captain.token, body: { logoUrl: 'https://example.com/a.png' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Некоректний ідентифікатор');
    expect((await api.call('DELETE', `/api/teams/${team._id}/members/42`, { token: captain.token })).status).toBe(400);
    expect((await api.call('DELETE', `/api/teams/${team._id}/invites/xyz`, { token: captain.token })).status).toBe(400);
    const missing = await api.call('POST', `/api/teams/${crypto.randomUUID()}/invite`, { token: captain.token, body: { query: stranger.user.username } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Команду не знайдено');
  });
});

describe('the captain manages the team', () => {
  it('changes the logo, refusing an empty or non-http link', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const url = `/api/teams/${team._id}/logo`;
    for (const body of [{}, { logoUrl: '' }, { logoUrl: '  ' }]) {
      const empty = await api.call('PATCH', url, { token: captain.token, body });
      expect(empty.status).toBe(400);
      expect(empty.body.message).toBe('Введіть посилання на зображення.');
    }
    expect((await api.call('PATCH', url, { token: captain.token, body: { logoUrl: 'javascript:alert(1)' } })).status).toBe(400);
    const ok = await api.call<TeamMessage>('PATCH', url, { token: captain.token, body: { logoUrl: 'http://img.example.com/logo.webp' } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Логотип оновлено!');
    expect(ok.body.team.logoUrl).toBe('http://img.example.com/logo.webp');
  });

  it('withdraws an invite by the invite id or the player id, and its notification with it', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const a = await api.signedIn();
    const b = await api.signedIn();
    const invited = await api.call<TeamMessage>('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: a.user.username } });
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: b.user.username } });
    const inviteId = invited.body.team.invites[0]!.inviteId;

    const byInvite = await api.call<TeamMessage>('DELETE', `/api/teams/${team._id}/invites/${inviteId}`, { token: captain.token });
    expect(byInvite.status).toBe(200);
    expect(byInvite.body.message).toBe('Запрошення скасовано');
    expect(byInvite.body.team.invites.map((i) => i._id)).toEqual([b.user.id]);
    const byPlayer = await api.call<TeamMessage>('DELETE', `/api/teams/${team._id}/invites/${b.user.id}`, { token: captain.token });
    expect(byPlayer.body.team.invites).toEqual([]);
    expect((await notificationsOf(a)).body).toEqual([]);
    expect((await notificationsOf(b)).body).toEqual([]);

    const again = await api.call('DELETE', `/api/teams/${team._id}/invites/${inviteId}`, { token: captain.token });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Запрошення не знайдено');
  });

  it('removes a member, who is told; cannot remove themself; 404 for someone not in the team', async () => {
    const { captain, team, members } = await teamWith(2);
    const [leaving, staying] = members as [Player, Player];
    const res = await api.call<TeamMessage>('DELETE', `/api/teams/${team._id}/members/${leaving.user.id}`, { token: captain.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Гравця видалено з команди');
    expect(res.body.team.members.map((m) => m._id)).toEqual([captain.user.id, staying.user.id]);
    expect((await api.call<Team[]>('GET', '/api/teams/mine', { token: leaving.token })).body).toEqual([]);
    expect((await notificationsOf(leaving)).body.map((n) => n.text)).toContain(`Вас видалено з команди «${team.name}».`);

    const self = await api.call('DELETE', `/api/teams/${team._id}/members/${captain.user.id}`, { token: captain.token });
    expect(self.status).toBe(422);
    expect(self.body.message).toBe('Капітан не може видалити себе з команди');
    const gone = await api.call('DELETE', `/api/teams/${team._id}/members/${leaving.user.id}`, { token: captain.token });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Цього гравця немає в команді');
  });
});

describe('answering an invite', () => {
  it('accepting puts the player in the team, removes the invite and its notification, and tells the captain', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const player = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: player.user.username } });

    const res = await api.call<TeamMessage>('POST', `/api/teams/${team._id}/accept-invite`, { token: player.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Ви приєднались до команди!');
    expect(res.body.team.members.map((m) => m._id)).toEqual([captain.user.id, player.user.id]);
    expect(res.body.team.invites).toEqual([]);
    expect((await notificationsOf(player)).body).toEqual([]);
    expect((await notificationsOf(captain)).body[0]?.text).toBe(`Гравець ${player.user.username} приєднався до команди «${team.name}».`);
    expect((await api.call<Team[]>('GET', '/api/teams/mine', { token: player.token })).body.map((t) => t._id)).toEqual([team._id]);

    const twice = await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: player.token });
    expect(twice.status).toBe(404);
  });

  it('declining removes the invite and its notification, and leaves the team as it was', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const player = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: player.user.username } });
    const res = await api.call('POST', `/api/teams/${team._id}/reject-invite`, { token: player.token });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Запрошення відхилено.');
    const [fresh] = (await api.call<Team[]>('GET', '/api/teams/mine', { token: captain.token })).body;
    expect(fresh?.members).toHaveLength(1);
    expect(fresh?.invites).toEqual([]);
    expect((await notificationsOf(player)).body).toEqual([]);
  });

  it('is only for the invited player: anyone else gets 404 and the invite stays', async () => {
    const { captain, team, members } = await teamWith(1);
    const invited = await api.signedIn();
    const stranger = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: invited.user.username } });
    for (const who of [stranger, members[0]!, captain]) {
      for (const verb of ['accept-invite', 'reject-invite']) {
        const res = await api.call('POST', `/api/teams/${team._id}/${verb}`, { token: who.token });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('Запрошення не знайдено');
      }
    }
    expect((await api.call('POST', `/api/teams/${team._id}/accept-invite`)).status).toBe(401);
    expect((await api.call('POST', '/api/teams/nope/accept-invite', { token: invited.token })).status).toBe(400);
    const unknown = await api.call('POST', `/api/teams/${crypto.randomUUID()}/accept-invite`, { token: invited.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Команду не знайдено');
    const rows = await api.db.select().from(teamInvites).where(eq(teamInvites.teamId, team._id));
    expect(rows.map((r) => r.userId)).toEqual([invited.user.id]);
  });

  it('clears a notification whose invite was already withdrawn', async () => {
    const captain = await api.signedIn();
    const team = await newTeam(captain);
    const player = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: player.user.username } });
    // The invite row goes behind the notification's back (as if withdrawn by an older version).
    await api.db.delete(teamInvites).where(and(eq(teamInvites.teamId, team._id), eq(teamInvites.userId, player.user.id)));
    expect((await notificationsOf(player)).body).toHaveLength(1);
    expect((await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: player.token })).status).toBe(404);
    expect((await notificationsOf(player)).body).toEqual([]);
  });

  it('lets a player belong to several teams; the first joined stays the current one', async () => {
    const { captain: firstCaptain, team: first } = await teamWith(0);
    const secondCaptain = await api.signedIn();
    const second = await newTeam(secondCaptain);
    await api.call('POST', `/api/teams/${first._id}/invite`, { token: firstCaptain.token, body: { query: secondCaptain.user.username } });
    await api.call('POST', `/api/teams/${first._id}/accept-invite`, { token: secondCaptain.token });
    const me = await api.call('GET', '/api/users/me', { token: secondCaptain.token });
    expect(me.body).toMatchObject({ teams: [second._id, first._id], team: second._id });
    const mine = await api.call<Team[]>('GET', '/api/teams/mine', { token: secondCaptain.token });
    expect(mine.body.map((t) => t._id)).toEqual([second._id, first._id]);
  });
});

describe('the team tab\'s poll of /teams/mine', () => {
  // The open tab asks with the last ETag every 6 s (islands/team/store.ts): 304 while nothing changed.
  it('answers 304 to the same ETag, and 200 with the fresh team once a player joins, an invite goes or a member is removed', async () => {
    const { captain, team } = await teamWith(0);
    const poll = async (etag: string | null, token = captain.token) =>
      api.call<Team[]>('GET', '/api/teams/mine', { token, headers: etag ? { 'if-none-match': etag } : {} });
    const first = await poll(null);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    expect((await poll(etag)).status).toBe(304);

    const player = await api.signedIn();
    expect((await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: player.user.username } })).status).toBe(201);
    const invited = await poll(etag);
    expect(invited.status).toBe(200);
    expect(invited.body[0]!.invites.map((i) => i._id)).toEqual([player.user.id]);

    expect((await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: player.token })).status).toBe(200);
    const joined = await poll(invited.headers.get('etag'));
    expect(joined.status).toBe(200);
    expect(joined.body[0]!.members.map((m) => m._id)).toEqual([captain.user.id, player.user.id]);
    expect(joined.body[0]!.invites).toEqual([]);

    // The removed member's own poll loses the team.
    const playerEtag = (await poll(null, player.token)).headers.get('etag');
    expect((await api.call('DELETE', `/api/teams/${team._id}/members/${player.user.id}`, { token: captain.token })).status).toBe(200);
    const removed = await poll(playerEtag, player.token);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual([]);
  });
});

describe('team size', () => {
  it('refuses clearly to accept an invite into a team of 7, keeping the invite', async () => {
    const { captain, team } = await teamWith(5);
    const sixth = await api.signedIn();
    const seventh = await api.signedIn();
    for (const p of [sixth, seventh]) {
      expect((await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: p.user.username } })).status).toBe(201);
    }
    // Six members and two open invites: the first answer fills the last place.
    expect((await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: sixth.token })).status).toBe(200);
    const full = await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: seventh.token });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('У команді вже 7 гравців: більше приєднатися не можна');
    const members = await api.db.select().from(teamMembers).where(eq(teamMembers.teamId, team._id));
    expect(members).toHaveLength(7);
    expect(await api.db.select().from(teamInvites).where(eq(teamInvites.userId, seventh.user.id))).toHaveLength(1);
    expect((await notificationsOf(seventh)).body).toHaveLength(1);
  });

  it('refuses new invites into a full team', async () => {
    const { captain, team } = await teamWith(6);
    const late = await api.signedIn();
    const res = await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: late.user.username } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/7 гравців/);
  });

  it('never lets three players accepting at once push a team of 5 past 7', async () => {
    const { captain, team } = await teamWith(4);
    const racers = [await api.signedIn(), await api.signedIn(), await api.signedIn()];
    for (const p of racers) await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: p.user.username } });
    const answers = await Promise.all(racers.map((p) => api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: p.token })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 409]);
    expect(await api.db.select().from(teamMembers).where(eq(teamMembers.teamId, team._id))).toHaveLength(7);
  });
});

describe('the demo data', () => {
  let demo: TestApi;
  beforeAll(async () => {
    demo = await createTestApi();
    await seedDemo(demo.db);
  });
  afterAll(async () => {
    await demo.close();
  });

  it('has an invite notification the invited player can accept through the bell', async () => {
    const login = await demo.call<{ token: string }>('POST', '/api/auth/login', { body: { loginOrEmail: 'Ternopil_Tiger', password: DEMO_PASSWORD } });
    const token = login.body.token;
    const bell = await demo.call<Notification[]>('GET', '/api/users/me/notifications', { token });
    const invite = bell.body.find((n) => n.actionType === 'acceptTeamInvite');
    expect(invite?.payload.teamId).toBeTruthy();
    const accepted = await demo.call<TeamMessage>('POST', `/api/teams/${invite!.payload.teamId}/accept-invite`, { token });
    expect(accepted.status).toBe(200);
    expect(accepted.body.team.name).toBe('Dnipro Dragons');
    expect(accepted.body.team.members.map((m) => m.username)).toContain('Ternopil_Tiger');
    const left = await demo.db.select().from(notifications).where(eq(notifications.id, invite!._id));
    expect(left).toEqual([]);
  });

  it('shows a demo captain their team with the captain first', async () => {
    const login = await demo.call<{ token: string }>('POST', '/api/auth/login', { body: { loginOrEmail: 'Kyiv_Cyborg', password: DEMO_PASSWORD } });
    const mine = await demo.call<Team[]>('GET', '/api/teams/mine', { token: login.body.token });
    expect(mine.body).toHaveLength(1);
    expect(mine.body[0]).toMatchObject({ name: 'Київські Кіборги', logoUrl: '/teams/1.png', captain: { username: 'Kyiv_Cyborg' } });
    expect(mine.body[0]?.members[0]?.username).toBe('Kyiv_Cyborg');
    expect(mine.body[0]?.members).toHaveLength(6);
  });
});
