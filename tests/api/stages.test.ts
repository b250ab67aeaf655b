import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StagesState, StageMatchView, StageView } from '../../src/lib/api/stages.ts';
import { standardOrder } from '../../src/lib/domain/bracket.ts';
import { applications, matches, notifications, playerGameStats, stageMatches, stages as stagesTable, tournaments } from '../../src/server/db/schema/index.ts';
import {
  accounts,
  admin as adminOf,
  application,
  game,
  player as newPlayer,
  recordedMatch,
  stage,
  statsGame,
  statsOn,
  tournament,
  tournamentStatus,
  useTestApi,
  type Player,
} from '../support/builders.ts';

/*
 * The competition engine through the API (issue 21): stages of every format, results with their
 * rules and refusals, corrections that cascade, Swiss rounds, groups → playoffs, disqualification,
 * places, the SPEC bracket kept in step, and a fixed number of queries for large stages.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'Dota 2');
});

const solo = (approved: number) => tournament(api, { soloOnly: true, game: gameId, approved });

type Saved = {
  message: string;
  match: StageMatchView;
  reset: StageMatchView[];
  preview: boolean;
};

const patch = (match: Pick<StageMatchView, '_id' | 'version'>, body: Record<string, unknown>) =>
  api.call<Saved>('PATCH', `/api/matches/${match._id}`, {
    token: admin.token,
    body: { version: match.version, ...body },
  });

const stagesOf = async (tournamentId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`)).body.stages;

/** The stage's match at (side, round, position), as it is now. */
async function matchAt(
  tournamentId: string,
  stageId: string,
  where: {
    side?: string | null;
    group?: number | null;
    round: number;
    position: number;
  },
) {
  const current = (await stagesOf(tournamentId)).find((s) => s._id === stageId)!;
  return current.matches.find(
    (m) =>
      (where.side === undefined || m.side === where.side) &&
      (where.group === undefined || m.group === where.group) &&
      m.round === where.round &&
      m.position === where.position,
  )!;
}

/** Plays every ready match of a stage (side a wins 2–1 unless `winner` picks), until none is ready. */
async function playOut(tournamentId: string, stageId: string, winner: (m: StageMatchView) => 'a' | 'b' = () => 'a') {
  for (let guard = 0; guard < 600; guard++) {
    const current = (await stagesOf(tournamentId)).find((s) => s._id === stageId)!;
    const ready = current.matches.find((m) => m.status === 'ready');
    if (!ready) return current;
    const side = winner(ready);
    const res = await patch(ready, side === 'a' ? { scoreA: 2, scoreB: 1 } : { scoreA: 1, scoreB: 2 });
    expect(res.status).toBe(200);
  }
  throw new Error('stage did not finish');
}

describe('creating a stage', () => {
  it('builds a double elimination of 8: 15 matches, losers and grand final with a reset, and starts the tournament', async () => {
    const cup = await solo(8);
    const created = await api.call<{ message: string; stage: StageView }>('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: {
        format: 'double_elimination',
        seeding: 'standard',
        settings: { grandFinal: 'double' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Етап створено: 8 учасників');
    const { matches } = created.body.stage;
    expect(matches).toHaveLength(15);
    expect(matches.filter((m) => m.side === 'winners')).toHaveLength(7);
    expect(matches.filter((m) => m.side === 'losers')).toHaveLength(6);
    expect(matches.filter((m) => m.side === 'grand_final')).toHaveLength(2);
    // Standard seeding: 1 v 8, 4 v 5, 2 v 7, 3 v 6.
    const seeds = standardOrder(8).map((seed) => cup.approved[seed - 1]);
    expect(matches.filter((m) => m.side === 'winners' && m.round === 1).flatMap((m) => [m.a, m.b])).toEqual(seeds);
    const [row] = await api.db.select().from(tournaments).where(eq(tournaments.id, cup.id));
    expect(row!.status).toBe('started');
  });

  it('closes applications and fixes the lineup as drawing a bracket does', async () => {
    const cup = await solo(3);
    const waiting = await application(api, cup.id, 'pending');
    const approved = await api.db.select().from(applications).where(eq(applications.tournamentId, cup.id));
    await stage(api, cup.id, { format: 'round_robin' });
    const approve = await api.call('PATCH', `/api/applications/${waiting.id}/status`, { token: admin.token, body: { status: 'approved' } });
    expect(approve.status).toBe(409);
    const drop = approved.find((a) => a.status === 'approved')!;
    expect((await api.call('DELETE', `/api/applications/${drop.id}`, { token: admin.token })).status).toBe(409);
    const late = await newPlayer(api);
    expect((await api.call('POST', '/api/applications', { token: late.token, body: { tournament: cup.id } })).status).toBe(409);
  });

  it('builds a round robin of 5 in one group: 10 matches, everyone meets everyone once', async () => {
    const cup = await solo(5);
    const created = await stage(api, cup.id, { format: 'round_robin' });
    expect(created.matches).toHaveLength(10);
    const pairs = new Set(created.matches.map((m) => [m.a, m.b].sort().join()));
    expect(pairs.size).toBe(10);
    expect(created.groups).toHaveLength(1);
    expect(created.groups[0]!.standings.map((r) => r.points)).toEqual([0, 0, 0, 0, 0]);
  });

  it('seeds by rating: the highest rated first, the unrated last in application order', async () => {
    const statsGameId = await statsGame(api);
    const [loser, winner, first, last] = await Promise.all([newPlayer(api), newPlayer(api), newPlayer(api), newPlayer(api)]);
    const warmup = await tournament(api, {
      soloOnly: true,
      game: statsGameId,
      approved: [loser!, winner!],
    });
    await statsOn(api, warmup.id);
    // One beats the other: rated above and below 1000; two newcomers stay unrated.
    await recordedMatch(api, warmup.id, {
      participant1Type: 'user',
      participant1Id: winner!.user.id,
      participant2Type: 'user',
      participant2Id: loser!.user.id,
      score1: 2,
      score2: 0,
    });
    const ranked = await tournament(api, {
      soloOnly: true,
      game: statsGameId,
      approved: [first!, loser!, last!, winner!],
    });
    const created = await stage(api, ranked.id, {
      format: 'round_robin',
      seeding: 'rating',
    });
    expect(created.seeds).toEqual([winner!.user.id, loser!.user.id, first!.user.id, last!.user.id]);
  });

  it('seeds manually in the order given, and refuses a list that is not every participant once', async () => {
    const cup = await solo(4);
    const order = [...cup.approved].reverse();
    const bad = await api.call('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: {
        format: 'single_elimination',
        seeding: 'manual',
        participants: order.slice(1),
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe('Для ручного посіву вкажіть кожного учасника етапу рівно один раз');
    const twice = await api.call('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: {
        format: 'single_elimination',
        seeding: 'manual',
        participants: [order[0], order[0], order[1], order[2]],
      },
    });
    expect(twice.status).toBe(422);
    expect(await stagesOf(cup.id)).toEqual([]);
    const created = await stage(api, cup.id, {
      format: 'single_elimination',
      seeding: 'manual',
      participants: order,
    });
    // Manual order, then standard pairing: 1 v 4, 2 v 3.
    expect(created.seeds).toEqual([order[0], order[3], order[1], order[2]]);
  });

  it('refuses what cannot be built, with a Ukrainian message, and writes nothing', async () => {
    const three = await solo(3);
    const cases: [unknown, number, string | null][] = [
      [{ format: 'single_elimination', settings: { thirdPlace: true } }, 422, 'Матч за третє місце можливий лише з 4 учасників'],
      [{ format: 'knockout' }, 400, null],
      [{ format: 'round_robin', settings: { bestOf: 2 } }, 400, null],
      [{ format: 'round_robin', settings: { groups: 0 } }, 400, null],
      [{ format: 'round_robin', extra: true }, 400, null],
      [
        {
          format: 'single_elimination',
          from: { stageId: '00000000-0000-4000-8000-000000000000', advance: 2 },
        },
        404,
        'Попередній етап не знайдено в цьому турнірі',
      ],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.call('POST', `/api/tournaments/${three.id}/stages`, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(/[а-яіїєґ]/i);
    }
    expect(await api.db.select().from(stagesTable).where(eq(stagesTable.tournamentId, three.id))).toEqual([]);
    const one = await solo(1);
    expect(
      (
        await api.call('POST', `/api/tournaments/${one.id}/stages`, {
          token: admin.token,
          body: { format: 'swiss' },
        })
      ).body.message,
    ).toBe('Потрібно щонайменше 2 учасники для створення сітки');
    const finished = await solo(2);
    await tournamentStatus(api, finished, 'finished');
    const late = await api.call('POST', `/api/tournaments/${finished.id}/stages`, { token: admin.token, body: { format: 'swiss' } });
    expect(late.status).toBe(409);
    expect(
      (await api.call('POST', `/api/tournaments/00000000-0000-4000-8000-000000000000/stages`, { token: admin.token, body: { format: 'swiss' } })).status,
    ).toBe(404);
  });
});

describe('entering results', () => {
  it('derives the winner from the score, advances them and bumps the version', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, {
      format: 'single_elimination',
      seeding: 'standard',
      settings: { bestOf: 3 },
    });
    const first = created.matches[0]!;
    const res = await patch(first, {
      scoreA: 1,
      scoreB: 2,
      comment: 'Третя карта',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Результат збережено');
    expect(res.body.match).toMatchObject({
      winner: first.b,
      status: 'completed',
      scoreA: 1,
      scoreB: 2,
      comment: 'Третя карта',
      version: first.version + 1,
    });
    const final = await matchAt(cup.id, created._id, {
      side: 'winners',
      round: 2,
      position: 1,
    });
    expect(final.a).toBe(first.b);
    expect(final.status).toBe('waiting');
  });

  it('judges best-of-N and per-game scores, and refuses draws in elimination', async () => {
    const cup = await solo(2);
    const created = await stage(api, cup.id, {
      format: 'single_elimination',
      settings: { bestOf: 3 },
    });
    const match = created.matches[0]!;
    const refusals: [Record<string, unknown>, number, string][] = [
      [{ scoreA: 1, scoreB: 1 }, 422, 'Нічия можлива лише в круговій і швейцарській системах, але не зі швейцарськими порогами перемог і поразок'],
      [{ scoreA: 3, scoreB: 0 }, 422, 'Рахунок не відповідає формату: матч до 2 перемог'],
      [{ scoreA: 1, scoreB: 0 }, 422, 'Рахунок не відповідає формату: матч до 2 перемог'],
      [
        {
          games: [
            { a: 16, b: 10 },
            { a: 13, b: 13 },
          ],
        },
        422,
        'Гра не може завершитися внічию',
      ],
      [
        {
          games: [
            { a: 16, b: 10 },
            { a: 16, b: 12 },
            { a: 3, b: 16 },
          ],
        },
        422,
        'Після вирішальної гри інших ігор бути не може',
      ],
      [
        {
          scoreA: 2,
          scoreB: 0,
          games: [
            { a: 16, b: 10 },
            { a: 10, b: 16 },
            { a: 16, b: 3 },
          ],
        },
        422,
        'Рахунок матчу не збігається з рахунками ігор',
      ],
      [{ scoreA: 2 }, 422, 'Вкажіть рахунок обох сторін'],
      [{ scoreA: -1, scoreB: 2 }, 400, ''],
      [{ scoreA: 'два', scoreB: 1 }, 400, ''],
    ];
    for (const [body, status, message] of refusals) {
      const res = await patch(match, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (message) expect(res.body.message).toBe(message);
    }
    expect((await matchAt(cup.id, created._id, { round: 1, position: 1 })).status).toBe('ready');
    const games = [
      { a: 16, b: 10 },
      { a: 10, b: 16 },
      { a: 16, b: 3 },
    ];
    const res = await patch(match, { games });
    expect(res.status).toBe(200);
    expect(res.body.match).toMatchObject({
      scoreA: 2,
      scoreB: 1,
      games,
      winner: match.a,
    });
  });

  it('allows draws in round robin and counts them in the table', async () => {
    const cup = await solo(2);
    const created = await stage(api, cup.id, { format: 'round_robin' });
    const res = await patch(created.matches[0]!, { scoreA: 1, scoreB: 1 });
    expect(res.status).toBe(200);
    expect(res.body.match).toMatchObject({ winner: null, status: 'completed' });
    const [current] = await stagesOf(cup.id);
    expect(current!.groups[0]!.standings.map((r) => [r.draws, r.points])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(current!.complete).toBe(true);
  });

  it('forfeits a side: the other wins whatever the score', async () => {
    const cup = await solo(2);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const match = created.matches[0]!;
    const res = await patch(match, { forfeit: 'a' });
    expect(res.body.match).toMatchObject({
      winner: match.b,
      forfeit: 'a',
      status: 'completed',
    });
  });

  it('refuses a result for a match whose sides are not known, for a bye, and on a stale version', async () => {
    const cup = await solo(3);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const bye = created.matches.find((m) => m.bye)!;
    expect((await patch(bye, { scoreA: 1, scoreB: 0 })).body.message).toBe('Це автоматичний прохід: у ньому немає результату');
    const final = created.matches.find((m) => m.round === 2)!;
    const waiting = await patch(final, { scoreA: 1, scoreB: 0 });
    expect(waiting.status).toBe(409);
    expect(waiting.body.message).toBe('Суперники в матчі ще невідомі: результат вносять, коли обидва відомі');
    const ready = created.matches.find((m) => m.status === 'ready')!;
    await patch(ready, { scoreA: 1, scoreB: 0 });
    const stale = await patch(ready, { scoreA: 0, scoreB: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe('Матч уже змінив інший адміністратор. Показано новішу версію.');
    expect(stale.body.match).toMatchObject({
      winner: ready.a,
      version: ready.version + 1,
    });
    expect(
      (await api.call('PATCH', `/api/matches/00000000-0000-4000-8000-000000000000`, { token: admin.token, body: { version: 0, scoreA: 1, scoreB: 0 } })).status,
    ).toBe(404);
  });

  it('sets the time and comment of a match that is still waiting', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const final = created.matches.find((m) => m.round === 2)!;
    const res = await patch(final, {
      scheduledAt: '2030-05-01T18:00:00+03:00',
      comment: 'Головна сцена',
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Матч оновлено');
    expect(res.body.match).toMatchObject({
      scheduledAt: '2030-05-01T15:00:00.000Z',
      comment: 'Головна сцена',
      status: 'waiting',
    });
  });

  it('keeps one result when the same edit is sent twice at once', async () => {
    const cup = await solo(2);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const match = created.matches[0]!;
    const answers = await Promise.all([patch(match, { scoreA: 2, scoreB: 0 }), patch(match, { scoreA: 0, scoreB: 2 })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const [row] = await api.db.select().from(stageMatches).where(eq(stageMatches.id, match._id));
    expect(row!.version).toBe(match.version + 1);
  });
});

describe('correcting a result', () => {
  it('previews the matches it would reset, then resets them when confirmed', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, {
      format: 'single_elimination',
      seeding: 'standard',
      settings: { thirdPlace: true },
    });
    await playOut(cup.id, created._id);
    const semi = await matchAt(cup.id, created._id, {
      side: 'winners',
      round: 1,
      position: 1,
    });
    const preview = await patch(semi, { scoreA: 0, scoreB: 2, preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body.preview).toBe(true);
    expect(preview.body.message).toBe('Зміна скине результати 2 матчів');
    expect(preview.body.reset.map((m) => m.side).sort()).toEqual(['third_place', 'winners']);
    // Nothing changed yet.
    expect(
      (
        await matchAt(cup.id, created._id, {
          side: 'winners',
          round: 2,
          position: 1,
        })
      ).status,
    ).toBe('completed');
    const done = await patch(semi, { scoreA: 0, scoreB: 2 });
    expect(done.body.reset).toHaveLength(2);
    const final = await matchAt(cup.id, created._id, {
      side: 'winners',
      round: 2,
      position: 1,
    });
    expect(final).toMatchObject({ a: semi.b, status: 'ready', winner: null });
    const third = await matchAt(cup.id, created._id, {
      side: 'third_place',
      round: 1,
      position: 1,
    });
    expect(third).toMatchObject({ a: semi.a, status: 'ready' });
    // The players of the final and of the match for third place are told their results were withdrawn (issue 57), nobody else.
    const [finalBefore, thirdBefore] = [preview.body.reset.find((m) => m.side === 'winners')!, preview.body.reset.find((m) => m.side === 'third_place')!];
    const told = await api.db.select().from(notifications).where(eq(notifications.kind, 'matchReset'));
    const mine = told.filter((n) => n.payload.tournamentId === cup.id);
    expect(mine.map((n) => n.userId).sort()).toEqual([finalBefore.a, finalBefore.b, thirdBefore.a, thirdBefore.b].sort());
    expect(mine.every((n) => (n.params as { match?: string }).match === `M${semi.number}`)).toBe(true);
    expect(mine.find((n) => n.link === `/matches/${finalBefore._id}`)?.text).toMatch(/^Результат вашого матчу проти .+ скасовано: організатор змінив результат M1, від якого він залежав\.$/);
  });

  it('withdraws a result and everything built on it', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    await playOut(cup.id, created._id);
    const semi = await matchAt(cup.id, created._id, { round: 1, position: 2 });
    const res = await patch(semi, { reset: true });
    expect(res.body.message).toBe('Результат скасовано');
    expect(res.body.match.status).toBe('ready');
    const final = await matchAt(cup.id, created._id, { round: 2, position: 1 });
    expect(final).toMatchObject({ b: null, status: 'waiting', winner: null });
    expect((await patch(semi, { reset: true, version: semi.version + 1 })).body.message).toBe('У матчу ще немає результату');
  });
});

describe('one result counts everywhere', () => {
  it('writes the match history and ratings when statistics are on, and takes them back with the result', async () => {
    const statsGameId = await statsGame(api);
    const cup = await tournament(api, { soloOnly: true, game: statsGameId, approved: 2 });
    await statsOn(api, cup.id);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const match = created.matches[0]!;
    await patch(match, { scoreA: 2, scoreB: 0 });
    const records = await api.db.select().from(matches).where(eq(matches.stageMatchId, match._id));
    expect(records).toHaveLength(1);
    const ratings = async () =>
      new Map((await api.db.select().from(playerGameStats).where(eq(playerGameStats.gameId, statsGameId))).map((r) => [r.userId, r.rating]));
    const after = await ratings();
    expect(after.get(match.a!)).toBeGreaterThan(1000);
    expect(after.get(match.b!)).toBeLessThan(1000);
    // A forfeit is no played match: the record goes and the ratings return to where they started.
    await patch({ ...match, version: match.version + 1 }, { forfeit: 'b' });
    expect(await api.db.select().from(matches).where(eq(matches.stageMatchId, match._id))).toEqual([]);
    expect([...(await ratings()).values()]).toEqual([]);
  });
});

describe('Swiss', () => {
  it('pairs the next round only when the current one is complete, without rematches, and stops after the last', async () => {
    const cup = await solo(6);
    const created = await stage(api, cup.id, {
      format: 'swiss',
      settings: { rounds: 3 },
    });
    expect(created.matches).toHaveLength(3);
    const early = await api.call('POST', `/api/tournaments/${cup.id}/stages/${created._id}/next-round`, { token: admin.token });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Поточний тур ще не завершено: спершу внесіть усі результати');
    for (let round = 2; round <= 3; round++) {
      const between = await playOut(cup.id, created._id);
      // Every match of the round is played, yet the stage goes on: no places, not complete.
      expect(between.complete).toBe(false);
      expect(between.placements).toEqual([]);
      const next = await api.call<{ message: string; stage: StageView }>('POST', `/api/tournaments/${cup.id}/stages/${created._id}/next-round`, {
        token: admin.token,
      });
      expect(next.status).toBe(200);
      expect(next.body.message).toBe(`Тур ${round} складено`);
    }
    const finished = await playOut(cup.id, created._id);
    expect(finished.complete).toBe(true);
    expect(finished.placements.map((p) => p.from)).toEqual([1, 2, 3, 4, 5, 6]);
    const pairs = finished.matches.map((m) => [m.a, m.b].sort().join());
    expect(new Set(pairs).size).toBe(pairs.length);
    const last = await api.call('POST', `/api/tournaments/${cup.id}/stages/${created._id}/next-round`, { token: admin.token });
    expect(last.body.message).toBe('Усі тури цього етапу вже зіграно');
    // The table: 3 rounds, everyone played 3; points total 3 per match.
    const table = finished.groups[0]!.standings;
    expect(table.every((r) => r.played === 3)).toBe(true);
    expect(table.reduce((sum, r) => sum + r.points, 0)).toBe(9 * 3);
    const notSwiss = await stage(api, (await solo(2)).id, {
      format: 'round_robin',
    });
    const refused = await api.call('POST', `/api/tournaments/${notSwiss.tournament}/stages/${notSwiss._id}/next-round`, { token: admin.token });
    expect(refused.status).toBe(422);
  });
});

describe('groups → playoffs', () => {
  it('feeds the top two of each group into a cross-seeded playoff and places everyone', async () => {
    const cup = await solo(8);
    const groups = await stage(api, cup.id, {
      format: 'round_robin',
      seeding: 'standard',
      settings: { groups: 2 },
    });
    expect(groups.groups.map((g) => g.participants.length)).toEqual([4, 4]);
    const early = await api.call('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: {
        format: 'single_elimination',
        from: { stageId: groups._id, advance: 2 },
      },
    });
    expect(early.status).toBe(409);
    expect(early.body.message).toBe('Попередній етап ще не завершено: спершу зіграйте всі його матчі');
    // The better seed (earlier applicant) wins every group match.
    const seedOf = (id: string | null) => cup.approved.indexOf(id!);
    const played = await playOut(cup.id, groups._id, (m) => (seedOf(m.a) < seedOf(m.b) ? 'a' : 'b'));
    const tables = played.groups.map((g) => g.standings.map((r) => r.participant));
    const playoff = await stage(api, cup.id, {
      format: 'single_elimination',
      from: { stageId: groups._id, advance: 2 },
    });
    const firstRound = playoff.matches.filter((m) => m.round === 1);
    // A group's winner meets the other group's runner-up.
    expect(firstRound.map((m) => [m.a, m.b])).toEqual([
      [tables[0]![0], tables[1]![1]],
      [tables[1]![0], tables[0]![1]],
    ]);
    await playOut(cup.id, playoff._id);
    const standings = await api.call<{
      final: boolean;
      placements: {
        participant: string;
        from: number;
        to: number;
        name: string;
      }[];
    }>('GET', `/api/tournaments/${cup.id}/standings`);
    expect(standings.body.final).toBe(true);
    expect(standings.body.placements.map((p) => `${p.from}-${p.to}`)).toEqual(['1-1', '2-2', '3-4', '3-4', '5-6', '5-6', '7-8', '7-8']);
    expect(
      standings.body.placements
        .slice(4)
        .map((p) => p.participant)
        .sort(),
    ).toEqual([tables[0]![2], tables[1]![2], tables[0]![3], tables[1]![3]].sort());
    expect(standings.body.placements[0]!.name).not.toBe('');
  });
});

describe('disqualification', () => {
  it('forfeits every match the participant has not played, now and later; results entered stand', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, { format: 'round_robin' });
    const out = cup.approved[0]!;
    const playedOne = created.matches.find((m) => m.a === out || m.b === out)!;
    await patch(playedOne, playedOne.a === out ? { scoreA: 3, scoreB: 0 } : { scoreA: 0, scoreB: 3 });
    const res = await api.call<{ message: string; stages: StageView[] }>('POST', `/api/tournaments/${cup.id}/disqualify`, {
      token: admin.token,
      body: { participant: out },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Учасника дискваліфіковано: решту його матчів зараховано суперникам');
    const theirs = res.body.stages[0]!.matches.filter((m) => m.a === out || m.b === out);
    expect(theirs.filter((m) => m.winner === out)).toHaveLength(1);
    expect(theirs.filter((m) => m._id !== playedOne._id).every((m) => m.status === 'completed' && m.winner !== out && m.forfeit !== null)).toBe(true);
    const again = await api.call('POST', `/api/tournaments/${cup.id}/disqualify`, { token: admin.token, body: { participant: out } });
    expect(again.status).toBe(409);
    const stranger = await api.call('POST', `/api/tournaments/${cup.id}/disqualify`, { token: admin.token, body: { participant: admin.user.id } });
    expect(stranger.status).toBe(422);
  });
});

describe('the SPEC bracket stays', () => {
  it('shows a single-elimination stage as the tournament’s bracket, and a bracket save lands in the stage', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, {
      format: 'single_elimination',
      seeding: 'standard',
    });
    const first = created.matches[0]!;
    await patch(first, { scoreA: 2, scoreB: 0, comment: 'чисто' });
    const bracket = await api.call<{
      bracket: {
        matches: {
          a: string;
          b: string;
          winner: string | null;
          comment: string;
        }[];
      }[];
      version: number;
    }>('GET', `/api/tournaments/${cup.id}/bracket`);
    expect(bracket.body.bracket[0]!.matches[0]).toMatchObject({
      a: first.a,
      b: first.b,
      winner: first.a,
      comment: 'чисто',
    });
    expect(bracket.body.bracket[1]!.matches[0]!.a).toBe(first.a);
    // The SPEC's save: the second semifinal's winner typed into the bracket.
    const edited = structuredClone(bracket.body.bracket);
    const second = edited[0]!.matches[1]!;
    Object.assign(second, { winner: second.b, loser: second.a });
    edited[1]!.matches[0]!.b = second.b;
    const saved = await api.call('PATCH', `/api/tournaments/${cup.id}/bracket`, {
      token: admin.token,
      body: { bracket: edited, version: bracket.body.version },
    });
    expect(saved.status).toBe(200);
    const final = await matchAt(cup.id, created._id, { round: 2, position: 1 });
    expect(final).toMatchObject({ a: first.a, b: second.b, status: 'ready' });
    // The score entered through the match survives the bracket save.
    expect(await matchAt(cup.id, created._id, { round: 1, position: 1 })).toMatchObject({ scoreA: 2, scoreB: 0 });
    const detail = await api.call<{ bracket: unknown }>('GET', `/api/tournaments/${cup.id}`);
    expect(detail.body.bracket).toEqual(edited);
  });

  it('answers an unchanged stages poll with 304 and a changed one with the new version', async () => {
    const cup = await solo(2);
    const created = await stage(api, cup.id, { format: 'single_elimination' });
    const first = await api.call('GET', `/api/tournaments/${cup.id}/stages`);
    const etag = first.headers.get('etag')!;
    expect(
      (
        await api.call('GET', `/api/tournaments/${cup.id}/stages`, {
          headers: { 'If-None-Match': etag },
        })
      ).status,
    ).toBe(304);
    await patch(created.matches[0]!, { scoreA: 1, scoreB: 0 });
    const changed = await api.call('GET', `/api/tournaments/${cup.id}/stages`, {
      headers: { 'If-None-Match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('large stages cost a fixed number of queries', () => {
  /** A solo tournament with `n` approved players written straight into the tables (the rules of applying are other files' tests). */
  async function bigTournament(n: number) {
    const cup = await solo(0);
    const ids = await accounts(api, n);
    await api.db.insert(applications).values(
      ids.map((userId) => ({
        tournamentId: cup.id,
        userId,
        status: 'approved' as const,
      })),
    );
    return cup.id;
  }

  it('creates a 256-player double elimination and a 64-player round robin in 8 groups with the same count as small ones', async () => {
    const counts: Record<string, number> = {};
    for (const [label, n, body] of [
      ['de4', 4, { format: 'double_elimination' }],
      ['de256', 256, { format: 'double_elimination' }],
      ['rr8', 8, { format: 'round_robin', settings: { groups: 2 } }],
      ['rr64', 64, { format: 'round_robin', settings: { groups: 8 } }],
    ] as const) {
      const id = await bigTournament(n);
      const { result, queries } = await api.queriesOf(() =>
        api.call<{ stage: StageView }>('POST', `/api/tournaments/${id}/stages`, { token: admin.token, body }),
      );
      expect(result.status).toBe(201);
      counts[label] = queries.length;
      if (label === 'de256') expect(result.body.stage.matches).toHaveLength(511);
      if (label === 'rr64') expect(result.body.stage.matches).toHaveLength(224);
    }
    expect(counts.de256).toBe(counts.de4);
    expect(counts.rr64).toBe(counts.rr8);
    // Four of them announce the ready matches (issue 22): the sides' names, the readers' settings, the notices, the bells' signal.
    expect(counts.de256).toBeLessThanOrEqual(18);
  });
});

describe('stages and the SPEC bracket window, after review', () => {
  it('keeps the third-place result when the bracket is saved through the SPEC window', async () => {
    const cup = await solo(4);
    const created = await stage(api, cup.id, { format: 'single_elimination', settings: { thirdPlace: true } });
    await playOut(cup.id, created._id);
    const third = await matchAt(cup.id, created._id, { side: 'third_place', round: 1, position: 1 });
    expect(third.status).toBe('completed');
    const bracket = await api.call<{ bracket: { matches: { comment: string }[] }[]; version: number }>('GET', `/api/tournaments/${cup.id}/bracket`);
    const edited = structuredClone(bracket.body.bracket);
    edited[1]!.matches[0]!.comment = 'Фінал на головній сцені';
    expect(
      (await api.call('PATCH', `/api/tournaments/${cup.id}/bracket`, { token: admin.token, body: { bracket: edited, version: bracket.body.version } })).status,
    ).toBe(200);
    expect(await matchAt(cup.id, created._id, { side: 'third_place', round: 1, position: 1 })).toMatchObject({ status: 'completed', winner: third.winner });
  });

  it('refuses to draw or clear the SPEC bracket over stages of other formats, and edits a playoff in place', async () => {
    const cup = await solo(4);
    const groups = await stage(api, cup.id, { format: 'round_robin' });
    const message = 'Турнір проходить етапами: створюйте й очищайте їх у вікні «Етапи»; сітка тут лише показує плей-оф';
    const draw = await api.call('POST', `/api/tournaments/${cup.id}/bracket`, { token: admin.token, body: { replace: true } });
    expect(draw.status).toBe(409);
    expect(draw.body.message).toBe(message);
    const clear = await api.call('PATCH', `/api/tournaments/${cup.id}/bracket`, { token: admin.token, body: { bracket: [] } });
    expect(clear.status).toBe(409);
    expect(await stagesOf(cup.id)).toHaveLength(1);
    await playOut(cup.id, groups._id);
    await stage(api, cup.id, { format: 'single_elimination', from: { stageId: groups._id, advance: 2 } });
    const bracket = await api.call<{ bracket: { matches: { a: string; winner: string | null; loser: string | null; b: string }[] }[]; version: number }>(
      'GET',
      `/api/tournaments/${cup.id}/bracket`,
    );
    const edited = structuredClone(bracket.body.bracket);
    const final = edited[0]!.matches[0]!;
    Object.assign(final, { winner: final.a, loser: final.b });
    expect(
      (await api.call('PATCH', `/api/tournaments/${cup.id}/bracket`, { token: admin.token, body: { bracket: edited, version: bracket.body.version } })).status,
    ).toBe(200);
    expect((await stagesOf(cup.id))[1]!.complete).toBe(true);
  });

  it('refuses a round-robin group larger than 64, and a result change in a stage that seeded the next', async () => {
    const big = await solo(0);
    const ids = await accounts(api, 65);
    await api.db.insert(applications).values(ids.map((userId) => ({ tournamentId: big.id, userId, status: 'approved' as const })));
    const tooBig = await api.call('POST', `/api/tournaments/${big.id}/stages`, { token: admin.token, body: { format: 'round_robin' } });
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.message).toBe('У групі кругової системи може бути щонайбільше 64 учасники: поділіть їх на групи');
    expect(
      (await api.call('POST', `/api/tournaments/${big.id}/stages`, { token: admin.token, body: { format: 'round_robin', settings: { groups: 2 } } })).status,
    ).toBe(201);

    const cup = await solo(4);
    const groups = await stage(api, cup.id, { format: 'round_robin' });
    await playOut(cup.id, groups._id);
    await stage(api, cup.id, { format: 'single_elimination', from: { stageId: groups._id, advance: 2 } });
    const groupMatch = (await stagesOf(cup.id))[0]!.matches[0]!;
    const refused = await patch(groupMatch, { scoreA: 0, scoreB: 2 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('З цього етапу вже посіяно наступний: результат тут змінити не можна');
  });

  it('carries a disqualification into the playoff it feeds, and pairs a disqualified Swiss player no more', async () => {
    const cup = await solo(4);
    const groups = await stage(api, cup.id, { format: 'round_robin' });
    await playOut(cup.id, groups._id, (m) => (cup.approved.indexOf(m.a!) < cup.approved.indexOf(m.b!) ? 'a' : 'b'));
    const top = cup.approved[0]!;
    await api.call('POST', `/api/tournaments/${cup.id}/disqualify`, { token: admin.token, body: { participant: top } });
    const playoff = await stage(api, cup.id, { format: 'single_elimination', from: { stageId: groups._id, advance: 2 } });
    expect(playoff.disqualified).toEqual([top]);
    expect(playoff.matches[0]).toMatchObject({ status: 'completed', forfeit: playoff.matches[0]!.a === top ? 'a' : 'b' });

    const swiss = await solo(5);
    const created = await stage(api, swiss.id, { format: 'swiss', settings: { rounds: 3 } });
    await playOut(swiss.id, created._id);
    const out = swiss.approved[4]!;
    await api.call('POST', `/api/tournaments/${swiss.id}/disqualify`, { token: admin.token, body: { participant: out } });
    const next = await api.call<{ stage: StageView }>('POST', `/api/tournaments/${swiss.id}/stages/${created._id}/next-round`, { token: admin.token });
    expect(next.status).toBe(200);
    const round2 = next.body.stage.matches.filter((m) => m.round === 2);
    expect(round2.flatMap((m) => [m.a, m.b])).not.toContain(out);
    // Four left: two pairings, no bye.
    expect(round2.filter((m) => !m.bye)).toHaveLength(2);
  });

  it('places a group stage’s others after everyone still in the playoff', async () => {
    const cup = await solo(6);
    const groups = await stage(api, cup.id, { format: 'round_robin' });
    await playOut(cup.id, groups._id);
    await stage(api, cup.id, { format: 'single_elimination', from: { stageId: groups._id, advance: 4 } });
    const standings = await api.call<{ final: boolean; placements: { from: number; to: number }[] }>('GET', `/api/tournaments/${cup.id}/standings`);
    expect(standings.body.final).toBe(false);
    expect(standings.body.placements.map((p) => p.from)).toEqual([5, 6]);
  });
});

describe('best-of by round and tie-breakers (issue 57)', () => {
  it('gives each match its round’s best-of, judges results by it, and numbers the stage’s matches M1…Mn', async () => {
    const cup = await solo(8);
    const made = await stage(api, cup.id, {
      format: 'double_elimination',
      settings: { bestOf: 1, bestOfByRound: [{ side: 'winners', round: 2, bestOf: 3 }, { side: 'grand_final', round: 1, bestOf: 5 }] },
    });
    const byPlace = (side: string, round: number) => made.matches.filter((m) => m.side === side && m.round === round).map((m) => m.bestOf);
    expect(byPlace('winners', 1)).toEqual([1, 1, 1, 1]);
    expect(byPlace('winners', 2)).toEqual([3, 3]);
    expect(byPlace('winners', 3)).toEqual([3]);
    expect(byPlace('losers', 1)).toEqual([1, 1]);
    expect(byPlace('grand_final', 1)).toEqual([5]);
    expect(made.matches.map((m) => m.number)).toEqual(made.matches.map((_, i) => i + 1));
    // A losers' round-1 match waits for the losers of the first two winners' matches.
    const losersFirst = made.matches.find((m) => m.side === 'losers' && m.round === 1 && m.position === 1)!;
    expect(losersFirst.from).toEqual({ a: { kind: 'loser', number: 1 }, b: { kind: 'loser', number: 2 } });

    // Round 1 is Bo1: a single game decides it; round 2 is Bo3: 1:0 is not a result there.
    for (const m of made.matches.filter((x) => x.side === 'winners' && x.round === 1)) expect((await patch(m, { scoreA: 1, scoreB: 0 })).status).toBe(200);
    const semi = await matchAt(cup.id, made._id, { side: 'winners', round: 2, position: 1 });
    expect(semi).toMatchObject({ status: 'ready', bestOf: 3 });
    const refused = await patch(semi, { scoreA: 1, scoreB: 0 });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Рахунок не відповідає формату: матч до 2 перемог');
    const saved = await patch(semi, { games: [{ a: 16, b: 10 }, { a: 8, b: 16 }, { a: 16, b: 14 }] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.match).toMatchObject({ scoreA: 2, scoreB: 1, bestOf: 3, number: semi.number });
  });

  it('tells a match where its winner and loser go next, and against whom', async () => {
    const cup = await solo(4);
    const made = await stage(api, cup.id, { format: 'double_elimination', settings: { grandFinal: 'simple' } });
    const [first, second] = made.matches.filter((m) => m.side === 'winners' && m.round === 1);
    type Next = { winner: { number: number; opponent: string | null; waitsFor: unknown } | null; loser: { number: number; opponent: string | null; waitsFor: unknown } | null };
    const nextOf = async (id: string) => (await api.call<{ next: Next; participants: { _id: string }[] }>('GET', `/api/matches/${id}`)).body;
    const before = await nextOf(first!._id);
    expect(before.next.winner).toMatchObject({ number: 3, opponent: null, waitsFor: { kind: 'winner', number: 2 } });
    expect(before.next.loser).toMatchObject({ number: 4, opponent: null, waitsFor: { kind: 'loser', number: 2 } });
    await patch(second!, { scoreA: 1, scoreB: 0 });
    const after = await nextOf(first!._id);
    expect(after.next.winner).toMatchObject({ number: 3, opponent: second!.a, waitsFor: null });
    expect(after.next.loser).toMatchObject({ number: 4, opponent: second!.b, waitsFor: null });
    // The page names them: they are among the answer's participants.
    expect(after.participants.map((p) => p._id)).toEqual(expect.arrayContaining([second!.a, second!.b]));
    const final = made.matches.find((m) => m.side === 'grand_final')!;
    expect((await nextOf(final._id)).next).toEqual({ winner: null, loser: null });
  });

  it('says when «by rating» found nobody rated and seeded by the order of applications', async () => {
    const cup = await solo(4);
    const made = await api.call<{ message: string; stage: StageView }>('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: { format: 'single_elimination', seeding: 'rating' },
    });
    expect(made.status).toBe(201);
    expect(made.body.message).toBe('Етап створено: 4 учасники. Ніхто з учасників ще не має рейтингу в цій грі, тож посів — за порядком заявок.');
    // Application order, paired as rating seeds are: 1 v 4, 2 v 3.
    const [a, b, c, d] = cup.approved;
    expect(made.body.stage.seeds).toEqual([a, d, b, c]);
    const plain = await solo(2);
    const ordered = await api.call<{ message: string }>('POST', `/api/tournaments/${plain.id}/stages`, { token: admin.token, body: { format: 'single_elimination' } });
    expect(ordered.body.message).toBe('Етап створено: 2 учасники');
  });

  it('refuses a rule of an even best-of, a round of 0, more than 16 rules, and a tie-breaker twice', async () => {
    const cup = await solo(4);
    const create = (settings: Record<string, unknown>) => api.call('POST', `/api/tournaments/${cup.id}/stages`, { token: admin.token, body: { format: 'swiss', settings } });
    expect((await create({ bestOfByRound: [{ round: 2, bestOf: 2 }] })).status).toBe(400);
    expect((await create({ bestOfByRound: [{ round: 0, bestOf: 3 }] })).status).toBe(400);
    expect((await create({ bestOfByRound: Array.from({ length: 17 }, (_, i) => ({ round: i + 1, bestOf: 3 })) })).status).toBe(400);
    const twice = await create({ tieBreakers: ['buchholz', 'buchholz'] });
    expect([twice.status, (twice.body as { message: string }).message]).toEqual([400, 'Кожен показник додаткового рейтингу можна вибрати лише раз']);
    expect(await stagesOf(cup.id)).toEqual([]);
    const made = await create({ tieBreakers: ['medianBuchholz', 'headToHead'] });
    expect(made.status).toBe(201);
  });
});
