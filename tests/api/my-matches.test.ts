import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MyMatches } from '../../src/lib/api/schedule.ts';
import type { StagesState } from '../../src/lib/api/stages.ts';
import { tournaments } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, game, player, stage, team, tournament, tournamentStatus, useTestApi, type Player } from '../support/builders.ts';

/*
 * «Мої матчі» (issue 22, GET /api/users/me/matches): my and my teams' next matches, never anyone
 * else's, and the tournaments whose check-in is open for me.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

const mine = async (p: Player) => {
  const res = await api.call<MyMatches>('GET', '/api/users/me/matches', { token: p.token });
  expect(res.status).toBe(200);
  return res.body;
};
const matchesOf = async (id: string) => (await api.call<StagesState>('GET', `/api/tournaments/${id}/stages`)).body.stages[0]!.matches;

describe('my matches', () => {
  let players: Player[];
  let cupId: string;
  let cup: Awaited<ReturnType<typeof tournament>>;

  beforeAll(async () => {
    players = await Promise.all([player(api), player(api), player(api), player(api)]);
    cup = await tournament(api, { game: gameId, soloOnly: true, approved: players, title: 'Кубок Львова' });
    cupId = cup.id;
    const se = await stage(api, cup.id, { format: 'single_elimination', seeding: 'order' });
    await api.call('POST', `/api/tournaments/${cup.id}/stages/${se._id}/schedule`, {
      token: admin.token,
      body: { start: '2030-05-01T19:30:00+03:00', roundMinutes: 60 },
    });
  });

  it('shows a player their next match: tournament, opponent, time, state, and that they may report', async () => {
    const [first, second] = await matchesOf(cupId);
    const p1 = await mine(players[0]!);
    expect(p1.matches).toHaveLength(1);
    const [m] = p1.matches;
    const slotOfP1 = first!.a === players[0]!.user.id ? 'a' : 'b';
    expect(m).toMatchObject({
      _id: first!._id,
      tournament: { _id: cupId, title: 'Кубок Львова', soloOnly: true },
      me: { _id: players[0]!.user.id, name: players[0]!.user.username, slot: slotOfP1 },
      opponent: { _id: players[1]!.user.id, name: players[1]!.user.username },
      scheduledAt: '2030-05-01T16:30:00.000Z',
      status: 'ready',
      reportState: null,
      canReport: true,
      checkIn: null,
    });
    // The other pair's match is theirs alone.
    expect((await mine(players[2]!)).matches.map((x) => x._id)).toEqual([second!._id]);
    expect(await mine(await player(api))).toEqual({ matches: [], checkIns: [] });
    expect((await api.call('GET', '/api/users/me/matches')).status).toBe(401);
  });

  it('moves on once a match is played: the winner’s next is the final, the loser has none', async () => {
    const [first] = await matchesOf(cupId);
    const winnerIsA = first!.a === players[0]!.user.id;
    const played = await api.call('PATCH', `/api/matches/${first!._id}`, {
      token: admin.token,
      body: { version: first!.version, scoreA: winnerIsA ? 2 : 0, scoreB: winnerIsA ? 0 : 2 },
    });
    expect(played.status).toBe(200);
    const p1 = await mine(players[0]!);
    expect(p1.matches.map((m) => [m.round, m.status, m.opponent])).toEqual([[2, 'waiting', null]]);
    expect((await mine(players[1]!)).matches).toEqual([]);
  });

  it('drops the matches of a finished tournament', async () => {
    const duo = [await player(api), await player(api)];
    const done = await tournament(api, { game: gameId, soloOnly: true, approved: duo });
    await stage(api, done.id, { format: 'single_elimination' });
    expect((await mine(duo[0]!)).matches).toHaveLength(1);
    await tournamentStatus(api, done, 'finished');
    expect((await mine(duo[0]!)).matches).toEqual([]);
  });
});

describe('my team’s matches and check-in', () => {
  it('every member sees the team’s match; only the captain may report and check in', async () => {
    const captain = await player(api);
    const member = await player(api);
    const ours = await team(api, captain, 5, { members: [member.user.id] });
    const theirCaptain = await player(api);
    const theirs = await team(api, theirCaptain, 5);
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    const cup = await tournament(api, { game: gameId, soloOnly: false, approved: [ours, theirs], date: soon, title: 'Командний кубок' });
    // Check-in on (the admin form's field), its window open: the start is 30 minutes away.
    await api.db.update(tournaments).set({ checkInEnabled: true }).where(eq(tournaments.id, cup.id));
    const forCaptain = await mine(captain);
    const forMember = await mine(member);
    expect(forCaptain.checkIns).toMatchObject([
      { tournament: { _id: cup.id, title: 'Командний кубок' }, team: { _id: ours.id }, open: true, checkedIn: false, canCheckIn: true },
    ]);
    expect(forMember.checkIns).toMatchObject([{ tournament: { _id: cup.id }, open: true, canCheckIn: false }]);
    expect((await mine(await player(api))).checkIns).toEqual([]);
    // The member may not check the team in; the captains do (and stages seed only the checked in).
    expect((await api.call('POST', `/api/tournaments/${cup.id}/check-in`, { token: member.token })).status).toBe(403);
    for (const who of [captain, theirCaptain]) expect((await api.call('POST', `/api/tournaments/${cup.id}/check-in`, { token: who.token })).status).toBe(200);
    expect((await mine(member)).checkIns[0]!.checkedIn).toBe(true);

    const se = await stage(api, cup.id, { format: 'single_elimination' });
    const [c] = (await mine(captain)).matches;
    const [m] = (await mine(member)).matches;
    expect([c!._id, m!._id]).toEqual([se.matches[0]!._id, se.matches[0]!._id]);
    expect([c!.canReport, m!.canReport]).toEqual([true, false]);
    expect(m!.me).toMatchObject({ _id: ours.id, name: ours.name });
    expect(m!.opponent).toMatchObject({ _id: theirs.id });
    // Drawn, the lineup is fixed: the route refuses a check-in (or undoing one) though the window's
    // time has not run out, so no list offers the button any more.
    expect(m!.checkIn).toMatchObject({ open: false, checkedIn: true });
    expect((await mine(captain)).checkIns).toEqual([]);
    expect((await mine(member)).checkIns).toEqual([]);
    const refused = await api.call('DELETE', `/api/tournaments/${cup.id}/check-in`, { token: captain.token });
    expect(refused.status).toBe(409);
  });
});

describe('my applications (GET /api/users/me/applications)', () => {
  const applied = async (p: Player) => {
    const res = await api.call<{ applications: { tournament: string; status: string }[] }>('GET', '/api/users/me/applications', { token: p.token });
    expect(res.status).toBe(200);
    return res.body.applications.map((a) => [a.tournament, a.status]).sort();
  };

  it('lists the tournaments not finished where I or my team applied, never anyone else’s', async () => {
    const [soloist, captain, member, stranger] = await Promise.all([player(api), player(api), player(api), player(api)]);
    const solo = await tournament(api, { game: gameId, soloOnly: true, settings: { maxParticipants: 2 }, approved: 2 });
    const open = await tournament(api, { game: gameId, soloOnly: true });
    const teamCup = await tournament(api, { game: gameId });
    const squad = await team(api, captain, 5, { members: [member.user.id] });
    // Waitlisted (the cap is full), pending, and the team's one which the member did not file.
    expect((await api.call('POST', '/api/applications', { token: soloist.token, body: { tournament: solo.id } })).status).toBe(201);
    expect((await api.call('POST', '/api/applications', { token: soloist.token, body: { tournament: open.id } })).status).toBe(201);
    expect((await api.call('POST', '/api/applications', { token: captain.token, body: { tournament: teamCup.id, team: squad.id } })).status).toBe(201);

    expect(await applied(soloist)).toEqual([[open.id, 'pending'], [solo.id, 'waitlisted']].sort());
    expect(await applied(captain)).toEqual([[teamCup.id, 'pending']]);
    expect(await applied(member)).toEqual([[teamCup.id, 'pending']]);
    expect(await applied(stranger)).toEqual([]);

    // A finished tournament no longer counts; a withdrawn application neither.
    await api.db.update(tournaments).set({ status: 'finished' }).where(eq(tournaments.id, solo.id));
    const mineOpen = await api.call<{ application: { _id: string } }>('GET', `/api/tournaments/${open.id}/eligibility`, { token: soloist.token });
    const withdrawn = await api.call('DELETE', `/api/applications/${mineOpen.body.application._id}`, { token: soloist.token });
    expect(withdrawn.status).toBe(200);
    expect(await applied(soloist)).toEqual([]);
    expect((await api.call('GET', '/api/users/me/applications')).status).toBe(401);
  });
});
