import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ControlRoom } from '../../src/lib/api/control-room.ts';
import { matchActions, notifications } from '../../src/server/db/schema/index.ts';
import { subscribeTournament } from '../../src/server/services/live/live.ts';
import { admin as adminOf, coOrganiser, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * The control room (issue 57): what waits for a tournament's organisers — disputes with both sides'
 * claims and the complaint, reports waiting with their deadline, calls for help, ready matches, and
 * check-in — for its organisers only; a dispute or a call rings their bell.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'Control room');
});

const room = (who: Player | null, tournamentId: string) => api.call<ControlRoom>('GET', `/api/tournaments/${tournamentId}/control`, { token: who?.token });
const post = (who: Player, path: string, body?: Record<string, unknown>) =>
  api.call<{ message: string }>('POST', path, { token: who.token, ...(body ? { body } : {}) });

/** An eight-player single elimination: its players by id, and its four quarter-finals. */
async function eight() {
  const players = await Promise.all(Array.from({ length: 8 }, () => player(api)));
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: players });
  const made = await stage(api, built.id, { format: 'single_elimination' });
  const byId = new Map(players.map((p) => [p.user.id, p]));
  const quarters = made.matches.filter((m) => m.round === 1 && m.side === 'winners').map((m) => ({ ...m, a: byId.get(m.a!)!, b: byId.get(m.b!)! }));
  return { id: built.id, title: built.title, players, quarters };
}

describe('the control room', () => {
  it('lists disputes with both claims and the complaint, waiting reports with their deadline, calls and ready matches', async () => {
    const cup = await eight();
    const [q1, q2, q3, q4] = cup.quarters as [
      (typeof cup.quarters)[number],
      (typeof cup.quarters)[number],
      (typeof cup.quarters)[number],
      (typeof cup.quarters)[number],
    ];
    // q1: the sides report different scores. q2: a report, then a dispute with a complaint. q3: a report waiting. q4: nothing yet, and a call.
    await post(q1.a, `/api/matches/${q1._id}/report`, { scoreA: 2, scoreB: 0 });
    await post(q1.b, `/api/matches/${q1._id}/report`, { scoreA: 0, scoreB: 2 });
    await post(q2.a, `/api/matches/${q2._id}/report`, { scoreA: 1, scoreB: 0 });
    await post(q2.b, `/api/matches/${q2._id}/dispute`, { reason: 'Суперник грав чужим акаунтом' });
    await post(q3.b, `/api/matches/${q3._id}/report`, { scoreA: 0, scoreB: 1 });
    const called = await post(q4.a, `/api/matches/${q4._id}/call`, { reason: 'Суперник не відповідає в лобі' });
    expect(called.status, JSON.stringify(called.body)).toBe(200);
    expect(called.body.message).toBe('Організаторів покликано: вони бачать ваш матч у пульті');

    const res = await room(admin, cup.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const { disputes, awaiting, calls, ready, checkIn, tournament: t } = res.body;
    expect(t).toMatchObject({ _id: cup.id, title: cup.title, drawn: true });
    expect(disputes.map((d) => d.match._id)).toEqual([q1._id, q2._id]);
    expect(disputes[0]!.reports.a).toMatchObject({ side: 'a', user: q1.a.user.username, scoreA: 2, scoreB: 0 });
    expect(disputes[0]!.reports.b).toMatchObject({ side: 'b', user: q1.b.user.username, scoreA: 0, scoreB: 2 });
    expect(disputes[1]!.reports).toMatchObject({ a: { scoreA: 1, scoreB: 0 }, b: null });
    expect(disputes[1]!.dispute).toMatchObject({ side: 'b', user: q2.b.user.username, reason: 'Суперник грав чужим акаунтом' });
    expect(awaiting.map((w) => w.match._id)).toEqual([q3._id]);
    expect(Date.parse(awaiting[0]!.confirmBy!) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(awaiting[0]!.reports.b).toMatchObject({ scoreA: 0, scoreB: 1 });
    expect(calls.map((c) => c.match._id)).toEqual([q4._id]);
    expect(calls[0]!.call).toMatchObject({ side: 'a', user: q4.a.user.username, reason: 'Суперник не відповідає в лобі' });
    expect(ready.map((r) => r.match._id)).toEqual([q4._id]);
    expect(ready[0]!.stage).toMatchObject({ number: 1, format: 'single_elimination' });
    expect(ready[0]!.match.bestOf).toBe(1);
    expect(checkIn).toBeNull();

    // The organiser resolves q1 there: it leaves the list and the bracket moves on.
    const resolved = await api.call('PATCH', `/api/matches/${q1._id}`, {
      token: admin.token,
      body: { scoreA: 2, scoreB: 1, version: disputes[0]!.match.version },
    });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    const after = (await room(admin, cup.id)).body;
    expect(after.disputes.map((d) => d.match._id)).toEqual([q2._id]);
    expect(after.version).toBeGreaterThan(res.body.version);
  });

  it('is for the tournament organisers only: 401 for a guest, 403 for a player or another tournament’s co-organiser, 404 for no tournament', async () => {
    const cup = await eight();
    const other = await tournament(api, { game: gameId, soloOnly: true });
    const staff = await coOrganiser(api, cup.id);
    const stranger = await coOrganiser(api, other.id);
    expect((await room(null, cup.id)).status).toBe(401);
    expect((await room(cup.players[0]!, cup.id)).status).toBe(403);
    expect((await room(stranger, cup.id)).status).toBe(403);
    expect((await room(staff, cup.id)).status).toBe(200);
    expect((await room(admin, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await room(admin, 'nope')).status).toBe(400);
  });

  it('a dispute rings every organiser’s bell with the control room’s address; the players hear nothing of it', async () => {
    const cup = await eight();
    const staff = await coOrganiser(api, cup.id);
    const q = cup.quarters[0]!;
    await post(q.a, `/api/matches/${q._id}/report`, { scoreA: 2, scoreB: 0 });
    await post(q.b, `/api/matches/${q._id}/dispute`, { reason: 'Не так' });
    for (const who of [staff, admin]) {
      const told = await api.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, who.user.id), eq(notifications.kind, 'matchDisputed'), eq(notifications.link, `/tournaments/${cup.id}/control`)));
      expect(told, who.user.username).toHaveLength(1);
      expect(told[0]!.text).toBe(`Суперечка в матчі ${q.a.user.username} – ${q.b.user.username} («${cup.title}»): потрібне ваше рішення.`);
    }
    const players = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, q.a.user.id), eq(notifications.kind, 'matchDisputed')));
    expect(players).toEqual([]);
  });
});

describe('calling the organisers', () => {
  it('a side calls once until answered; others are refused; the organisers are told; an organiser answers; all in the history', async () => {
    const cup = await eight();
    const staff = await coOrganiser(api, cup.id);
    const q = cup.quarters[1]!;
    const heard: string[] = [];
    const stop = subscribeTournament(cup.id, (event) => heard.push(event.kind));
    try {
      const stranger = cup.quarters[2]!.a;
      const refused = await post(stranger, `/api/matches/${q._id}/call`, {});
      expect([refused.status, refused.body.message]).toEqual([403, 'Кликати організаторів до матчу можуть лише його гравці або капітани його команд']);
      expect((await api.call('POST', `/api/matches/${q._id}/call`, { body: {} })).status).toBe(401);
      expect((await post(q.b, `/api/matches/${q._id}/call`, { reason: 'x'.repeat(501) })).status).toBe(400);
      // No body at all is a call without words.
      const first = await api.call<{ calledAt: string }>('POST', `/api/matches/${q._id}/call`, { token: q.b.token });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const again = await post(q.a, `/api/matches/${q._id}/call`, { reason: 'ще раз' });
      expect([again.status, again.body.message]).toEqual([409, 'Організаторів уже покликано: вони скоро відповідять']);
      expect(heard).toEqual(['call']);

      const told = await api.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, staff.user.id), eq(notifications.kind, 'matchCalled')));
      expect(told).toHaveLength(1);

      // Only an organiser answers.
      expect((await api.call('DELETE', `/api/matches/${q._id}/call`, { token: q.a.token })).status).toBe(403);
      const answered = await api.call<{ message: string }>('DELETE', `/api/matches/${q._id}/call`, { token: staff.token });
      expect([answered.status, answered.body.message]).toEqual([200, 'Виклик закрито']);
      expect((await api.call('DELETE', `/api/matches/${q._id}/call`, { token: staff.token })).status).toBe(409);
      expect((await room(staff, cup.id)).body.calls).toEqual([]);
      const history = await api.db.select({ kind: matchActions.kind, reason: matchActions.reason }).from(matchActions).where(eq(matchActions.matchId, q._id));
      expect(history.map((h) => h.kind).sort()).toEqual(['call', 'callAnswered']);

      // A decided match is past calling.
      await api.call('PATCH', `/api/matches/${q._id}`, { token: admin.token, body: { scoreA: 1, scoreB: 0, version: q.version } });
      const late = await post(q.a, `/api/matches/${q._id}/call`, {});
      expect([late.status, late.body.message]).toEqual([409, 'Матч уже завершено: організаторів не кличуть']);
    } finally {
      stop();
    }
  });

  it('a burst of calls from both sides makes one call and one notice per organiser', async () => {
    const cup = await eight();
    const q = cup.quarters[3]!;
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => post(i % 2 ? q.a : q.b, `/api/matches/${q._id}/call`, {})));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const told = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, admin.user.id), eq(notifications.kind, 'matchCalled'), eq(notifications.link, `/tournaments/${cup.id}/control`)));
    expect(told).toHaveLength(1);
  });
});

describe('check-in in the control room', () => {
  it('lists those missing first, then the checked in, the dropped and the waitlist', async () => {
    const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
    const [a, b] = [await player(api), await player(api)];
    const closes = inHours(1);
    const cup = await tournament(api, {
      game: gameId,
      soloOnly: true,
      date: inHours(2),
      approved: [a, b],
      settings: { checkInEnabled: true, checkInOpensAt: inHours(-1), checkInClosesAt: closes },
    });
    await post(b, `/api/tournaments/${cup.id}/check-in`);
    const { checkIn } = (await room(admin, cup.id)).body;
    expect(checkIn).toMatchObject({ phase: 'open', closedAt: null, closesAt: closes });
    expect(checkIn!.entries.map((e) => [e.name, e.status, e.checkedInAt !== null])).toEqual([
      [a.user.username, 'approved', false],
      [b.user.username, 'approved', true],
    ]);
  });
});
