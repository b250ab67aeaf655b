import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchState, StagesState } from '../../src/lib/api/stages.ts';
import type { Tournament } from '../../src/lib/api/tournaments.ts';
import { admin as adminOf, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * A tournament's own time zone (issue 57): taken as an IANA name in any case, stored canonical,
 * kept by edits that leave it out and by clones, carried by the match page's state and worded into
 * the notices of its scheduled matches. Anything else is refused with a Ukrainian message and
 * changes nothing.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

const create = (body: Record<string, unknown>) =>
  api.call<{ tournament: Tournament; message: string }>('POST', '/api/tournaments', {
    token: admin.token,
    body: { title: 'Кубок діаспори', date: '2031-06-01T16:00:00Z', game: gameId, ...body },
  });
const read = async (id: string) => (await api.call<Tournament>('GET', `/api/tournaments/${id}`)).body;
const edit = (id: string, body: Record<string, unknown>) =>
  api.call<{ tournament: Tournament; message: string }>('PUT', `/api/tournaments/${id}`, {
    token: admin.token,
    body: { title: 'Кубок діаспори', date: '2031-06-01T16:00:00Z', game: gameId, ...body },
  });

describe("a tournament's own time zone", () => {
  it('is none by default: each reader sees their own', async () => {
    const made = await create({});
    expect(made.status).toBe(201);
    expect(made.body.tournament.timeZone).toBeNull();
  });

  it('is stored by its canonical name, listed and read back; an edit without it keeps it, null clears it', async () => {
    const made = await create({ timeZone: 'europe/warsaw' });
    expect(made.status).toBe(201);
    const id = made.body.tournament._id;
    expect(made.body.tournament.timeZone).toBe('Europe/Warsaw');
    expect((await read(id)).timeZone).toBe('Europe/Warsaw');
    const listed = await api.call<Tournament[]>('GET', `/api/tournaments?game=${gameId}`);
    expect(listed.body.find((t) => t._id === id)?.timeZone).toBe('Europe/Warsaw');
    expect((await edit(id, { description: 'Без зміни поясу' })).body.tournament.timeZone).toBe('Europe/Warsaw');
    expect((await edit(id, { timeZone: 'Europe/Kiev' })).body.tournament.timeZone).toBe('Europe/Kyiv');
    expect((await edit(id, { timeZone: null })).body.tournament.timeZone).toBeNull();
  });

  it('refuses what is not a zone with a Ukrainian message, and a refused edit changes nothing', async () => {
    const id = (await create({ timeZone: 'America/New_York' })).body.tournament._id;
    const unknown = 'Невідомий часовий пояс: потрібна назва на кшталт Europe/Kyiv';
    for (const timeZone of ['', 'Mars/Olympus', 'Еurope/Kyiv', '+02:00', '../../etc/passwd', 'x'.repeat(1000)]) {
      for (const res of [await create({ timeZone }), await edit(id, { timeZone, title: 'Змінено' })]) {
        expect(res.status, JSON.stringify(timeZone.slice(0, 30))).toBe(400);
        expect(res.body.message).toBe(unknown);
      }
    }
    const nul = await edit(id, { timeZone: 'Europe/Kyiv\u0000', title: 'Змінено' });
    expect(nul.status).toBe(400);
    expect(nul.body.message).toBe('Поле «Часовий пояс» містить недопустимі символи (нульовий байт або пошкоджений символ)');
    for (const timeZone of [42, true, ['Europe/Kyiv'], { name: 'Europe/Kyiv' }]) {
      const res = await create({ timeZone });
      expect(res.status, JSON.stringify(timeZone)).toBe(400);
      expect(res.body.message).toBe('Поле «Часовий пояс» має неправильний тип');
    }
    expect(await read(id)).toMatchObject({ title: 'Кубок діаспори', timeZone: 'America/New_York' });
  });

  it('goes with the tournament into its clone', async () => {
    const id = (await create({ timeZone: 'Asia/Tbilisi' })).body.tournament._id;
    const clone = await api.call<{ tournament: Tournament }>('POST', `/api/tournaments/${id}/clone`, {
      token: admin.token,
      body: { date: '2031-07-01T16:00:00Z' },
    });
    expect(clone.status).toBe(201);
    expect(clone.body.tournament.timeZone).toBe('Asia/Tbilisi');
  });

  it("reaches the match page's state and the notice of a scheduled match, named", async () => {
    const players = await Promise.all([player(api), player(api), player(api), player(api)]);
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: players, settings: { timeZone: 'Europe/Warsaw' } });
    const se = await stage(api, cup.id, { format: 'single_elimination', seeding: 'order' });
    const scheduled = await api.call('POST', `/api/tournaments/${cup.id}/stages/${se._id}/schedule`, {
      token: admin.token,
      body: { start: '2031-06-01T18:00:00+02:00', roundMinutes: 60 },
    });
    expect(scheduled.status).toBe(200);
    const matches = (await api.call<StagesState>('GET', `/api/tournaments/${cup.id}/stages`)).body.stages[0]!.matches;
    const state = await api.call<MatchState>('GET', `/api/matches/${matches[0]!._id}`);
    expect(state.body.tournament.timeZone).toBe('Europe/Warsaw');
    // Both semi-finals played: the final becomes ready, and its players hear when, in Warsaw's time.
    for (const semi of matches.slice(0, 2)) {
      const played = await api.call('PATCH', `/api/matches/${semi._id}`, { token: admin.token, body: { version: semi.version, scoreA: 2, scoreB: 0 } });
      expect(played.status).toBe(200);
    }
    const finalist = players.find((p) => p.user.id === matches[0]!.a)!;
    const bell = await api.call<{ kind: string; text: string }[]>('GET', '/api/users/me/notifications', { token: finalist.token });
    const ready = bell.body.filter((n) => n.kind === 'matchReady').map((n) => n.text);
    expect(ready).toContainEqual(expect.stringContaining('Початок: 1 червня 2031 р. о 19:00 (за центральноєвропейським часом).'));
  });
});
