import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RoomView } from '../../src/lib/api/match-room.ts';
import type { ControlRoom } from '../../src/lib/api/control-room.ts';
import type { MatchState, StageView } from '../../src/lib/api/stages.ts';
import { matchActions, matchCheckIns, matchRooms, notifications, stageMatches } from '../../src/server/db/schema/index.ts';
import { forgetKeptStages } from '../../src/server/services/competition/stages/store.ts';
import { closeDueCheckIns } from '../../src/server/services/match-room/check-in.ts';
import { admin as adminOf, coOrganiser, game, player, stage, team, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * A match room's check-in and lobby details (issue 58), through the API: both sides check in and
 * the match is on; at the end of the time a side alone present wins by forfeit and a match nobody
 * came to waits for the organisers, once however many sweeps and requests race it; the lobby
 * details reach the match's people and nobody else, and every refusal changes nothing.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

type Message = { message: string };
const checkIn = (who: Player | null, matchId: string) =>
  api.call<Message & { both: boolean }>('POST', `/api/matches/${matchId}/check-in`, { token: who?.token });
const room = (who: Player | null, matchId: string) => api.call<RoomView & Message>('GET', `/api/matches/${matchId}/room`, { token: who?.token });
const lobby = (who: Player | null, matchId: string, body: unknown) => api.call<Message>('PUT', `/api/matches/${matchId}/lobby`, { token: who?.token, body });
const read = async (matchId: string) => (await api.call<MatchState>('GET', `/api/matches/${matchId}`)).body;
const history = async (matchId: string) =>
  (
    await api.db
      .select({ kind: matchActions.kind, side: matchActions.side })
      .from(matchActions)
      .where(eq(matchActions.matchId, matchId))
      .orderBy(matchActions.createdAt)
  ).map((a) => `${a.kind}${a.side ? `:${a.side}` : ''}`);

/** A solo final between two new players (seeded in that order) in a tournament with these settings. */
async function duel(settings: Record<string, unknown> = { matchCheckInMinutes: 10 }) {
  const [a, b] = [await player(api), await player(api)];
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: [a, b], settings });
  const made: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: {} });
  return { a, b, id: built.id, match: made.matches[0]! };
}

/** The check-in's time of a match ran out: written behind the app's back, and the stages held at its version forgotten. */
async function expire(matchId: string) {
  await api.db
    .update(stageMatches)
    .set({ readyAt: new Date(Date.now() - 11 * 60_000) })
    .where(eq(stageMatches.id, matchId));
  forgetKeptStages();
}

describe('check-in per match', () => {
  it('starts when the match is ready, tells both sides the deadline, and puts the match on when both are in', async () => {
    const before = Date.now();
    const { a, b, match } = await duel();
    const [told] = await api.db
      .select({ params: notifications.params })
      .from(notifications)
      .where(and(eq(notifications.userId, a.user.id), eq(notifications.kind, 'matchReady'), eq(notifications.link, `/matches/${match._id}`)));
    const by = Date.parse(String((told!.params as Record<string, unknown>).checkInBy));
    expect(by - before).toBeGreaterThanOrEqual(10 * 60_000 - 1000);
    expect(by - before).toBeLessThan(11 * 60_000);

    const opened = await room(a, match._id);
    expect(opened.status).toBe(200);
    expect(opened.body.side).toBe('a');
    expect(opened.body.checkIn).toMatchObject({ a: false, b: false, outcome: null });
    expect(Math.abs(Date.parse(opened.body.checkIn!.by!) - by)).toBeLessThan(60_000);

    const first = await checkIn(a, match._id);
    expect([first.status, first.body.message, first.body.both]).toEqual([200, 'Ви відмітилися. Чекаємо на суперника', false]);
    // Until both are in, the match is not on: no score is taken.
    const early = await api.call<Message>('POST', `/api/matches/${match._id}/report`, { token: a.token, body: { scoreA: 1, scoreB: 0 } });
    expect([early.status, early.body.message]).toEqual([409, 'Спершу обидві сторони мають відмітитися на матч']);
    const again = await checkIn(a, match._id);
    expect([again.status, again.body.message]).toEqual([409, 'Вашу сторону вже відмічено']);
    const second = await checkIn(b, match._id);
    expect([second.status, second.body.message, second.body.both]).toEqual([200, 'Обидві сторони на місці: матч починається', true]);
    expect((await room(b, match._id)).body.checkIn).toMatchObject({ a: true, b: true, outcome: 'both' });
    // Once both are in, either side checking in again is told it is in, not that the time ran out.
    for (const late of await Promise.all([a, b, b].map((who) => checkIn(who, match._id)))) {
      expect([late.status, late.body.message]).toEqual([409, 'Вашу сторону вже відмічено']);
    }
    expect(await history(match._id)).toEqual(['checkIn:a', 'checkIn:b']);
    expect((await api.call('POST', `/api/matches/${match._id}/report`, { token: a.token, body: { scoreA: 1, scoreB: 0 } })).status).toBe(200);
    // Both came: the end of the time changes nothing.
    await expire(match._id);
    expect(await closeDueCheckIns(api.db, new Date(), match._id)).toBe(0);
    expect((await read(match._id)).match.status).toBe('ready');
  });

  it('holds the veto until both are in: no turn is offered, a move is refused', async () => {
    const pooled = await game(api);
    const maps = { maps: ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'], sides: ['CT', 'T'] };
    expect((await api.call('PUT', `/api/games/${pooled}/maps`, { token: admin.token, body: maps })).status).toBe(200);
    const [a, b] = [await player(api), await player(api)];
    const built = await tournament(api, { game: pooled, soloOnly: true, approved: [a, b], settings: { matchCheckInMinutes: 10 } });
    const made: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: { veto: {} } });
    const matchId = made.matches[0]!._id;
    const veto = async () => (await api.call<{ next: unknown; checkInFirst: boolean }>('GET', `/api/matches/${matchId}/veto`)).body;
    expect(await veto()).toMatchObject({ checkInFirst: true, next: null });
    const early = await api.call<Message>('POST', `/api/matches/${matchId}/veto`, { token: a.token, body: { action: 'roles', role: 'A' } });
    expect([early.status, early.body.message]).toEqual([409, 'Спершу обидві сторони мають відмітитися на матч']);
    await checkIn(a, matchId);
    await checkIn(b, matchId);
    expect(await veto()).toMatchObject({ checkInFirst: false, next: { action: 'roles', slot: 'a' } });
    expect((await api.call('POST', `/api/matches/${matchId}/veto`, { token: a.token, body: { action: 'roles', role: 'A' } })).status).toBe(200);
  });

  it('refuses strangers, guests, a tournament without it and a match not ready, writing nothing', async () => {
    const { match } = await duel();
    const stranger = await player(api);
    expect([(await checkIn(null, match._id)).status]).toEqual([401]);
    const refused = await checkIn(stranger, match._id);
    expect([refused.status, refused.body.message]).toEqual([403, 'Відмітитися може лише гравець однієї зі сторін матчу']);
    expect((await checkIn(stranger, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await checkIn(stranger, 'not-a-uuid')).status).toBe(400);
    expect(await api.db.select().from(matchCheckIns).where(eq(matchCheckIns.matchId, match._id))).toEqual([]);

    const plain = await duel({});
    const off = await checkIn(plain.a, plain.match._id);
    expect([off.status, off.body.message]).toEqual([404, 'Цей турнір не просить відмічатися на матчі']);
    expect((await room(plain.a, plain.match._id)).body.checkIn).toBeNull();

    // A final waiting for its semi-finals.
    const four = [await player(api), await player(api), await player(api), await player(api)];
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: four, settings: { matchCheckInMinutes: 5 } });
    const made: StageView = await stage(api, cup.id, { format: 'single_elimination', seeding: 'order', settings: {} });
    const final = made.matches.find((m) => m.round === 2)!;
    const early = await checkIn(four[0]!, final._id);
    expect(early.status).toBe(403);
  });

  it('lets any member of a team check it in, not only its captain', async () => {
    const [captainA, captainB, member] = [await player(api), await player(api), await player(api)];
    const teamA = await team(api, captainA, 5, { members: [member.user.id] });
    const teamB = await team(api, captainB, 5);
    const built = await tournament(api, { game: gameId, approved: [teamA, teamB], settings: { matchCheckInMinutes: 10 } });
    const made: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: {} });
    const done = await checkIn(member, made.matches[0]!._id);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((await room(member, made.matches[0]!._id)).body).toMatchObject({ side: 'a', checkIn: { a: true, b: false } });
  });

  it('at the end of the time a side alone present wins by forfeit, once, however many sweeps race', async () => {
    const { a, match } = await duel();
    expect((await checkIn(a, match._id)).status).toBe(200);
    await expire(match._id);
    const counts = await Promise.all([
      closeDueCheckIns(api.db, new Date(), match._id),
      closeDueCheckIns(api.db, new Date(), match._id),
      closeDueCheckIns(api.db, new Date()),
    ]);
    expect(counts.filter((n) => n > 0).length).toBeGreaterThanOrEqual(1);
    const state = await read(match._id);
    expect(state.match).toMatchObject({ status: 'completed', forfeit: 'b', winner: a.user.id });
    expect(await history(match._id)).toEqual(['checkIn:a', 'noShow:b']);
    const [kept] = await api.db.select().from(matchRooms).where(eq(matchRooms.matchId, match._id));
    expect(kept?.checkInOutcome).toBe('forfeit');
  });

  it('a check-in after the time ran out is refused, and the match is settled as the sweep would', async () => {
    const { a, b, match } = await duel();
    expect((await checkIn(a, match._id)).status).toBe(200);
    await expire(match._id);
    const [late, sweep] = await Promise.all([checkIn(b, match._id), closeDueCheckIns(api.db, new Date(), match._id)]);
    expect(sweep).toBeLessThanOrEqual(1);
    expect([late.status, late.body.message]).toEqual([409, late.body.message]);
    expect(['Час на відмітку минув', 'Матч уже зіграно']).toContain(late.body.message);
    expect((await read(match._id)).match).toMatchObject({ status: 'completed', forfeit: 'b' });
    expect((await history(match._id)).filter((k) => k.startsWith('noShow'))).toEqual(['noShow:b']);
  });

  it('nobody came: the match waits for the organisers, flagged in the control room, and they are told', async () => {
    const { match, id } = await duel();
    const staff = await coOrganiser(api, id);
    await expire(match._id);
    expect(await closeDueCheckIns(api.db, new Date(), match._id)).toBe(1);
    expect(await closeDueCheckIns(api.db, new Date(), match._id)).toBe(0);
    expect((await read(match._id)).match.status).toBe('ready');
    expect(await history(match._id)).toEqual(['noShow']);
    const control = await api.call<ControlRoom>('GET', `/api/tournaments/${id}/control`, { token: staff.token });
    expect(control.body.calls.map((c) => [c.match._id, c.call?.side])).toEqual([[match._id, null]]);
    const told = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, staff.user.id), eq(notifications.kind, 'matchNoShow'), eq(notifications.link, `/tournaments/${id}/control`)));
    expect(told).toHaveLength(1);
  });

  it('turned on later, gives the matches already ready their whole time from then', async () => {
    const { a, match, id } = await duel({});
    await api.db
      .update(stageMatches)
      .set({ readyAt: new Date(Date.now() - 3600_000) })
      .where(eq(stageMatches.id, match._id));
    forgetKeptStages();
    const current = await api.call<{ title: string; date: string; game: string }>('GET', `/api/tournaments/${id}`);
    const { title, date, game: g } = current.body;
    const saved = await api.call('PUT', `/api/tournaments/${id}`, { token: admin.token, body: { title, date, game: g, matchCheckInMinutes: 10 } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await closeDueCheckIns(api.db, new Date(), match._id)).toBe(0);
    const by = Date.parse((await room(a, match._id)).body.checkIn!.by!);
    expect(by - Date.now()).toBeGreaterThan(9 * 60_000);
  });

  it('takes only whole minutes from 1 to 120 in the tournament form', async () => {
    for (const value of [0, 121, 1.5, '10', -1]) {
      const res = await api.call('POST', '/api/tournaments', {
        token: admin.token,
        body: { title: 'Кубок', date: '2030-05-01T16:00:00Z', game: gameId, matchCheckInMinutes: value },
      });
      expect(res.status, String(value)).toBe(400);
    }
    const res = await api.call('POST', '/api/tournaments', {
      token: admin.token,
      body: { title: 'Кубок', date: '2030-05-01T16:00:00Z', game: gameId, lobbyHost: 'anyone' },
    });
    expect(res.status).toBe(400);
  });
});

describe('the lobby details', () => {
  it('an organiser puts them; the two sides and the organisers read them, nobody else, and no public answer holds them', async () => {
    const { a, b, match, id } = await duel({});
    const secret = `connect 10.0.0.1:27015; password ${crypto.randomUUID()}`;
    const sideTry = await lobby(a, match._id, { text: secret });
    expect([sideTry.status, sideTry.body.message]).toEqual([403, 'Дані лобі вносить організатор турніру (або вища сіяна сторона, якщо турнір так вирішив)']);
    const staff = await coOrganiser(api, id);
    const saved = await lobby(staff, match._id, { text: `  ${secret}\n` });
    expect([saved.status, saved.body.message]).toEqual([200, 'Дані лобі збережено']);
    for (const who of [a, b, staff, admin]) {
      const seen = await room(who, match._id);
      expect(seen.status).toBe(200);
      expect(seen.body.lobby).toMatchObject({ text: secret, by: staff.user.username });
    }
    expect((await room(a, match._id)).body.lobby.editable).toBe(false);
    expect((await room(staff, match._id)).body.lobby.editable).toBe(true);
    const stranger = await player(api);
    const refused = await room(stranger, match._id);
    expect([refused.status, refused.body.message]).toEqual([403, 'Кімната матчу — лише для його учасників та організаторів турніру']);
    expect((await room(null, match._id)).status).toBe(401);
    expect((await lobby(stranger, match._id, { text: 'x' })).status).toBe(403);
    expect((await lobby(null, match._id, { text: 'x' })).status).toBe(401);

    // Every public answer about the match and its tournament, to a guest and to its players alike.
    for (const token of [undefined, a.token]) {
      for (const path of [
        `/api/matches/${match._id}`,
        `/api/tournaments/${id}`,
        `/api/tournaments/${id}/stages`,
        `/api/tournaments/${id}/bracket`,
        `/api/matches/${match._id}/veto`,
      ]) {
        const res = await api.call('GET', path, { token });
        expect(JSON.stringify(res.body), path).not.toContain(secret);
      }
    }
    expect(await history(match._id)).toEqual(['lobby']);
    const cleared = await lobby(staff, match._id, { text: '' });
    expect([cleared.status, cleared.body.message]).toEqual([200, 'Дані лобі прибрано']);
    expect((await room(a, match._id)).body.lobby.text).toBe('');
  });

  it('the higher seed hosts when the tournament says so: its side puts them, the other cannot', async () => {
    const { a, b, match } = await duel({ lobbyHost: 'higherSeed' });
    expect((await room(a, match._id)).body.lobby.editable).toBe(true);
    expect((await room(b, match._id)).body.lobby.editable).toBe(false);
    expect((await lobby(b, match._id, { text: 'ні' })).status).toBe(403);
    expect((await lobby(a, match._id, { text: 'steam://connect/10.0.0.2' })).status).toBe(200);
    expect((await room(b, match._id)).body.lobby.text).toBe('steam://connect/10.0.0.2');
    expect(await history(match._id)).toEqual(['lobby:a']);
  });

  it('takes text of up to 500 characters and nothing else; a played match takes none', async () => {
    const { match, id } = await duel({});
    const staff = await coOrganiser(api, id);
    const refused: [unknown, number][] = [
      [{ text: 'x'.repeat(501) }, 400],
      [{ text: 'a\u0000b' }, 400],
      [{ text: 42 }, 400],
      [{}, 400],
      [{ text: 'x', extra: true }, 400],
      ['text', 400],
    ];
    for (const [body, status] of refused) {
      const res = await lobby(staff, match._id, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.message).toBe('string');
    }
    expect(await api.db.select().from(matchRooms).where(eq(matchRooms.matchId, match._id))).toEqual([]);
    expect((await lobby(staff, match._id, { text: 'x'.repeat(500) })).status).toBe(200);
    const { version } = (await read(match._id)).match;
    expect((await api.call('PATCH', `/api/matches/${match._id}`, { token: admin.token, body: { scoreA: 1, scoreB: 0, version } })).status).toBe(200);
    const late = await lobby(staff, match._id, { text: 'y' });
    expect([late.status, late.body.message]).toEqual([409, 'Матч уже зіграно: дані лобі більше не потрібні']);
  });
});
