import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { applications, notifications } from '../../src/server/db/schema/index.ts';
import {
  admin as adminOf,
  game,
  player as newPlayer,
  stage,
  team,
  tournament,
  tournamentStatus,
  useTestApi,
  type Player,
  type TournamentOptions,
} from '../support/builders.ts';

// Registration (issue 22, decision 014): caps and the waitlist, promotions, withdrawals by the
// owner, the registration window, and the races between them.

const api = useTestApi();
let admin: string;
let gameId: string;

const MISSING = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

interface Applied {
  message: string;
  application: { _id: string; status: string };
}
interface Detail {
  maxParticipants: number | null;
  registrationOpensAt: string | null;
  registrationClosesAt: string | null;
  checkInEnabled: boolean;
  checkInOpensAt: string | null;
  checkInClosesAt: string | null;
  confirmationMinutes: number;
  placesTaken: number;
  approved: number;
  waitlisted: number;
  applications: { _id: string; status: string }[];
}

const player = () => newPlayer(api);
const cup = (options: TournamentOptions = {}) => tournament(api, { game: gameId, soloOnly: true, date: inHours(48), ...options });
const capped = (max: number, options: TournamentOptions = {}) => cup({ ...options, settings: { maxParticipants: max, ...options.settings } });
const apply = (who: Player, tournamentId: string, teamId?: string) =>
  api.call<Applied>('POST', '/api/applications', { token: who.token, body: { tournament: tournamentId, ...(teamId ? { team: teamId } : {}) } });
const withdraw = (token: string | undefined, id: string) => api.call('DELETE', `/api/applications/${id}`, { token });
const detail = async (id: string) => (await api.call<Detail>('GET', `/api/tournaments/${id}`, { token: admin })).body;
const statusOf = async (id: string) => (await api.db.select({ status: applications.status }).from(applications).where(eq(applications.id, id)))[0]?.status;
const noticesOf = (userId: string, kind: string) =>
  api.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.kind, kind as 'applicationPromoted')));

/** Players who applied in this order; their applications' ids. */
async function applied(tournamentId: string, count: number) {
  const players: Player[] = [];
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const p = await player();
    const res = await apply(p, tournamentId);
    expect(res.status).toBe(201);
    players.push(p);
    ids.push(res.body.application._id);
  }
  return { players, ids };
}

beforeAll(async () => {
  admin = (await adminOf(api)).token;
  gameId = await game(api, 'Registration');
});

describe('registration settings of a tournament', () => {
  it('are set on create and in the edit form, and shown in the list and the detail', async () => {
    const date = inHours(72);
    const settings = {
      maxParticipants: 16,
      registrationOpensAt: inHours(-1),
      registrationClosesAt: inHours(24),
      checkInEnabled: true,
      checkInOpensAt: inHours(70),
      checkInClosesAt: inHours(71.5),
      confirmationMinutes: 20,
    };
    const t = await cup({ date, settings });
    const read = await detail(t.id);
    expect(read).toMatchObject({ ...settings, placesTaken: 0, approved: 0, waitlisted: 0 });
    const list = await api.call<{ _id: string; maxParticipants: number | null }[]>('GET', `/api/tournaments?game=${gameId}`);
    expect(list.body.find((x) => x._id === t.id)).toMatchObject({ maxParticipants: 16, checkInEnabled: true, confirmationMinutes: 20 });
    // Null clears; what the edit form leaves out stays.
    const put = await api.call<{ tournament: Detail }>('PUT', `/api/tournaments/${t.id}`, {
      token: admin,
      body: { title: t.title, date, game: gameId, maxParticipants: null, checkInOpensAt: null },
    });
    expect(put.status).toBe(200);
    expect(put.body.tournament).toMatchObject({
      maxParticipants: null,
      checkInOpensAt: null,
      checkInClosesAt: settings.checkInClosesAt,
      confirmationMinutes: 20,
    });
  });

  it('default to no cap, no windows, check-in off and 15 minutes to confirm', async () => {
    const t = await cup();
    expect(await detail(t.id)).toMatchObject({
      maxParticipants: null,
      registrationOpensAt: null,
      registrationClosesAt: null,
      checkInEnabled: false,
      checkInOpensAt: null,
      checkInClosesAt: null,
      confirmationMinutes: 15,
    });
  });

  it('refuse a cap or a confirmation time out of range (400)', async () => {
    for (const settings of [
      { maxParticipants: 1 },
      { maxParticipants: 1025 },
      { maxParticipants: 2.5 },
      { maxParticipants: '8' },
      { confirmationMinutes: 0 },
      { confirmationMinutes: 24 * 60 + 1 },
      { checkInEnabled: 'yes' },
      { registrationOpensAt: 'soon' },
    ]) {
      const res = await api.call('POST', '/api/tournaments', { token: admin, body: { title: 'Bad', date: inHours(48), game: gameId, ...settings } });
      expect(res.status, JSON.stringify(settings)).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('refuse windows that do not open before they close, or close after the start (422)', async () => {
    const date = inHours(48);
    const cases: [Record<string, unknown>, string][] = [
      [{ registrationOpensAt: inHours(10), registrationClosesAt: inHours(5) }, 'Реєстрація має відкриватися раніше'],
      [{ registrationClosesAt: inHours(49) }, 'Реєстрація має відкриватися раніше'],
      [{ registrationOpensAt: inHours(50) }, 'Реєстрація має відкриватися раніше'],
      [{ checkInEnabled: true, checkInOpensAt: inHours(47.5), checkInClosesAt: inHours(47) }, 'Реєстрація присутності має'],
      [{ checkInEnabled: true, checkInClosesAt: inHours(49) }, 'Реєстрація присутності має'],
      // The default close (10 minutes before the start) comes before an opening set later.
      [{ checkInEnabled: true, checkInOpensAt: inHours(47.95) }, 'Реєстрація присутності має'],
    ];
    for (const [settings, message] of cases) {
      const res = await api.call('POST', '/api/tournaments', { token: admin, body: { title: 'Bad', date, game: gameId, ...settings } });
      expect(res.status, JSON.stringify(settings)).toBe(422);
      expect(res.body.message).toContain(message);
    }
    // Judged with what is stored: moving the start before the registration's end is refused, and nothing changes.
    const t = await cup({ date, settings: { registrationClosesAt: inHours(24) } });
    const moved = await api.call('PUT', `/api/tournaments/${t.id}`, { token: admin, body: { title: t.title, date: inHours(12), game: gameId } });
    expect(moved.status).toBe(422);
    expect((await detail(t.id)).registrationClosesAt).not.toBeNull();
    // Check-in off: its times are not judged until it is turned on.
    const off = await cup({ date, settings: { checkInOpensAt: inHours(47.9), checkInClosesAt: inHours(47.5) } });
    expect(
      (await api.call('PUT', `/api/tournaments/${off.id}`, { token: admin, body: { title: off.title, date, game: gameId, checkInEnabled: true } })).status,
    ).toBe(422);
  });
});

describe('the cap and the waitlist', () => {
  it('waitlists applications beyond the cap (201, the message says so) and tells the player', async () => {
    const t = await capped(2);
    const { ids } = await applied(t.id, 2);
    const late = await player();
    const res = await apply(late, t.id);
    expect(res.status).toBe(201);
    expect(res.body.application.status).toBe('waitlisted');
    expect(res.body.message).toBe('Усі місця зайняті: заявку додано до списку очікування. Якщо місце звільниться, ви отримаєте сповіщення.');
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending']);
    expect(await detail(t.id)).toMatchObject({ placesTaken: 2, waitlisted: 1 });
    const [notice] = await noticesOf(late.user.id, 'applicationWaitlisted');
    expect(notice).toMatchObject({ link: `/tournaments/${t.id}`, params: { tournament: t.title, tournamentId: t.id } });
    // The player sees where they stand.
    const later = await player();
    await apply(later, t.id);
    const mine = await api.call<{ application: { status: string; position: number } }>('GET', `/api/tournaments/${t.id}/eligibility`, { token: later.token });
    expect(mine.body.application).toMatchObject({ status: 'waitlisted', position: 2, mine: true });
  });

  it('counts approved and pending applications as places, not rejected ones', async () => {
    const t = await capped(2);
    const { ids } = await applied(t.id, 2);
    await api.call('PATCH', `/api/applications/${ids[0]}/status`, { token: admin, body: { status: 'approved' } });
    expect((await apply(await player(), t.id)).body.application.status).toBe('waitlisted');
    // The page says both: the places the two hold, and the one approved (the participants listed).
    expect(await detail(t.id)).toMatchObject({ placesTaken: 2, approved: 1, waitlisted: 1 });
    const other = await capped(2);
    const first = await applied(other.id, 2);
    await api.call('PATCH', `/api/applications/${first.ids[1]}/status`, { token: admin, body: { status: 'rejected' } });
    expect((await apply(await player(), other.id)).body.application.status).toBe('pending');
  });

  it('promotes the earliest waitlisted application when its owner withdraws one that held a place', async () => {
    const t = await capped(2);
    const { players, ids } = await applied(t.id, 4);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending', 'waitlisted', 'waitlisted']);
    const res = await withdraw(players[0]!.token, ids[0]!);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Заявку відкликано');
    expect(await Promise.all(ids.map(statusOf))).toEqual([undefined, 'pending', 'pending', 'waitlisted']);
    const [notice] = await noticesOf(players[2]!.user.id, 'applicationPromoted');
    expect(notice).toMatchObject({ kind: 'applicationPromoted', link: `/tournaments/${t.id}`, params: { tournament: t.title, tournamentId: t.id } });
    expect(await noticesOf(players[3]!.user.id, 'applicationPromoted')).toHaveLength(0);
  });

  it('promotes when the admin rejects or deletes a place-holder, not when a waitlisted one leaves', async () => {
    const t = await capped(2);
    const { ids } = await applied(t.id, 5);
    await api.call('PATCH', `/api/applications/${ids[4]}/status`, { token: admin, body: { status: 'rejected' } });
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending', 'waitlisted', 'waitlisted', 'rejected']);
    expect((await api.call('DELETE', `/api/applications/${ids[3]}`, { token: admin })).status).toBe(200);
    expect(await statusOf(ids[2]!)).toBe('waitlisted');
    await api.call('PATCH', `/api/applications/${ids[0]}/status`, { token: admin, body: { status: 'rejected' } });
    expect(await Promise.all(ids.slice(0, 3).map(statusOf))).toEqual(['rejected', 'pending', 'pending']);
    expect((await api.call('DELETE', `/api/applications/${ids[1]}`, { token: admin })).status).toBe(200);
    expect(await detail(t.id)).toMatchObject({ placesTaken: 1, waitlisted: 0 });
  });

  it('lets the admin approve a waitlisted application only while a place is free', async () => {
    const t = await capped(2);
    const { ids } = await applied(t.id, 3);
    const full = await api.call('PATCH', `/api/applications/${ids[2]}/status`, { token: admin, body: { status: 'approved' } });
    expect(full.status).toBe(409);
    expect(full.body.message).toBe('Усі місця зайнято (їх — 2): щоб схвалити цю заявку, звільніть місце або збільште кількість місць');
    expect(await statusOf(ids[2]!)).toBe('waitlisted');
    // Rejecting a waitlisted one gives no place; approving a pending one takes none more.
    expect((await api.call('PATCH', `/api/applications/${ids[0]}/status`, { token: admin, body: { status: 'approved' } })).status).toBe(200);
    // A rejected one brought back needs a place too.
    await api.call('PATCH', `/api/applications/${ids[1]}/status`, { token: admin, body: { status: 'rejected' } });
    expect(await statusOf(ids[2]!)).toBe('pending');
    expect((await api.call('PATCH', `/api/applications/${ids[1]}/status`, { token: admin, body: { status: 'approved' } })).status).toBe(409);
    const other = await capped(2);
    const more = await applied(other.id, 3);
    await api.call('DELETE', `/api/applications/${more.ids[0]}`, { token: admin });
    // The promotion already took the free place; approve the promoted one directly.
    expect((await api.call('PATCH', `/api/applications/${more.ids[2]}/status`, { token: admin, body: { status: 'approved' } })).status).toBe(200);
  });

  it('moves the waitlist up when the admin adds places or removes the cap', async () => {
    const t = await capped(2);
    const { ids } = await applied(t.id, 5);
    const put = (maxParticipants: number | null) =>
      api.call('PUT', `/api/tournaments/${t.id}`, { token: admin, body: { title: t.title, date: t.date, game: gameId, maxParticipants } });
    expect((await put(3)).status).toBe(200);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending', 'pending', 'waitlisted', 'waitlisted']);
    // Fewer places than taken: nobody loses theirs, new applications wait.
    expect((await put(2)).status).toBe(200);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending', 'pending', 'waitlisted', 'waitlisted']);
    expect((await put(null)).status).toBe(200);
    expect(await Promise.all(ids.map(statusOf))).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);
  });
});

describe('withdrawing an application', () => {
  it('is for its owner: the solo player, or the team captain; anyone else 403, unknown 404', async () => {
    const t = await cup();
    const me = await player();
    const id = (await apply(me, t.id)).body.application._id;
    expect((await withdraw(undefined, id)).status).toBe(401);
    const stranger = await withdraw((await player()).token, id);
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toBe('Відкликати заявку може лише той, хто її подав, або капітан команди');
    expect((await withdraw(me.token, MISSING)).status).toBe(404);
    expect((await withdraw(me.token, 'nope')).status).toBe(400);
    expect((await withdraw(me.token, id)).status).toBe(200);
    expect((await withdraw(me.token, id)).status).toBe(404);
    // The slot is free again.
    expect((await apply(me, t.id)).status).toBe(201);

    const teamCup = await cup({ soloOnly: false });
    const captain = await player();
    const member = await player();
    const built = await team(api, captain, 5, { members: [member.user.id] });
    const teamApplication = (await apply(captain, teamCup.id, built.id)).body.application._id;
    expect((await withdraw(member.token, teamApplication)).status).toBe(403);
    expect((await withdraw(captain.token, teamApplication)).status).toBe(200);
  });

  it('is refused once the tournament started or its competition is drawn (409), an admin may still delete a pending one', async () => {
    const t = await cup({ approved: 2 });
    const me = await player();
    const id = (await apply(me, t.id)).body.application._id;
    await stage(api, t.id, { format: 'single_elimination' });
    const drawn = await withdraw(me.token, id);
    expect(drawn.status).toBe(409);
    expect(drawn.body.message).toBe('Турнір уже розпочався: заявку не можна відкликати');
    expect((await api.call('DELETE', `/api/applications/${id}`, { token: admin })).status).toBe(200);

    const started = await cup();
    const mine = (await apply(me, started.id)).body.application._id;
    await tournamentStatus(api, started, 'started');
    expect((await withdraw(me.token, mine)).status).toBe(409);
    expect(await statusOf(mine)).toBe('pending');
  });
});

describe('the registration window', () => {
  it('refuses applications before it opens and after it closes (409, in Ukrainian), and the eligibility says so', async () => {
    const early = await cup({ settings: { registrationOpensAt: inHours(1) } });
    const me = await player();
    const before = await apply(me, early.id);
    expect(before.status).toBe(409);
    expect(before.body.message).toBe('Реєстрацію на цей турнір ще не відкрито');
    const standing = await api.call<{ refusal: string }>('GET', `/api/tournaments/${early.id}/eligibility`, { token: me.token });
    expect(standing.body.refusal).toBe('registrationNotOpen');

    const late = await cup({ settings: { registrationOpensAt: inHours(-2), registrationClosesAt: inHours(-1) } });
    const after = await apply(me, late.id);
    expect(after.status).toBe(409);
    expect(after.body.message).toBe('Реєстрацію на цей турнір закрито');

    const open = await cup({ settings: { registrationOpensAt: inHours(-1), registrationClosesAt: inHours(1) } });
    expect((await apply(me, open.id)).status).toBe(201);
    expect(await api.db.select().from(applications).where(eq(applications.tournamentId, early.id))).toHaveLength(0);
  });
});

describe('races', () => {
  it('a burst of applications at the cap fills exactly the places; the rest wait in the order they came', async () => {
    const t = await capped(3);
    const players = await Promise.all(Array.from({ length: 8 }, () => player()));
    const answers = await Promise.all(players.map((p) => apply(p, t.id)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    const statuses = answers.map((a) => a.body.application.status);
    expect(statuses.filter((s) => s === 'pending')).toHaveLength(3);
    expect(statuses.filter((s) => s === 'waitlisted')).toHaveLength(5);
    expect(await detail(t.id)).toMatchObject({ placesTaken: 3, waitlisted: 5 });
  });

  it('two withdrawals at once promote two, never overfilling the cap', async () => {
    const t = await capped(2);
    const { players, ids } = await applied(t.id, 5);
    const answers = await Promise.all([withdraw(players[0]!.token, ids[0]!), withdraw(players[1]!.token, ids[1]!)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(await Promise.all(ids.slice(2).map(statusOf))).toEqual(['pending', 'pending', 'waitlisted']);
    expect((await detail(t.id)).placesTaken).toBe(2);
  });

  it('withdrawals and applications racing keep the places at the cap', async () => {
    const t = await capped(3);
    const { players, ids } = await applied(t.id, 4);
    const newcomers = await Promise.all(Array.from({ length: 4 }, () => player()));
    await Promise.all([...newcomers.map((p) => apply(p, t.id)), withdraw(players[0]!.token, ids[0]!), withdraw(players[1]!.token, ids[1]!)]);
    const { placesTaken, waitlisted } = await detail(t.id);
    expect(placesTaken).toBe(3);
    expect(waitlisted).toBe(3);
    // The earliest waitlisted (the fourth applicant) got a place.
    expect(await statusOf(ids[3]!)).toBe('pending');
  });
});
