import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RoomView } from '../../src/lib/api/match-room.ts';
import type { MatchState, StageMatchView, StagesState } from '../../src/lib/api/stages.ts';
import type { VetoView } from '../../src/lib/api/veto.ts';
import { stageMatches } from '../../src/server/db/schema/index.ts';
import { forgetKeptStages } from '../../src/server/services/competition/stages/store.ts';
import { closeDueCheckIns } from '../../src/server/services/match-room/check-in.ts';
import { admin as adminOf, coOrganiser, player, stage, tournament, useTestApi, vetoGame, type Player } from '../support/builders.ts';

/*
 * A match room belongs to the pairing it was made for (decision 038). An organiser's correction
 * upstream can put another side into a match whose veto, check-in and lobby are under way: the
 * newcomer starts them over. A result withdrawn between the same sides reopens a check-in that
 * ended without both of them, and keeps one both made. Found by a review: the newcomer inherited
 * the old pair's bans and check-in, and a withdrawn no-show forfeit left the match unplayable.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await vetoGame(api);
});

type Message = { message: string };
const matchAt = async (id: string, round: number, position: number) =>
  (await api.call<StagesState>('GET', `/api/tournaments/${id}/stages`)).body.stages[0]!.matches.find((m) => m.round === round && m.position === position)!;
const enter = (m: StageMatchView, body: Record<string, unknown>) =>
  api.call('PATCH', `/api/matches/${m._id}`, { token: admin.token, body: { version: m.version, ...body } });
const checkIn = (who: Player, matchId: string) => api.call<Message & { both: boolean }>('POST', `/api/matches/${matchId}/check-in`, { token: who.token });
const report = (who: Player, matchId: string) =>
  api.call<Message>('POST', `/api/matches/${matchId}/report`, { token: who.token, body: { scoreA: 1, scoreB: 0 } });
const vetoOf = async (matchId: string) => (await api.call<VetoView>('GET', `/api/matches/${matchId}/veto`)).body;

/**
 * A solo cup of four, seeded in order, with `settings` for its single elimination: both semi-finals
 * won by side a, so the final (round 2) is ready between their winners.
 */
async function cupWithFinal(stageSettings: Record<string, unknown>, tournamentSettings: Record<string, unknown> = {}) {
  const players = await Promise.all([player(api), player(api), player(api), player(api)]);
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: players, settings: tournamentSettings });
  await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: stageSettings });
  const who = (id: string | null) => players.find((p) => p.user.id === id)!;
  for (const position of [1, 2]) {
    const semi = await matchAt(built.id, 1, position);
    if (tournamentSettings.matchCheckInMinutes) for (const id of [semi.a, semi.b]) expect((await checkIn(who(id), semi._id)).status).toBe(200);
    expect((await enter(await matchAt(built.id, 1, position), { scoreA: 1, scoreB: 0 })).status).toBe(200);
  }
  return { id: built.id, final: await matchAt(built.id, 2, 1), who };
}

describe('a match room whose sides change', () => {
  it('starts the veto over for the new pairing', async () => {
    const { id, final, who } = await cupWithFinal({ bestOf: 1, veto: {} });
    const starter = who(final.a);
    expect((await api.call('POST', `/api/matches/${final._id}/veto`, { token: starter.token, body: { action: 'roles', role: 'A' } })).status).toBe(200);
    expect((await api.call('POST', `/api/matches/${final._id}/veto`, { token: starter.token, body: { action: 'ban', map: 'Nuke' } })).status).toBe(200);
    expect((await vetoOf(final._id)).moves).toHaveLength(2);

    // The organiser corrects the first semi-final: its other player reaches the final.
    expect((await enter(await matchAt(id, 1, 1), { scoreA: 0, scoreB: 1 })).status).toBe(200);
    const after = await matchAt(id, 2, 1);
    expect(after.status).toBe('ready');
    expect(after.a).not.toBe(final.a);
    const veto = await vetoOf(after._id);
    expect({ moves: veto.moves, banned: veto.banned, next: veto.next }).toEqual({ moves: [], banned: [], next: { action: 'roles', slot: 'a' } });
    // The newcomer makes the first move; the old finalist is nobody's side now.
    expect((await api.call('POST', `/api/matches/${after._id}/veto`, { token: starter.token, body: { action: 'roles', role: 'A' } })).status).toBe(403);
    expect((await api.call('POST', `/api/matches/${after._id}/veto`, { token: who(after.a).token, body: { action: 'roles', role: 'A' } })).status).toBe(200);
  });

  it('asks the new pairing to check in, and forgets the lobby details given to the old one', async () => {
    const { id, final, who } = await cupWithFinal({}, { matchCheckInMinutes: 10 });
    for (const side of [final.a, final.b]) expect((await checkIn(who(side), final._id)).status).toBe(200);
    const staff = await coOrganiser(api, id);
    const secret = `connect 10.0.0.1:27015; password ${crypto.randomUUID()}`;
    expect((await api.call('PUT', `/api/matches/${final._id}/lobby`, { token: staff.token, body: { text: secret } })).status).toBe(200);

    expect((await enter(await matchAt(id, 1, 1), { scoreA: 0, scoreB: 1 })).status).toBe(200);
    const after = await matchAt(id, 2, 1);
    const newcomer = who(after.a);
    const early = await report(newcomer, after._id);
    expect([early.status, early.body.message]).toEqual([409, 'Спершу обидві сторони мають відмітитися на матч']);
    const seen = await api.call<RoomView>('GET', `/api/matches/${after._id}/room`, { token: newcomer.token });
    expect(seen.status).toBe(200);
    expect(JSON.stringify(seen.body)).not.toContain(secret);
    expect(seen.body.checkIn).toMatchObject({ a: false, b: true, outcome: null });

    expect((await checkIn(newcomer, after._id)).body.both).toBe(true);
    expect((await report(newcomer, after._id)).status).toBe(200);
  });
});

describe('a result withdrawn between the same sides', () => {
  it('reopens a check-in that ended in a forfeit: the absent side checks in, and the match is played', async () => {
    const [a, b] = [await player(api), await player(api)];
    const built = await tournament(api, { game: gameId, soloOnly: true, approved: [a, b], settings: { matchCheckInMinutes: 10 } });
    const match = (await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: {} })).matches[0]!;
    expect((await checkIn(a, match._id)).status).toBe(200);
    await api.db
      .update(stageMatches)
      .set({ readyAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(stageMatches.id, match._id));
    forgetKeptStages();
    expect(await closeDueCheckIns(api.db, new Date(), match._id)).toBe(1);
    const forfeited = (await api.call<MatchState>('GET', `/api/matches/${match._id}`)).body.match;
    expect(forfeited).toMatchObject({ status: 'completed', forfeit: 'b' });

    expect((await api.call('PATCH', `/api/matches/${match._id}`, { token: admin.token, body: { version: forfeited.version, reset: true } })).status).toBe(200);
    const again = await api.call<RoomView>('GET', `/api/matches/${match._id}/room`, { token: a.token });
    expect(again.body.checkIn).toMatchObject({ a: true, b: false, outcome: null });
    expect(Date.parse(again.body.checkIn!.by!)).toBeGreaterThan(Date.now() + 9 * 60_000);
    const late = await checkIn(b, match._id);
    expect([late.status, late.body.both]).toEqual([200, true]);
    expect((await report(a, match._id)).status).toBe(200);
  });

  it('keeps a check-in both sides made, and the veto they played', async () => {
    const { id, final, who } = await cupWithFinal({ bestOf: 1, veto: {} }, { matchCheckInMinutes: 10 });
    for (const side of [final.a, final.b]) expect((await checkIn(who(side), final._id)).status).toBe(200);
    const starter = who(final.a);
    expect((await api.call('POST', `/api/matches/${final._id}/veto`, { token: starter.token, body: { action: 'roles', role: 'A' } })).status).toBe(200);
    const vetoed = await vetoOf(final._id);
    expect((await enter(await matchAt(id, 2, 1), { scoreA: 1, scoreB: 0 })).status).toBe(200);

    expect((await enter(await matchAt(id, 2, 1), { reset: true })).status).toBe(200);
    const after = await matchAt(id, 2, 1);
    expect([after.status, after.a, after.b]).toEqual(['ready', final.a, final.b]);
    expect((await vetoOf(after._id)).moves).toEqual(vetoed.moves);
    expect((await report(starter, after._id)).status).toBe(200);
  });
});
