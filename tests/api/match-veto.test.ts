import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchState, StageView } from '../../src/lib/api/stages.ts';
import type { VetoView } from '../../src/lib/api/veto.ts';
import { ACTIVE_DUTY, admin as adminOf, game, player, stage, tournament, useTestApi, vetoGame, type Player } from '../support/builders.ts';

/*
 * The map veto of a match (issue 58), through the API: a game's pool, a stage that asks for a
 * veto, Valve's Bo3 played move by move by the two sides, and every refusal — out of turn, a map
 * taken or not in the pool, a stranger, a guest, a match not ready or already vetoed, a burst of
 * the same move — with its status and message, changing nothing.
 */

const api = useTestApi();
const CS2 = ACTIVE_DUTY;
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await vetoGame(api);
});

const veto = async (matchId: string) => {
  const res = await api.call<VetoView>('GET', `/api/matches/${matchId}/veto`);
  expect(res.status).toBe(200);
  return res.body;
};
const move = (matchId: string, who: Player, body: Record<string, unknown>) =>
  api.call<{ message: string; veto: VetoView }>('POST', `/api/matches/${matchId}/veto`, { token: who.token, body });

/** A solo cup of four seeded in application order, its stage best-of-`bestOf` with a veto; the players by seed and the stage. */
async function cup(bestOf = 3, settings: Record<string, unknown> = {}, vetoStarter?: 'coinToss') {
  const players = await Promise.all([player(api), player(api), player(api), player(api)]);
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: players, ...(vetoStarter ? { settings: { vetoStarter } } : {}) });
  const se: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order', settings: { bestOf, veto: {}, ...settings } });
  return { players, stage: se, id: built.id };
}

describe("a game's map pool", () => {
  it('is read by anyone and set by the admin alone: every map once, both sides named when there are maps', async () => {
    expect((await api.call('GET', `/api/games/${gameId}/maps`)).body).toEqual({ maps: CS2, sides: ['CT', 'T'] });
    const someone = await player(api);
    const body = { maps: ['Bind'], sides: ['A', 'B'] };
    expect((await api.call('PUT', `/api/games/${gameId}/maps`, { body })).status).toBe(401);
    expect((await api.call('PUT', `/api/games/${gameId}/maps`, { token: someone.token, body })).status).toBe(403);
    const spare = await game(api);
    const refused: [unknown, string][] = [
      [{ maps: ['Mirage', ' mirage '], sides: ['CT', 'T'] }, 'Карта в пулі двічі: кожну карту називають один раз'],
      [{ maps: ['Mirage'], sides: [] }, 'Назвіть обидві стартові сторони гри (наприклад, CT і T)'],
      [{ maps: ['Mirage'], sides: ['CT'] }, 'Назвіть обидві стартові сторони гри (наприклад, CT і T)'],
      [{ maps: ['Mirage'], sides: ['CT', '  '] }, 'Назвіть обидві стартові сторони гри (наприклад, CT і T)'],
      [{ maps: ['Mirage', ' '], sides: ['CT', 'T'] }, 'Назва карти не може бути порожньою'],
    ];
    for (const [sent, message] of refused) {
      const res = await api.call('PUT', `/api/games/${spare}/maps`, { token: admin.token, body: sent });
      expect(res.status, JSON.stringify(sent)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    for (const sent of [
      { maps: Array.from({ length: 16 }, (_, i) => `Map ${i}`), sides: ['A', 'B'] },
      { maps: ['x'.repeat(33)], sides: ['A', 'B'] },
      { maps: ['Mirage\u0000'], sides: ['A', 'B'] },
      { maps: 'Mirage', sides: ['A', 'B'] },
    ]) {
      expect((await api.call('PUT', `/api/games/${spare}/maps`, { token: admin.token, body: sent })).status).toBe(400);
    }
    expect((await api.call('GET', `/api/games/${spare}/maps`)).body).toEqual({ maps: [], sides: [] });
    const saved = await api.call('PUT', `/api/games/${spare}/maps`, { token: admin.token, body: { maps: ['  Dust   II ', 'Nuke'], sides: ['CT', 'T'] } });
    expect(saved.body).toEqual({ message: 'Пул карт збережено', maps: { maps: ['Dust II', 'Nuke'], sides: ['CT', 'T'] } });
    expect((await api.call('GET', '/api/games/00000000-0000-4000-8000-000000000000/maps')).status).toBe(404);
  });
});

describe('the veto of a match', () => {
  it("plays Valve's Bo3: the higher seed chooses A or B, each team moves in turn, the server takes the decider", async () => {
    const { players, stage: se } = await cup();
    const [first, second] = [players[0]!, players[1]!];
    const matchId = se.matches[0]!._id;
    const start = await veto(matchId);
    expect(start).toMatchObject({
      pool: CS2,
      sides: ['CT', 'T'],
      bestOf: 3,
      starter: 'a',
      startedBy: 'higherSeed',
      roleA: null,
      next: { action: 'roles', slot: 'a' },
      done: false,
    });
    expect(start.sequence).toHaveLength(10);

    // The higher seed (side a) chooses to be Team B: side b bans first.
    expect((await move(matchId, second, { action: 'roles', role: 'A' })).body.message).toBe('Зараз хід суперника');
    const missing = await move(matchId, first, { action: 'roles' });
    expect([missing.status, missing.body.message]).toEqual([400, 'Вкажіть, ким будете: A чи B']);
    expect((await move(matchId, first, { action: 'roles', role: 'B' })).status).toBe(200);
    const steps: [Player, Record<string, unknown>][] = [
      [second, { action: 'ban', map: 'Nuke' }],
      [first, { action: 'ban', map: 'Ancient' }],
      [second, { action: 'pick', map: 'Mirage' }],
      [first, { action: 'side', side: 1 }],
      [first, { action: 'pick', map: 'Inferno' }],
      [second, { action: 'side', side: 0 }],
      // Valve's second ban round: Team B (side a) first, then Team A.
      [first, { action: 'ban', map: 'Anubis' }],
      [second, { action: 'ban', map: 'Overpass' }],
    ];
    for (const [who, body] of steps) {
      const res = await move(matchId, who, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body.message).toBe('Хід зроблено');
    }
    const before = await veto(matchId);
    expect(before.maps).toEqual([
      { map: 'Mirage', pickedBy: 'b', side: { slot: 'a', side: 1 } },
      { map: 'Inferno', pickedBy: 'a', side: { slot: 'b', side: 0 } },
      { map: 'Dust II', pickedBy: null, side: null },
    ]);
    expect(before.moves.at(-1)).toMatchObject({ action: 'decider', slot: null, map: 'Dust II' });
    expect(before.next).toEqual({ action: 'side', slot: 'a' });
    const last = await move(matchId, first, { action: 'side', side: 0 });
    expect([last.status, last.body.message, last.body.veto.done]).toEqual([200, 'Вето завершено: карти визначено', true]);
    const over = await move(matchId, first, { action: 'ban', map: 'Mirage' });
    expect([over.status, over.body.message]).toEqual([409, 'Вето вже завершено']);
    // The role choice and the sequence's ten steps.
    expect((await veto(matchId)).moves).toHaveLength(11);

    // The games are played on the maps in order: a report carries each game's map, whatever the form sent.
    const games = [
      { a: 13, b: 9, map: 'Nuke' },
      { a: 7, b: 13 },
      { a: 13, b: 11 },
    ];
    const reported = await api.call<{ state: MatchState }>('POST', `/api/matches/${matchId}/report`, {
      token: first.token,
      body: { scoreA: 2, scoreB: 1, games },
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    const confirmed = await api.call<{ state: MatchState }>('POST', `/api/matches/${matchId}/confirm`, { token: second.token, body: {} });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.state.match.games).toEqual([
      { a: 13, b: 9, map: 'Mirage' },
      { a: 7, b: 13, map: 'Inferno' },
      { a: 13, b: 11, map: 'Dust II' },
    ]);
  });

  it('refuses a move out of turn, a map taken or not in the pool, the wrong step, a stranger and a guest; nothing is written', async () => {
    const { players, stage: se } = await cup();
    const [first, second] = [players[0]!, players[1]!];
    const matchId = se.matches[0]!._id;
    await move(matchId, first, { action: 'roles', role: 'A' });
    await move(matchId, first, { action: 'ban', map: 'Nuke' });
    const cases: [Player | null, Record<string, unknown>, number, string][] = [
      [first, { action: 'ban', map: 'Mirage' }, 409, 'Зараз хід суперника'],
      [second, { action: 'ban', map: 'Nuke' }, 409, 'Цю карту вже викреслено або вибрано'],
      [second, { action: 'ban', map: 'Cache' }, 409, 'Такої карти немає в пулі матчу'],
      [second, { action: 'ban', map: 'nuke' }, 409, 'Такої карти немає в пулі матчу'],
      [second, { action: 'pick', map: 'Mirage' }, 409, 'Зараз інший крок вето'],
      [players[2]!, { action: 'ban', map: 'Mirage' }, 403, 'Вето проводять лише гравці матчу (у командах — капітани)'],
    ];
    for (const [who, body, status, message] of cases) {
      const res = await move(matchId, who!, body);
      expect([res.status, res.body.message], JSON.stringify(body)).toEqual([status, message]);
    }
    expect((await api.call('POST', `/api/matches/${matchId}/veto`, { body: { action: 'ban', map: 'Mirage' } })).status).toBe(401);
    for (const body of [
      { action: 'explode' },
      { action: 'ban', map: 'x'.repeat(33) },
      { action: 'side', side: 2 },
      { action: 'ban', map: 'Mirage', extra: 1 },
      { action: 'ban', map: 42 },
      [],
    ]) {
      expect((await api.call('POST', `/api/matches/${matchId}/veto`, { token: second.token, body })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await veto(matchId)).moves.map((m) => m.action)).toEqual(['roles', 'ban']);
  });

  it('takes one of a burst of the same move, and refuses the rest', async () => {
    const { players, stage: se } = await cup();
    const matchId = se.matches[1]!._id;
    const starter = players[2]!;
    const answers = await Promise.all(Array.from({ length: 6 }, () => move(matchId, starter, { action: 'roles', role: 'A' })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const res of answers.filter((r) => r.status !== 200)) expect(res.status).toBe(409);
    expect((await veto(matchId)).moves).toHaveLength(1);
  });

  it('waits for both sides of a match, and is not offered where the stage asks for none', async () => {
    const { players, stage: se } = await cup();
    const final = se.matches.find((m) => m.round === 2)!;
    expect(await veto(final._id)).toMatchObject({ starter: null, next: null, moves: [] });
    const early = await move(final._id, players[0]!, { action: 'roles', role: 'A' });
    expect([early.status, early.body.message]).toEqual([403, 'Вето проводять лише гравці матчу (у командах — капітани)']);

    const plain = await tournament(api, { game: gameId, soloOnly: true, approved: 2 });
    const noVeto = await stage(api, plain.id, { format: 'single_elimination' });
    const off = await api.call('GET', `/api/matches/${noVeto.matches[0]!._id}/veto`);
    expect([off.status, off.body.message]).toEqual([404, 'У цьому матчі вето карт не проводиться']);
    expect((await api.call('GET', '/api/matches/00000000-0000-4000-8000-000000000000/veto')).status).toBe(404);
  });

  it("plays the organiser's own sequence for a best-of, on the tournament's own pool, and refuses one that does not add up", async () => {
    const faceitBo1 = [...['A', 'B', 'B', 'A'].map((by) => ({ action: 'ban', by })), { action: 'decider' }, { action: 'side', by: 'A' }];
    const { stage: se, id } = await cup(1, { veto: { sequences: { '1': faceitBo1 } } });
    // The tournament plays five maps of its own.
    const cupRow = (await api.call<{ title: string; date: string; game: string }>('GET', `/api/tournaments/${id}`)).body;
    const edited = await api.call('PUT', `/api/tournaments/${id}`, {
      token: admin.token,
      body: { title: cupRow.title, date: cupRow.date, game: cupRow.game, maps: ['Mirage', 'Inferno', 'Nuke', 'Ancient', 'Anubis'] },
    });
    expect(edited.status).toBe(200);
    const shown = await veto(se.matches[0]!._id);
    expect(shown.pool).toEqual(['Mirage', 'Inferno', 'Nuke', 'Ancient', 'Anubis']);
    expect(shown.sequence).toEqual(faceitBo1);

    const another = await tournament(api, { game: gameId, soloOnly: true, approved: 2 });
    const bad = await api.call('POST', `/api/tournaments/${another.id}/stages`, {
      token: admin.token,
      body: { format: 'single_elimination', settings: { bestOf: 3, veto: { sequences: { '3': [{ action: 'ban', by: 'A' }, { action: 'decider' }] } } } },
    });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringMatching(/^Послідовність вето не складається/)]);
  });

  it('lets the server toss the coin when the tournament asks: the same answer on every read', async () => {
    const { stage: se } = await cup(1, {}, 'coinToss');
    const reads = await Promise.all(se.matches.filter((m) => m.round === 1).map(async (m) => [await veto(m._id), await veto(m._id)] as const));
    for (const [once, again] of reads) {
      expect(once.startedBy).toBe('coinToss');
      expect(once.starter).toMatch(/^[ab]$/);
      expect(again.starter).toBe(once.starter);
    }
  });
});
