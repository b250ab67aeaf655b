import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { applications, auditLog, notifications, tournaments } from '../../src/server/db/schema/index.ts';
import { subscribeTournament, subscribeUser } from '../../src/server/services/live/live.ts';
import { closeCheckIn, sweepCheckIn } from '../../src/server/services/match-day/registration.ts';
import { admin as adminOf, game, player as newPlayer, stage, team, tournament, useTestApi, type Player, type TournamentOptions } from '../support/builders.ts';

// Check-in (issue 22, decision 014): who may check in and when, the admin's override, the close
// (drops and promotions, exactly once), the sweep's notices, and stages seeding only the checked in.

const api = useTestApi();
let admin: string;
let gameId: string;

const MISSING = '00000000-0000-4000-8000-000000000000';
const HOUR = 3_600_000;
const inHours = (h: number) => new Date(Date.now() + h * HOUR).toISOString();

interface CheckedIn {
  message: string;
  application: { _id: string; status: string; checkedInAt: string | null };
}

const player = () => newPlayer(api);
/** A solo tournament starting in two hours whose check-in window is open now (unless told otherwise). */
const cup = (options: TournamentOptions = {}) =>
  tournament(api, {
    game: gameId,
    soloOnly: true,
    date: inHours(2),
    ...options,
    settings: { checkInEnabled: true, checkInOpensAt: inHours(-1), checkInClosesAt: inHours(1), ...options.settings },
  });
const checkIn = (token: string | undefined, tournamentId: string, body?: Record<string, unknown>) =>
  api.call<CheckedIn>('POST', `/api/tournaments/${tournamentId}/check-in`, { token, ...(body ? { body } : {}) });
const checkOut = (token: string | undefined, tournamentId: string, body?: Record<string, unknown>) =>
  api.call<CheckedIn>('DELETE', `/api/tournaments/${tournamentId}/check-in`, { token, ...(body ? { body } : {}) });
const apply = async (who: Player, tournamentId: string) =>
  (await api.call<{ application: { _id: string; status: string } }>('POST', '/api/applications', { token: who.token, body: { tournament: tournamentId } })).body
    .application;
const approve = (id: string) => api.call('PATCH', `/api/applications/${id}/status`, { token: admin, body: { status: 'approved' } });
const row = async (id: string) => (await api.db.select().from(applications).where(eq(applications.id, id)))[0];
/** Players approved in this order, and their applications. */
async function approved(tournamentId: string, count: number) {
  const list: { player: Player; id: string }[] = [];
  for (let i = 0; i < count; i++) {
    const p = await player();
    const { _id } = await apply(p, tournamentId);
    await approve(_id);
    list.push({ player: p, id: _id });
  }
  return list;
}
/** Moves a tournament's check-in window (a state no route reaches once it has passed: the edit form refuses windows after the start). */
const setWindow = (id: string, opens: string, closes: string) =>
  api.db
    .update(tournaments)
    .set({ checkInOpensAt: new Date(opens), checkInClosesAt: new Date(closes) })
    .where(eq(tournaments.id, id));

beforeAll(async () => {
  admin = (await adminOf(api)).token;
  gameId = await game(api, 'Check-in');
});

describe('checking in', () => {
  it('an approved player checks in while the window is open, again changes nothing, and undoes it', async () => {
    const t = await cup();
    const [me] = await approved(t.id, 1);
    const res = await checkIn(me!.player.token, t.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Участь підтверджено');
    expect(res.body.application).toMatchObject({ _id: me!.id, status: 'approved' });
    const at = res.body.application.checkedInAt;
    expect(at).not.toBeNull();
    expect((await checkIn(me!.player.token, t.id)).body.application.checkedInAt).toBe(at);
    const page = await api.call<{ applications: { _id: string; checkedInAt: string | null }[] }>('GET', `/api/tournaments/${t.id}`);
    expect(page.body.applications.find((a) => a._id === me!.id)?.checkedInAt).toBe(at);
    const undo = await checkOut(me!.player.token, t.id);
    expect(undo.status).toBe(200);
    expect(undo.body.message).toBe('Підтвердження участі скасовано');
    expect((await row(me!.id))?.checkedInAt).toBeNull();
  });

  it('a captain checks in the team; its other members and strangers cannot (403), guests 401', async () => {
    const t = await cup({ soloOnly: false });
    const captain = await player();
    const member = await player();
    const built = await team(api, captain, 5, { members: [member.user.id] });
    const applied = await api.call<{ application: { _id: string } }>('POST', '/api/applications', {
      token: captain.token,
      body: { tournament: t.id, team: built.id },
    });
    await approve(applied.body.application._id);
    expect((await checkIn(undefined, t.id)).status).toBe(401);
    const notCaptain = await checkIn(member.token, t.id);
    expect(notCaptain.status).toBe(403);
    expect(notCaptain.body.message).toBe('Підтвердити участь може схвалений учасник чи гравець зі списку очікування, а за команду — її капітан');
    expect((await checkIn((await player()).token, t.id)).status).toBe(403);
    expect((await checkIn(captain.token, t.id)).status).toBe(200);
  });

  it('a pending applicant is not a participant yet (403); a waitlisted one may check in', async () => {
    const t = await cup({ settings: { maxParticipants: 2 } });
    const pending = await player();
    await apply(pending, t.id);
    expect((await checkIn(pending.token, t.id)).status).toBe(403);
    await apply(await player(), t.id);
    const waiting = await player();
    expect((await apply(waiting, t.id)).status).toBe('waitlisted');
    const res = await checkIn(waiting.token, t.id);
    expect(res.status).toBe(200);
    expect(res.body.application.status).toBe('waitlisted');
  });

  it('is refused outside the window (409) and when the tournament does not use check-in (409)', async () => {
    const early = await cup({ settings: { checkInOpensAt: inHours(0.5), checkInClosesAt: inHours(1) } });
    const [a] = await approved(early.id, 1);
    const notOpen = await checkIn(a!.player.token, early.id);
    expect(notOpen.status).toBe(409);
    expect(notOpen.body.message).toBe('Реєстрація присутності ще не відкрита');
    expect((await checkOut(a!.player.token, early.id)).status).toBe(409);

    const late = await cup();
    const [b] = await approved(late.id, 1);
    await setWindow(late.id, inHours(-2), inHours(-1));
    const closed = await checkIn(b!.player.token, late.id);
    expect(closed.status).toBe(409);
    expect(closed.body.message).toBe('Реєстрацію присутності вже закрито');

    const off = await tournament(api, { game: gameId, soloOnly: true, date: inHours(2) });
    const [c] = await approved(off.id, 1);
    const disabled = await checkIn(c!.player.token, off.id);
    expect(disabled.status).toBe(409);
    expect(disabled.body.message).toBe('Цей турнір не вимагає підтвердження участі');
    expect((await checkIn(c!.player.token, MISSING)).status).toBe(404);
    expect((await checkIn(c!.player.token, 'nope')).status).toBe(400);
  });

  it('turning check-in on after its window closed is refused (422), so nobody is dropped unawares', async () => {
    const soon = await tournament(api, { game: gameId, soloOnly: true, date: inHours(0.05) });
    const entries = await approved(soon.id, 2);
    const res = await api.call<{ message: string }>('PUT', `/api/tournaments/${soon.id}`, {
      token: admin,
      body: { title: soon.title, date: soon.date, game: soon.game, checkInEnabled: true },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Це вікно реєстрації присутності вже минуло/);
    const [t] = await api.db.select().from(tournaments).where(eq(tournaments.id, soon.id));
    expect(t!.checkInEnabled).toBe(false);
    for (const e of entries) expect((await row(e.id))!.status).toBe('approved');
    // With a close still ahead it is taken.
    const later = await api.call('PUT', `/api/tournaments/${soon.id}`, {
      token: admin,
      body: { title: soon.title, date: inHours(1), game: soon.game, checkInEnabled: true },
    });
    expect(later.status).toBe(200);
  });

  it('the default window is 60 to 10 minutes before the start', async () => {
    const soon = await cup({ date: inHours(0.5), settings: { checkInOpensAt: null, checkInClosesAt: null } });
    const [a] = await approved(soon.id, 1);
    expect((await checkIn(a!.player.token, soon.id)).status).toBe(200);
    const later = await cup({ date: inHours(1.5), settings: { checkInOpensAt: null, checkInClosesAt: null } });
    const [b] = await approved(later.id, 1);
    expect((await checkIn(b!.player.token, later.id)).status).toBe(409);
  });
});

describe("the admin's override", () => {
  it('checks anyone in or out at any time until the competition is drawn', async () => {
    const t = await cup({ settings: { checkInOpensAt: inHours(0.5), checkInClosesAt: inHours(1) } });
    const [a, b] = await approved(t.id, 2);
    const res = await checkIn(admin, t.id, { applicationId: a!.id });
    expect(res.status).toBe(200);
    expect(res.body.application.checkedInAt).not.toBeNull();
    expect((await checkOut(admin, t.id, { applicationId: a!.id })).body.application.checkedInAt).toBeNull();
    expect((await checkIn(admin, t.id, { applicationId: MISSING })).status).toBe(404);
    const other = await cup();
    expect((await checkIn(admin, other.id, { applicationId: a!.id })).status).toBe(404);
    // Only an admin names someone else's application; a player may name their own.
    const [x, y] = await approved(other.id, 2);
    expect((await checkIn(x!.player.token, other.id, { applicationId: y!.id })).status).toBe(403);
    expect((await checkIn(x!.player.token, other.id, { applicationId: x!.id })).status).toBe(200);
    expect((await row(y!.id))?.checkedInAt).toBeNull();
    expect((await checkIn(admin, t.id, { applicationId: 'nope' })).status).toBe(400);
    // A pending or rejected application is not checked in.
    const pending = await apply(await player(), t.id);
    const refused = await checkIn(admin, t.id, { applicationId: pending._id });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('Відмітити можна лише схвалену заявку або заявку зі списку очікування');
    // Both checked in; once drawn, nothing changes.
    await checkIn(admin, t.id, { applicationId: a!.id });
    await checkIn(admin, t.id, { applicationId: b!.id });
    await stage(api, t.id, { format: 'single_elimination' });
    const drawn = await checkOut(admin, t.id, { applicationId: a!.id });
    expect(drawn.status).toBe(409);
    expect(drawn.body.message).toBe('Сітку вже сформовано: підтвердження участі не змінюється');
  });
});

describe('the close of check-in', () => {
  it('drops the approved who did not check in, fills their places from the checked-in waitlist in order, keeps the rest waiting, once', async () => {
    const t = await cup({ settings: { maxParticipants: 3 } });
    const [a, b, c] = await approved(t.id, 3);
    const waiting = [await player(), await player(), await player()];
    const waitIds: string[] = [];
    for (const w of waiting) waitIds.push((await apply(w, t.id))._id);
    // a checks in; b and c do not. The second and third of the waitlist check in, the first does not.
    await checkIn(a!.player.token, t.id);
    await checkIn(waiting[1]!.token, t.id);
    await checkIn(waiting[2]!.token, t.id);
    expect(await closeCheckIn(api.db, t.id, new Date())).toEqual({ closed: false });
    const at = new Date(Date.now() + 1.5 * HOUR);
    const closed = await closeCheckIn(api.db, t.id, at);
    expect(closed).toEqual({ closed: true, dropped: [b!.id, c!.id], promoted: [waitIds[1], waitIds[2]] });
    const statuses = await Promise.all([a!.id, b!.id, c!.id, ...waitIds].map(async (id) => (await row(id))?.status));
    expect(statuses).toEqual(['approved', 'noShow', 'noShow', 'waitlisted', 'approved', 'approved']);
    expect(await closeCheckIn(api.db, t.id, at)).toEqual({ closed: false });
    const [dropped] = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, b!.player.user.id), eq(notifications.kind, 'checkInMissed')));
    expect(dropped?.params).toMatchObject({ tournament: t.title, tournamentId: t.id, reason: 'checkIn' });
    // Said as what happened: they did not check in, nobody rejected them.
    expect(dropped?.text).toBe(`Ви не підтвердили участь у турнірі «${t.title}» вчасно, тож вас знято з турніру. Організатор може вас повернути.`);
    const bell = await api.call<{ kind: string; text: string }[]>('GET', '/api/users/me/notifications', { token: b!.player.token });
    expect(bell.body.find((n) => n.kind === 'checkInMissed')?.text).toBe(`Ви не підтвердили участь у турнірі «${t.title}» вчасно, тож вас знято з турніру.`);
    const [promoted] = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, waiting[1]!.user.id), eq(notifications.kind, 'applicationPromoted')));
    expect(promoted?.link).toBe(`/tournaments/${t.id}`);
    // Closed: nobody checks in any more.
    expect((await checkIn(waiting[0]!.token, t.id)).status).toBe(409);
  });

  it('runs from the sweep for windows that ended, and the first stage runs it and seeds only the checked in', async () => {
    const t = await cup();
    const [a, b, c] = await approved(t.id, 3);
    await checkIn(a!.player.token, t.id);
    await checkIn(b!.player.token, t.id);
    await setWindow(t.id, inHours(-2), inHours(-0.01));
    const created = await stage(api, t.id, { format: 'single_elimination' });
    const seeded = created.seeds.filter((s): s is string => s !== null);
    expect(seeded.sort()).toEqual([a!.player.user.id, b!.player.user.id].sort());
    expect((await row(c!.id))?.status).toBe('noShow');

    const swept = await cup();
    const [d, e] = await approved(swept.id, 2);
    await checkIn(d!.player.token, swept.id);
    expect(await sweepCheckIn(api.db, new Date())).not.toContain(swept.id);
    expect(await sweepCheckIn(api.db, new Date(Date.now() + 1.5 * HOUR))).toContain(swept.id);
    expect((await row(e!.id))?.status).toBe('noShow');
    const [closedAt] = await api.db.select({ at: tournaments.checkInClosedAt }).from(tournaments).where(eq(tournaments.id, swept.id));
    expect(closedAt?.at).not.toBeNull();
  });

  it('leaves a drawn competition as it is, and seeds the checked in while the window is still open', async () => {
    const t = await cup();
    const [a, b, c] = await approved(t.id, 3);
    await checkIn(a!.player.token, t.id);
    await checkIn(b!.player.token, t.id);
    const created = await stage(api, t.id, { format: 'round_robin' });
    expect(created.seeds.filter(Boolean)).toHaveLength(2);
    expect(await closeCheckIn(api.db, t.id, new Date(Date.now() + 1.5 * HOUR))).toEqual({ closed: true, dropped: [], promoted: [] });
    expect((await row(c!.id))?.status).toBe('approved');
  });

  it('a refused draw rolls its close back: every application as it was, no audit row, no event; a good draw then closes as before', async () => {
    for (const draw of ['stage', 'bracket'] as const) {
      const t = await cup({ settings: { maxParticipants: 2 } });
      const [a, b] = await approved(t.id, 2);
      const waiting = await player();
      const waitId = (await apply(waiting, t.id))._id;
      await checkIn(a!.player.token, t.id);
      // The window ended and no sweep has closed it yet: the draw closes it first, and one checked in is too few.
      await setWindow(t.id, inHours(-2), inHours(-0.01));
      const ids = [a!.id, b!.id, waitId];
      const statuses = async () => Promise.all(ids.map(async (id) => (await row(id))?.status));
      const logged = async () => (await api.db.select({ id: auditLog.id }).from(auditLog).where(eq(auditLog.tournamentId, t.id))).length;
      const [was, rows] = [await statuses(), await logged()];
      const heard: string[] = [];
      const stop = subscribeTournament(t.id, (event) => heard.push(event.kind));
      const told: string[] = [];
      const stopTold = subscribeUser(b!.player.user.id, (event) => told.push(event.kind));
      try {
        const refused =
          draw === 'stage'
            ? await api.call('POST', `/api/tournaments/${t.id}/stages`, { token: admin, body: { format: 'single_elimination' } })
            : await api.call('POST', `/api/tournaments/${t.id}/bracket`, { token: admin, body: {} });
        expect(refused.status, draw).toBe(422);
        expect(await statuses(), draw).toEqual(was);
        expect(await logged(), draw).toBe(rows);
        expect(heard, draw).toEqual([]);
        expect(told, draw).toEqual([]);
        const [closed] = await api.db.select({ at: tournaments.checkInClosedAt }).from(tournaments).where(eq(tournaments.id, t.id));
        expect(closed?.at, draw).toBeNull();
        const notices = await api.db.select().from(notifications).where(eq(notifications.userId, b!.player.user.id));
        expect(notices.filter((n) => n.kind === 'checkInMissed'), draw).toEqual([]);

        // The waitlisted one checks in too (the admin's override): now two, and the draw goes through, closing check-in.
        await checkIn(admin, t.id, { applicationId: waitId });
        heard.length = 0;
        const drawn =
          draw === 'stage'
            ? await api.call('POST', `/api/tournaments/${t.id}/stages`, { token: admin, body: { format: 'single_elimination' } })
            : await api.call('POST', `/api/tournaments/${t.id}/bracket`, { token: admin, body: {} });
        expect(drawn.status, draw).toBe(201);
        expect(await statuses(), draw).toEqual(['approved', 'noShow', 'approved']);
        expect(heard, draw).toContain('checkIn');
        expect(told, draw).toContain('notification');
      } finally {
        stop();
        stopTold();
      }
    }
  });

  it('a check-in racing the close: either it counts and the player stays, or it is refused and the player is dropped', async () => {
    for (let i = 0; i < 3; i++) {
      const t = await cup();
      const [me] = await approved(t.id, 1);
      const [answer] = await Promise.all([checkIn(me!.player.token, t.id), closeCheckIn(api.db, t.id, new Date(Date.now() + 1.5 * HOUR))]);
      const status = (await row(me!.id))?.status;
      if (answer.status === 200) expect(status).toBe('approved');
      else {
        expect(answer.status).toBe(409);
        expect(answer.body.message).toBe('Реєстрацію присутності вже закрито');
        expect(status).toBe('noShow');
      }
    }
  });
});

describe('the check-in open notice', () => {
  it('tells each approved or waitlisted participant (a team by its captain) once, and one approved later too', async () => {
    const t = await cup({ soloOnly: false, settings: { maxParticipants: 2 } });
    const captains = [await player(), await player(), await player()];
    const ids: string[] = [];
    for (const captain of captains) {
      const built = await team(api, captain, 5);
      const res = await api.call<{ application: { _id: string } }>('POST', '/api/applications', {
        token: captain.token,
        body: { tournament: t.id, team: built.id },
      });
      ids.push(res.body.application._id);
    }
    await approve(ids[0]!);
    const count = async (userId: string) =>
      (
        await api.db
          .select({ n: sql<number>`count(*)::int` })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.kind, 'checkInOpen')))
      )[0]!.n;
    await Promise.all([sweepCheckIn(api.db, new Date()), sweepCheckIn(api.db, new Date())]);
    await sweepCheckIn(api.db, new Date());
    // Approved and waitlisted are told; the pending one is not yet.
    expect(await Promise.all(captains.map((c) => count(c.user.id)))).toEqual([1, 0, 1]);
    await approve(ids[1]!);
    await sweepCheckIn(api.db, new Date());
    expect(await Promise.all(captains.map((c) => count(c.user.id)))).toEqual([1, 1, 1]);
    const [notice] = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, captains[0]!.user.id), eq(notifications.kind, 'checkInOpen')));
    expect(notice).toMatchObject({ link: `/tournaments/${t.id}`, params: { tournament: t.title, tournamentId: t.id } });
  });
});

describe('the organisers and check-in (issue 57)', () => {
  const extend = (token: string | undefined, tournamentId: string, body: unknown) =>
    api.call<{ message: string; closesAt: string }>('PATCH', `/api/tournaments/${tournamentId}/check-in`, { token, body });

  it('an organiser brings back someone dropped at the close: checked in, approved, told, in the history; a player cannot', async () => {
    const t = await cup();
    const [kept, gone] = await approved(t.id, 2);
    await checkIn(kept!.player.token, t.id);
    await closeCheckIn(api.db, t.id, new Date(Date.now() + 1.5 * HOUR));
    expect((await row(gone!.id))?.status).toBe('noShow');
    // The dropped player cannot check themselves back in, nor can another player do it for them: the window is closed.
    expect((await checkIn(gone!.player.token, t.id)).status).toBe(409);
    expect((await checkIn(kept!.player.token, t.id, { applicationId: gone!.id })).status).toBe(409);
    expect((await row(gone!.id))?.status).toBe('noShow');
    // Undoing a check-in is no way back.
    expect((await checkOut(admin, t.id, { applicationId: gone!.id })).body.message).toBe(
      'Відмітити можна лише схвалену заявку або заявку зі списку очікування',
    );

    const back = await checkIn(admin, t.id, { applicationId: gone!.id });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.application).toMatchObject({ _id: gone!.id, status: 'approved' });
    expect(back.body.application.checkedInAt).not.toBeNull();
    expect((await row(gone!.id))?.status).toBe('approved');
    const told = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, gone!.player.user.id), eq(notifications.kind, 'applicationApproved')));
    // Their approval long ago, then the way back.
    expect(told.map((n) => n.text)).toEqual([
      `Вашу заявку на турнір «${t.title}» схвалено.`,
      `Організатор повернув вас до турніру «${t.title}»: участь підтверджено.`,
    ]);
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tournamentId, t.id), eq(auditLog.kind, 'checkInOverride')));
    expect(entry).toMatchObject({ subjectId: gone!.id, before: { checkedIn: false, status: 'noShow' }, after: { checkedIn: true, status: 'approved' } });
    // One dropped who applied anew is decided on that application: the old one is not brought back beside it.
    const again = await cup();
    const [late] = await approved(again.id, 1);
    await closeCheckIn(api.db, again.id, new Date(Date.now() + 1.5 * HOUR));
    const anew = await apply(late!.player, again.id);
    expect(anew._id).not.toBe(late!.id);
    const refused = await checkIn(admin, again.id, { applicationId: late!.id });
    expect([refused.status, refused.body.message]).toEqual([409, 'Цей учасник уже подав нову заявку: рішення — за нею']);
    expect((await row(late!.id))?.status).toBe('noShow');
    // The first stage now seeds both.
    const created = await stage(api, t.id, { format: 'single_elimination' });
    expect(created.seeds.filter(Boolean).sort()).toEqual([kept!.player.user.id, gone!.player.user.id].sort());
  });

  it('an organiser cannot bring someone back past the cap: their place went to the waitlist', async () => {
    const t = await cup({ settings: { maxParticipants: 2 } });
    const [kept, gone] = await approved(t.id, 2);
    const waiting = await player();
    const waitId = (await apply(waiting, t.id))._id;
    await checkIn(kept!.player.token, t.id);
    await checkIn(waiting.token, t.id);
    expect(await closeCheckIn(api.db, t.id, new Date(Date.now() + 1.5 * HOUR))).toEqual({ closed: true, dropped: [gone!.id], promoted: [waitId] });
    const refused = await checkIn(admin, t.id, { applicationId: gone!.id });
    expect([refused.status, refused.body.message]).toEqual([409, 'Усі місця вже зайняті: щоб повернути учасника, звільніть місце або збільште ліміт учасників']);
    expect(await row(gone!.id)).toMatchObject({ status: 'noShow', checkedInAt: null });
    expect(await api.db.select().from(auditLog).where(and(eq(auditLog.tournamentId, t.id), eq(auditLog.kind, 'checkInOverride')))).toEqual([]);
    // With a place made free, the way back is open again.
    await api.db.update(tournaments).set({ maxParticipants: 3 }).where(eq(tournaments.id, t.id));
    expect((await checkIn(admin, t.id, { applicationId: gone!.id })).status).toBe(200);
  });

  it('an organiser extends the window before it closes; later, earlier, past the start, after the close or by a player: refused, nothing changed', async () => {
    const t = await cup();
    const [me] = await approved(t.id, 1);
    const closes = async () =>
      (await api.db.select({ at: tournaments.checkInClosesAt }).from(tournaments).where(eq(tournaments.id, t.id)))[0]?.at?.toISOString();
    const before = await closes();
    expect((await extend(me!.player.token, t.id, { closesAt: inHours(1.5) })).status).toBe(403);
    expect((await extend(undefined, t.id, { closesAt: inHours(1.5) })).status).toBe(401);
    const earlier = await extend(admin, t.id, { closesAt: inHours(0.5) });
    expect([earlier.status, earlier.body.message]).toEqual([422, 'Новий час закриття має бути пізніше за теперішній і за поточний']);
    const pastStart = await extend(admin, t.id, { closesAt: inHours(3) });
    expect([pastStart.status, pastStart.body.message]).toEqual([
      422,
      'Реєстрація присутності має закритися не пізніше за початок турніру: спершу перенесіть початок',
    ]);
    expect((await extend(admin, t.id, { closesAt: 'завтра' })).status).toBe(400);
    expect((await extend(admin, t.id, { closesAt: inHours(1.5), extra: 1 })).status).toBe(400);
    expect(await closes()).toBe(before);

    const later = inHours(1.5);
    const done = await extend(admin, t.id, { closesAt: later });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({ message: 'Реєстрацію присутності подовжено', closesAt: new Date(later).toISOString() });
    expect(await closes()).toBe(new Date(later).toISOString());
    // The close an hour from now no longer drops anyone; the new one does.
    expect(await closeCheckIn(api.db, t.id, new Date(Date.now() + 1.2 * HOUR))).toEqual({ closed: false });
    const [logged] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tournamentId, t.id), eq(auditLog.kind, 'checkInExtended')));
    expect(logged?.after).toEqual({ closesAt: new Date(later).toISOString() });

    await closeCheckIn(api.db, t.id, new Date(Date.now() + 1.6 * HOUR));
    const closed = await extend(admin, t.id, { closesAt: inHours(1.8) });
    expect([closed.status, closed.body.message]).toEqual([409, 'Реєстрацію присутності вже закрито: поверніть учасників по одному']);
  });
});
