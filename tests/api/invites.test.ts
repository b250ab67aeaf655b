import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { InvitedApplication, Notification } from '../../src/lib/api/notifications.ts';
import { applications, notifications, tournaments } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, application, game, invitedTeam, stage, tournament as built, tournamentStatus, useTestApi, type Player } from '../support/builders.ts';

/* Tournament invites: an admin invites a player or a team; the invited answer from the bell. */

const api = useTestApi();
type InviteAnswer = { message: string; application: InvitedApplication };
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'CS2');
});

const tournament = (options: { soloOnly: boolean; status?: 'pending' | 'started' | 'finished'; title?: string }) => built(api, { game: gameId, ...options });
const invite = (body: object, token = admin.token) => api.call<InviteAnswer>('POST', '/api/applications/invite', { token, body });
const bell = (who: Player) => api.call<Notification[]>('GET', '/api/users/me/notifications', { token: who.token });
const answer = (who: Player | null, id: string, verb: 'accept-invite' | 'reject-invite') =>
  api.call<InviteAnswer>('PATCH', `/api/applications/${id}/${verb}`, who ? { token: who.token } : {});

const teamOf = (size: number) => invitedTeam(api, size);

describe('an admin invites a player into a solo tournament', () => {
  it('creates a pending application and a notification with accept and decline', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true, title: 'Королі AWP' });
    const res = await invite({ tournament: cup.id, user: player.user.id });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Запрошення надіслано');
    expect(res.body.application).toMatchObject({ tournament: cup.id, user: player.user.id, team: null, status: 'pending', comment: 'Запрошення від організатора' });
    const [note] = (await bell(player)).body;
    expect(note).toMatchObject({
      text: 'Вас запрошено взяти участь у турнірі «Королі AWP».',
      actionType: 'acceptTournamentInvite',
      payload: { applicationId: res.body.application._id, tournamentId: cup.id },
      actions: [
        { label: 'Прийняти', type: 'accept' },
        { label: 'Відхилити', type: 'reject' },
      ],
    });
  });

  it('lets the player accept: the application is approved and the notification goes', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const sent = await invite({ tournament: cup.id, user: player.user.id });
    const id = sent.body.application._id;
    const res = await answer(player, id, 'accept-invite');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Запрошення прийнято! Ви берете участь у турнірі.');
    expect(res.body.application.status).toBe('approved');
    expect((await bell(player)).body).toEqual([]);
    // The client deletes the notification too; it is already gone.
    const again = await answer(player, id, 'accept-invite');
    expect(again.status).toBe(404);
  });

  it('lets the player decline: the application is rejected', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const sent = await invite({ tournament: cup.id, user: player.user.id });
    const res = await answer(player, sent.body.application._id, 'reject-invite');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Запрошення відхилено.');
    expect(res.body.application.status).toBe('rejected');
    expect((await bell(player)).body).toEqual([]);
    // Declined, the player may be invited again.
    expect((await invite({ tournament: cup.id, user: player.user.id })).status).toBe(201);
  });

  it('is answered only by the invited player: others get 403, guests 401', async () => {
    const player = await api.signedIn();
    const other = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const id = (await invite({ tournament: cup.id, user: player.user.id })).body.application._id;
    for (const who of [other, admin]) {
      for (const verb of ['accept-invite', 'reject-invite'] as const) {
        const res = await answer(who, id, verb);
        expect(res.status).toBe(403);
        expect((res.body as unknown as { message: string }).message).toBe('Це запрошення адресоване іншому гравцеві');
      }
    }
    expect((await answer(null, id, 'accept-invite')).status).toBe(401);
    const [row] = await api.db.select().from(applications).where(eq(applications.id, id));
    expect(row?.status).toBe('pending');
  });

  it('cannot be used to approve an application the player made themself', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const own = await application(api, cup.id, 'pending', player);
    const res = await answer(player, own.id, 'accept-invite');
    expect(res.status).toBe(404);
    expect((res.body as unknown as { message: string }).message).toBe('Запрошення не знайдено');
    const [row] = await api.db.select().from(applications).where(eq(applications.id, own.id));
    expect(row?.status).toBe('pending');
  });

  it('is moot once an admin has decided the application or the tournament has started', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const id = (await invite({ tournament: cup.id, user: player.user.id })).body.application._id;
    // Written directly: the admin's approval would ring the bell, and this test reads it empty.
    await api.db.update(applications).set({ status: 'approved' }).where(eq(applications.id, id));
    const decided = await answer(player, id, 'reject-invite');
    expect(decided.status).toBe(409);
    expect((decided.body as unknown as { message: string }).message).toMatch(/неактуальне/);
    expect((await bell(player)).body).toEqual([]);

    const late = await api.signedIn();
    const started = await tournament({ soloOnly: true });
    const lateId = (await invite({ tournament: started.id, user: late.user.id })).body.application._id;
    await tournamentStatus(api, started, 'started');
    expect((await answer(late, lateId, 'accept-invite')).status).toBe(409);
    const [row] = await api.db.select().from(applications).where(eq(applications.id, lateId));
    expect(row?.status).toBe('pending');
  });

  it('is moot, and cannot be sent, once the bracket is drawn, whatever the status says', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const id = (await invite({ tournament: cup.id, user: player.user.id })).body.application._id;
    // Written directly: drawing a bracket starts the tournament, and this one must stay pending.
    const drawn = [{ round: 1, matches: [{ a: admin.user.id, b: null, winner: null, loser: null, comment: '' }] }];
    await api.db.update(tournaments).set({ bracket: drawn }).where(eq(tournaments.id, cup.id));
    expect((await answer(player, id, 'accept-invite')).status).toBe(409);
    const [row] = await api.db.select().from(applications).where(eq(applications.id, id));
    expect(row?.status).toBe('pending');

    const another = await api.signedIn();
    const refused = await invite({ tournament: cup.id, user: another.user.id });
    expect(refused.status).toBe(409);
    expect((refused.body as unknown as { message: string }).message).toBe('Сітку вже сформовано — заявки на цей турнір закрито');
    expect((await bell(another)).body).toEqual([]);
  });

  it('answers 400 for a malformed id and 404 for an unknown application', async () => {
    const player = await api.signedIn();
    expect((await answer(player, 'abc', 'accept-invite')).status).toBe(400);
    const unknown = await answer(player, crypto.randomUUID(), 'accept-invite');
    expect(unknown.status).toBe(404);
    expect((unknown.body as unknown as { message: string }).message).toBe('Заявку не знайдено');
  });
});

describe('an admin invites a team into a team tournament', () => {
  it('notifies the captain, whose answer alone counts, and needs 5 to 7 players to accept', async () => {
    const { captain, team, members } = await teamOf(4);
    const league = await tournament({ soloOnly: false, title: 'Київська ліга' });
    const sent = await invite({ tournament: league.id, team: team._id });
    expect(sent.status).toBe(201);
    expect(sent.body.application).toMatchObject({ team: team._id, user: captain.user.id, status: 'pending' });
    const [note] = (await bell(captain)).body.filter((n) => n.actionType === 'acceptTournamentInvite');
    expect(note?.text).toBe(`Команду «${team.name}» запрошено взяти участь у турнірі «Київська ліга».`);

    const id = sent.body.application._id;
    expect((await answer(members[0]!, id, 'accept-invite')).status).toBe(403);
    const small = await answer(captain, id, 'accept-invite');
    expect(small.status).toBe(422);
    expect((small.body as unknown as { message: string }).message).toBe('Для участі в команді має бути від 5 до 7 гравців');

    const fifth = await api.signedIn();
    await api.call('POST', `/api/teams/${team._id}/invite`, { token: captain.token, body: { query: fifth.user.username } });
    await api.call('POST', `/api/teams/${team._id}/accept-invite`, { token: fifth.token });
    const ok = await answer(captain, id, 'accept-invite');
    expect(ok.status).toBe(200);
    expect(ok.body.application.status).toBe('approved');
    const left = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, captain.user.id), eq(notifications.actionType, 'acceptTournamentInvite')));
    expect(left).toEqual([]);
  });
});

describe('sending a tournament invite', () => {
  it('is for admins only', async () => {
    const player = await api.signedIn();
    const cup = await tournament({ soloOnly: true });
    const res = await invite({ tournament: cup.id, user: player.user.id }, player.token);
    expect(res.status).toBe(403);
    expect((await api.call('POST', '/api/applications/invite', { body: { tournament: cup.id, user: player.user.id } })).status).toBe(401);
  });

  it('needs exactly one of a player or a team, of the tournament’s kind', async () => {
    const player = await api.signedIn();
    const { team } = await teamOf(1);
    const solo = await tournament({ soloOnly: true });
    const teams = await tournament({ soloOnly: false });
    const cases: [object, string][] = [
      [{ tournament: solo.id }, 'Вкажіть або гравця (user), або команду (team)'],
      [{ tournament: solo.id, user: player.user.id, team: team._id }, 'Вкажіть або гравця (user), або команду (team)'],
      [{ tournament: solo.id, team: team._id }, 'Це соло-турнір: запросіть гравця, а не команду'],
      [{ tournament: teams.id, user: player.user.id }, 'Це командний турнір: запросіть команду'],
    ];
    for (const [body, message] of cases) {
      const res = await invite(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as unknown as { message: string }).message).toBe(message);
    }
    expect((await invite({ tournament: 'x', user: player.user.id })).status).toBe(400);
  });

  it('answers 404 for an unknown tournament, player or team', async () => {
    const player = await api.signedIn();
    const solo = await tournament({ soloOnly: true });
    const teams = await tournament({ soloOnly: false });
    expect((await invite({ tournament: crypto.randomUUID(), user: player.user.id })).status).toBe(404);
    const nobody = await invite({ tournament: solo.id, user: crypto.randomUUID() });
    expect(nobody.status).toBe(404);
    expect((nobody.body as unknown as { message: string }).message).toBe('Гравця не знайдено');
    expect((await invite({ tournament: teams.id, team: crypto.randomUUID() })).status).toBe(404);
  });

  it('is refused once a stage is drawn, even while the tournament is still pending', async () => {
    const [one, two, late] = [await api.signedIn(), await api.signedIn(), await api.signedIn()];
    const cup = await tournament({ soloOnly: true });
    for (const who of [one, two]) await application(api, cup.id, 'approved', who);
    await stage(api, cup.id, { format: 'round_robin' });
    await tournamentStatus(api, cup, 'pending');
    const res = await invite({ tournament: cup.id, user: late.user.id });
    expect(res.status).toBe(409);
    expect((res.body as unknown as { message: string }).message).toBe('Сітку вже сформовано — заявки на цей турнір закрито');
  });

  it('is refused for a tournament that is not pending and for anyone already applied', async () => {
    const player = await api.signedIn();
    const finished = await tournament({ soloOnly: true, status: 'finished' });
    const res = await invite({ tournament: finished.id, user: player.user.id });
    expect(res.status).toBe(409);
    expect((res.body as unknown as { message: string }).message).toBe('Запросити можна лише на турнір, що очікує початку');

    const cup = await tournament({ soloOnly: true });
    expect((await invite({ tournament: cup.id, user: player.user.id })).status).toBe(201);
    const twice = await invite({ tournament: cup.id, user: player.user.id });
    expect(twice.status).toBe(409);
    expect((twice.body as unknown as { message: string }).message).toBe('На цей турнір уже є заявка, що очікує розгляду або схвалена');
    expect((await bell(player)).body).toHaveLength(1);
  });
});
