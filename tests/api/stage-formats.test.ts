import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StageMatchView, StagesState, StageView } from '../../src/lib/api/stages.ts';
import { stages as stagesTable } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, game, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * The formats circuits run (issue 59) through the API: Swiss with thresholds (Valve's Major
 * rules: round 1 1 v 9, thresholds, deciding matches best of three, automatic rounds, a playoff
 * seeded by record) and GSL groups feeding a playoff; the settings' refusals.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, 'CS2 formats');
});

const solo = (approved: number) => tournament(api, { soloOnly: true, game: gameId, approved });
const stagesOf = async (tournamentId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`)).body.stages;
const stageOf = async (tournamentId: string, stageId: string) => (await stagesOf(tournamentId)).find((s) => s._id === stageId)!;
const patch = (match: Pick<StageMatchView, '_id' | 'version'>, body: Record<string, unknown>) =>
  api.call<{ message: string; match: StageMatchView }>('PATCH', `/api/matches/${match._id}`, { token: admin.token, body: { version: match.version, ...body } });
const nextRound = (tournamentId: string, stageId: string) =>
  api.call<{ message: string; stage: StageView }>('POST', `/api/tournaments/${tournamentId}/stages/${stageId}/next-round`, { token: admin.token });

/** A win for side `side` fitting the match's best-of: 2–1 of a Bo3, 16–10 of a Bo1. */
const winBody = (match: StageMatchView, side: 'a' | 'b') => {
  const [won, lost] = match.bestOf > 1 ? [Math.ceil(match.bestOf / 2), 1] : [16, 10];
  return side === 'a' ? { scoreA: won, scoreB: lost } : { scoreA: lost, scoreB: won };
};

/** Plays every ready match (the better seed wins) and pairs the next round until the stage is complete. */
async function playSwiss(tournamentId: string, stageId: string, seeds: readonly string[]): Promise<StageView> {
  for (let guard = 0; guard < 300; guard++) {
    const current = await stageOf(tournamentId, stageId);
    if (current.complete) return current;
    const ready = current.matches.find((m) => m.status === 'ready');
    if (ready) {
      expect((await patch(ready, winBody(ready, seeds.indexOf(ready.a!) < seeds.indexOf(ready.b!) ? 'a' : 'b'))).status).toBe(200);
      continue;
    }
    expect((await nextRound(tournamentId, stageId)).status).toBe(200);
  }
  throw new Error('the stage never ended');
}

describe('Swiss with thresholds (Valve’s Major rules)', () => {
  it('plays 16 to the end: 1 v 9 first, 33 matches, deciding ones Bo3, 8 advance and 8 go out, a rematch-free stage', async () => {
    const cup = await solo(16);
    const swiss = await stage(api, cup.id, { format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 3 } });
    const seeds = swiss.seeds as string[];
    expect(swiss.matches.map((m) => [seeds.indexOf(m.a!) + 1, seeds.indexOf(m.b!) + 1])).toEqual([
      [1, 9],
      [2, 10],
      [3, 11],
      [4, 12],
      [5, 13],
      [6, 14],
      [7, 15],
      [8, 16],
    ]);
    expect(swiss.matches.every((m) => m.bestOf === 1)).toBe(true);
    // No draws with thresholds.
    const draw = await patch(swiss.matches[0]!, { scoreA: 8, scoreB: 8 });
    expect(draw.status).toBe(422);
    expect(draw.body.message).toBe('Нічия можлива лише в круговій і швейцарській системах, але не зі швейцарськими порогами перемог і поразок');

    const done = await playSwiss(cup.id, swiss._id, seeds);
    expect(done.matches).toHaveLength(33);
    expect(done.matches.filter((m) => m.bestOf === 3)).toHaveLength(13);
    const pairs = done.matches.map((m) => [m.a, m.b].sort().join());
    expect(new Set(pairs).size).toBe(33);
    const table = done.groups[0]!.standings;
    expect(table.filter((r) => r.outcome === 'advanced')).toHaveLength(8);
    expect(table.filter((r) => r.outcome === 'eliminated')).toHaveLength(8);
    // The better seed always won: 1–8 advance, the 3–0s (seeds 1–2) first.
    expect(table.slice(0, 2).map((r) => [r.wins, r.losses])).toEqual([
      [3, 0],
      [3, 0],
    ]);
    expect(
      table
        .slice(0, 8)
        .map((r) => seeds.indexOf(r.participant) + 1)
        .sort((x, y) => x - y),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await nextRound(cup.id, swiss._id)).body.message).toBe('Усі тури цього етапу вже зіграно');

    // A result the next round was paired on stays.
    const first = done.matches.find((m) => m.round === 1)!;
    const late = await patch(first, winBody(first, 'b'));
    expect(late.status).toBe(409);
    expect(late.body.message).toBe('Наступний тур уже складено з урахуванням цього результату, тож змінити його не можна');
    expect((await stageOf(cup.id, swiss._id)).matches.find((m) => m._id === first._id)!.winner).toBe(first.winner);

    // Only the advanced go to the playoff, seeded by record then difficulty.
    const tooMany = await api.call('POST', `/api/tournaments/${cup.id}/stages`, {
      token: admin.token,
      body: { format: 'single_elimination', from: { stageId: swiss._id, advance: 9 } },
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.message).toMatch(/^Далі пройшли не всі з перших 9/);
    const playoff = await stage(api, cup.id, { format: 'single_elimination', from: { stageId: swiss._id, advance: 8 } });
    expect(playoff.seeds.filter((s) => s !== null)).toHaveLength(8);
    const top = table[0]!.participant;
    const eighth = table[7]!.participant;
    expect(playoff.matches.find((m) => m.round === 1 && (m.a === top || m.b === top))).toMatchObject({ a: top, b: eighth });
  });

  it('pairs the next round by itself with autoPair once the last result of a round is in', async () => {
    const cup = await solo(8);
    const swiss = await stage(api, cup.id, { format: 'swiss', settings: { winsToAdvance: 2, lossesToEliminate: 2, autoPair: true } });
    const first = swiss.matches;
    for (const match of first.slice(0, 3)) expect((await patch(match, winBody(match, 'a'))).status).toBe(200);
    expect((await stageOf(cup.id, swiss._id)).matches).toHaveLength(4);
    const last = await patch(first[3]!, winBody(first[3]!, 'a'));
    expect(last.status).toBe(200);
    const after = await stageOf(cup.id, swiss._id);
    expect(after.matches).toHaveLength(8);
    // Round 2: the four 1–0 meet each other, the four 0–1 too; the version moved for every viewer.
    const winners = new Set(first.map((m) => m.a));
    for (const m of after.matches.filter((x) => x.round === 2)) expect(winners.has(m.a)).toBe(winners.has(m.b));
    expect((await nextRound(cup.id, swiss._id)).status).toBe(409);
    const seeds = swiss.seeds as string[];
    const done = await playSwiss(cup.id, swiss._id, seeds);
    expect(done.matches).toHaveLength(10);
    expect(done.groups[0]!.standings.filter((r) => r.outcome === 'advanced')).toHaveLength(4);
  });
});

describe('GSL groups', () => {
  it('plays two groups of four (five matches each), places them by the GSL order and feeds a cross-seeded playoff', async () => {
    const cup = await solo(8);
    const gsl = await stage(api, cup.id, { format: 'gsl', seeding: 'standard', settings: { groups: 2 } });
    expect(gsl.groups.map((g) => g.participants.length)).toEqual([4, 4]);
    expect(gsl.matches).toHaveLength(10);
    const opening = gsl.matches.filter((m) => m.group === 1 && m.round === 1);
    const members = gsl.groups[0]!.participants;
    expect(opening.map((m) => [m.a, m.b])).toEqual([
      [members[0], members[3]],
      [members[1], members[2]],
    ]);
    // Later matches wait for the openings.
    expect(gsl.matches.filter((m) => m.round > 1).every((m) => m.status === 'waiting')).toBe(true);
    // The lower seed wins every match.
    const seeds = gsl.seeds as string[];
    for (let guard = 0; guard < 20; guard++) {
      const ready = (await stageOf(cup.id, gsl._id)).matches.find((m) => m.status === 'ready');
      if (!ready) break;
      expect((await patch(ready, winBody(ready, seeds.indexOf(ready.a!) > seeds.indexOf(ready.b!) ? 'a' : 'b'))).status).toBe(200);
    }
    const played = await stageOf(cup.id, gsl._id);
    expect(played.complete).toBe(true);
    // The openings 1 v 4 and 2 v 3 go to 4 and 3; 4 wins the winners' match, 2 the elimination
    // match, and 3 the decider against 2: 4, 3, 2, 1.
    expect(played.groups[0]!.standings.map((r) => r.participant)).toEqual([members[3], members[2], members[1], members[0]]);
    const tables = played.groups.map((g) => g.standings.map((r) => r.participant));
    const playoff = await stage(api, cup.id, { format: 'single_elimination', from: { stageId: gsl._id, advance: 2 } });
    expect(playoff.matches.filter((m) => m.round === 1).map((m) => [m.a, m.b])).toEqual([
      [tables[0]![0], tables[1]![1]],
      [tables[1]![0], tables[0]![1]],
    ]);
  });

  it('refuses groups that are not of three or four, with the counts', async () => {
    const five = await solo(5);
    const res = await api.call('POST', `/api/tournaments/${five.id}/stages`, { token: admin.token, body: { format: 'gsl' } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('У кожній групі GSL має бути 3 або 4 учасники: 5 учасників не діляться на стільки груп (2)');
    const eight = await solo(8);
    const three = await api.call('POST', `/api/tournaments/${eight.id}/stages`, { token: admin.token, body: { format: 'gsl', settings: { groups: 3 } } });
    expect(three.status).toBe(422);
    expect(await api.db.select().from(stagesTable).where(eq(stagesTable.tournamentId, five.id))).toEqual([]);
    expect(await api.db.select().from(stagesTable).where(eq(stagesTable.tournamentId, eight.id))).toEqual([]);
  });
});

describe('the settings of the new formats are refused when they do not fit, and nothing is written', () => {
  it('answers 400 with a Ukrainian message', async () => {
    const cup = await solo(4);
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [
        { format: 'round_robin', settings: { winsToAdvance: 3, lossesToEliminate: 3 } },
        'Пороги перемог і поразок, формат вирішальних матчів і автоматичні тури є лише у швейцарській системі',
      ],
      [
        { format: 'single_elimination', settings: { autoPair: true } },
        'Пороги перемог і поразок, формат вирішальних матчів і автоматичні тури є лише у швейцарській системі',
      ],
      [{ format: 'swiss', settings: { winsToAdvance: 3 } }, 'Вкажіть обидва пороги: скільки перемог виводять далі й скільки поразок вибивають'],
      [{ format: 'swiss', settings: { lossesToEliminate: 3 } }, 'Вкажіть обидва пороги: скільки перемог виводять далі й скільки поразок вибивають'],
      [{ format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3, rounds: 5 } }, /^У швейцарській системі з порогами/],
      [{ format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3, tieBreakers: ['buchholz'] } }, /^У швейцарській системі з порогами/],
      [{ format: 'swiss', settings: { decidingBestOf: 3 } }, 'Формат вирішальних матчів задається лише разом із порогами перемог і поразок'],
      [
        { format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3, decidingBestOf: 2 } },
        'Кількість ігор у матчі має бути непарною: 1, 3, 5, 7 або 9',
      ],
      [{ format: 'swiss', settings: { winsToAdvance: 0, lossesToEliminate: 3 } }, /[а-яіїєґ]/i],
      [{ format: 'swiss', settings: { winsToAdvance: 6, lossesToEliminate: 3 } }, /[а-яіїєґ]/i],
      [{ format: 'swiss', settings: { winsToAdvance: '3', lossesToEliminate: 3 } }, /[а-яіїєґ]/i],
      [{ format: 'swiss', settings: { winsToAdvance: 3.5, lossesToEliminate: 3 } }, /[а-яіїєґ]/i],
      [{ format: 'swiss', settings: { winsToAdvance: 3, lossesToEliminate: 3, autoPair: 'yes' } }, /[а-яіїєґ]/i],
      [{ format: 'gsl', settings: { groups: 0 } }, /[а-яіїєґ]/i],
      [{ format: 'gsl\u0000' }, /[а-яіїєґ]/i],
    ];
    for (const [body, message] of cases) {
      const res = await api.call('POST', `/api/tournaments/${cup.id}/stages`, { token: admin.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(res.body.message, JSON.stringify(body)).toBe(message);
      else expect(res.body.message, JSON.stringify(body)).toMatch(message);
    }
    expect(await api.db.select().from(stagesTable).where(eq(stagesTable.tournamentId, cup.id))).toEqual([]);
  });
});
