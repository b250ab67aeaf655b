import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StagesState, StageMatchView, StageView } from '../../src/lib/api/stages.ts';
import { tournaments } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, game, player, stage, team, tournament, tournamentStatus, useTestApi, type Player } from '../support/builders.ts';
import { parseFeed } from '../support/ical.ts';

/*
 * Schedules and calendars (issue 22): the admin times a stage's rounds; the tournament's public
 * iCalendar feed and each player's secret one, read back with a real parser (ical.js).
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

const MINUTE = 60_000;
/** Half an hour after the tournaments' start (the builder's 2030-05-01T16:00Z). */
const START = '2030-05-01T19:30:00+03:00';
const startMs = Date.parse(START);

const schedule = (tournamentId: string, stageId: string, body: Record<string, unknown>, token: string | undefined = admin.token) =>
  api.call<{ message: string; matches: { _id: string; scheduledAt: string }[] }>('POST', `/api/tournaments/${tournamentId}/stages/${stageId}/schedule`, {
    token,
    body,
  });

const stagesOf = async (tournamentId: string) => (await api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`)).body.stages;
const matchesOf = async (tournamentId: string, stageId: string) => (await stagesOf(tournamentId)).find((s) => s._id === stageId)!.matches;
const at = (m: StageMatchView) => (m.scheduledAt ? (Date.parse(m.scheduledAt) - startMs) / MINUTE : null);
const result = (m: StageMatchView, scoreA: number, scoreB: number) =>
  api.call('PATCH', `/api/matches/${m._id}`, { token: admin.token, body: { version: m.version, scoreA, scoreB } });

/** A solo single elimination of these four players, round 1 paired 1–2 and 3–4. */
async function cupOf(players: Player[], options: { title?: string } = {}) {
  const cup = await tournament(api, { game: gameId, soloOnly: true, approved: players, ...options });
  const se = await stage(api, cup.id, { format: 'single_elimination', seeding: 'order' });
  return { cup, se };
}

describe('scheduling a stage by rounds', () => {
  it('times every round from the start in play order, and one round alone at the start', async () => {
    const { cup, se } = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const done = await schedule(cup.id, se._id, { start: START, roundMinutes: 90 });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.message).toBe('Час призначено 3 матчам.');
    expect((await matchesOf(cup.id, se._id)).map((m) => [m.round, at(m)])).toEqual([
      [1, 0],
      [1, 0],
      [2, 90],
    ]);
    const final = await schedule(cup.id, se._id, { start: '2030-05-02T12:00:00Z', round: 2 });
    expect(final.body.matches).toHaveLength(1);
    expect((await matchesOf(cup.id, se._id)).map((m) => m.scheduledAt)).toEqual([
      new Date(startMs).toISOString(),
      new Date(startMs).toISOString(),
      '2030-05-02T12:00:00.000Z',
    ]);
  });

  it('double elimination: the losers’ bracket a slot behind the winners’, the grand final after both and its reset after it', async () => {
    const cup = await tournament(api, { game: gameId, soloOnly: true, approved: 8 });
    const de = await stage(api, cup.id, { format: 'double_elimination' });
    expect((await schedule(cup.id, de._id, { start: START, roundMinutes: 60 })).status).toBe(200);
    const slots = new Map((await matchesOf(cup.id, de._id)).map((m) => [`${m.side} ${m.round}`, at(m)! / 60]));
    expect(Object.fromEntries(slots)).toEqual({
      'winners 1': 0,
      'winners 2': 1,
      'winners 3': 2,
      'losers 1': 1,
      'losers 2': 2,
      'losers 3': 3,
      'losers 4': 4,
      'grand_final 1': 5,
      'grand_final 2': 6,
    });
    const losers = await schedule(cup.id, de._id, { start: START, round: 2, side: 'losers' });
    expect(losers.body.matches).toHaveLength(2);
  });

  it('leaves played matches at their time, bumps the versions of those it moves, and changes the stages’ ETag', async () => {
    const { cup, se } = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const [first] = await matchesOf(cup.id, se._id);
    expect((await result(first!, 2, 0)).status).toBe(200);
    const before = await api.call('GET', `/api/tournaments/${cup.id}/stages`);
    const [played, open] = await matchesOf(cup.id, se._id);
    const done = await schedule(cup.id, se._id, { start: START, roundMinutes: 30 });
    expect(done.body.matches.map((m) => m._id).sort()).toEqual([open!._id, (await matchesOf(cup.id, se._id))[2]!._id].sort());
    const after = await matchesOf(cup.id, se._id);
    expect(after[0]!.scheduledAt).toBeNull();
    expect(after[0]!.version).toBe(played!.version);
    expect(after[1]!.version).toBe(open!.version + 1);
    // An edit based on the version before the schedule is refused.
    expect((await result(open!, 1, 0)).status).toBe(409);
    const again = await api.call('GET', `/api/tournaments/${cup.id}/stages`, { headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(again.status).toBe(200);
  });

  it('refuses with Ukrainian messages, and changes nothing', async () => {
    const { cup, se } = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const other = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ start: START }, 422, 'Вкажіть тривалість туру в хвилинах, щоб розкласти весь етап, або оберіть один тур.'],
      [{ start: START, round: 3 }, 404, 'Такого туру в цьому етапі немає.'],
      [{ start: START, round: 1, side: 'losers' }, 404, 'Такого туру в цьому етапі немає.'],
      [{ start: START, roundMinutes: 30 }, 404, 'Етап не знайдено', other.se._id],
    ];
    for (const [body, status, message, stageId] of cases) {
      const res = await schedule(cup.id, stageId ?? se._id, body);
      expect([res.status, (res.body as unknown as { message: string }).message]).toEqual([status, expect.stringContaining(message)]);
    }
    for (const body of [
      { start: 'завтра', roundMinutes: 30 },
      { start: '2030-05-01T19:30:00', roundMinutes: 30 },
      { start: START, roundMinutes: 0 },
      { start: START, roundMinutes: 24 * 60 + 1 },
      { start: START, roundMinutes: 30, extra: true },
      { start: START, round: 1, side: 'upper' },
    ]) {
      const res = await schedule(cup.id, se._id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as unknown as { message: string }).message).toMatch(/[а-яіїєґ]/i);
    }
    expect((await schedule('00000000-0000-4000-8000-000000000000', se._id, { start: START, roundMinutes: 30 })).status).toBe(404);
    expect((await matchesOf(cup.id, se._id)).every((m) => m.scheduledAt === null)).toBe(true);
    // Every match of round 1 played: nothing left to time there.
    for (const m of (await matchesOf(cup.id, se._id)).filter((m) => m.round === 1)) expect((await result(m, 1, 0)).status).toBe(200);
    expect((await schedule(cup.id, se._id, { start: START, round: 1 })).status).toBe(409);
    await tournamentStatus(api, cup, 'finished');
    expect((await schedule(cup.id, se._id, { start: START, roundMinutes: 30 })).status).toBe(409);
  });

  it('refuses with 400 a schedule whose rounds would start after the year 9999, and changes nothing (issue 54)', async () => {
    const { cup, se } = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const before = await matchesOf(cup.id, se._id);
    // Round 1 at the last second the site keeps; the final an hour later is in the year 10000.
    const res = await schedule(cup.id, se._id, { start: '9999-12-31T23:59:59Z', roundMinutes: 60 });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect((res.body as unknown as { message: string }).message).toBe(
      'Розклад виходить за межі дат: пізніші тури почалися б після 9999 року. Оберіть раніший початок або коротші тури.',
    );
    expect(await matchesOf(cup.id, se._id)).toEqual(before);
    const english = await api.call<{ message: string }>('POST', `/api/tournaments/${cup.id}/stages/${se._id}/schedule`, {
      token: admin.token,
      body: { start: '9999-12-31T23:30:00Z', roundMinutes: 60 },
      headers: { cookie: 'lang=en' },
    });
    expect([english.status, english.body.message]).toEqual([400, expect.stringContaining('after the year 9999')]);
    // Times that stay within the year are set: one round at that second, or every round up to it.
    expect((await schedule(cup.id, se._id, { start: '9999-12-31T23:59:59Z', round: 1 })).status).toBe(200);
    expect((await schedule(cup.id, se._id, { start: '9999-12-31T21:59:59Z', roundMinutes: 120 })).status).toBe(200);
    expect((await matchesOf(cup.id, se._id)).map((m) => m.scheduledAt)).toEqual([
      '9999-12-31T21:59:59.000Z',
      '9999-12-31T21:59:59.000Z',
      '9999-12-31T23:59:59.000Z',
    ]);
  });

  it('two schedules at once: each match ends with the times of one of them, never a mix', async () => {
    const { cup, se } = await cupOf(await Promise.all([player(api), player(api), player(api), player(api)]));
    const answers = await Promise.all([
      schedule(cup.id, se._id, { start: START, roundMinutes: 30 }),
      schedule(cup.id, se._id, { start: START, roundMinutes: 45 }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const final = (await matchesOf(cup.id, se._id)).map(at);
    expect([JSON.stringify([0, 0, 30]), JSON.stringify([0, 0, 45])]).toContain(JSON.stringify(final));
  });
});

describe('the tournament’s calendar', () => {
  let players: Player[];
  let cup: Awaited<ReturnType<typeof cupOf>>['cup'];
  let se: StageView;

  beforeAll(async () => {
    players = await Promise.all([player(api), player(api), player(api), player(api)]);
    ({ cup, se } = await cupOf(players, { title: 'Кубок Дніпра' }));
    await schedule(cup.id, se._id, { start: START, roundMinutes: 90 });
  });

  it('is an iCalendar of the tournament and its scheduled matches, in Kyiv’s zone, linked to their pages', async () => {
    const res = await api.call<string>('GET', `/api/tournaments/${cup.id}/calendar.ics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const { events } = parseFeed(res.body);
    const matches = await matchesOf(cup.id, se._id);
    const names = new Map((await api.call<StagesState>('GET', `/api/tournaments/${cup.id}/stages`)).body.participants.map((p) => [p._id, p.name]));
    expect(events.map((e) => e.uid).sort()).toEqual([`tournament-${cup.id}@kiberarena`, ...matches.map((m) => `match-${m._id}@kiberarena`)].sort());
    for (const m of matches) {
      const event = events.find((e) => e.uid === `match-${m._id}@kiberarena`)!;
      expect(event.zone).toBe('Europe/Kyiv');
      expect(event.start.toISOString()).toBe(m.scheduledAt);
      expect(event.end.getTime() - event.start.getTime()).toBe(60 * MINUTE);
      expect(event.url).toBe(`https://arena.test/matches/${m._id}`);
      expect(event.stamp).toBeInstanceOf(Date);
      expect(event.lastModified).toBeInstanceOf(Date);
      const side = (id: string | null) => (id ? names.get(id) : 'Буде визначено');
      expect(event.summary).toBe(`${side(m.a)} vs ${side(m.b)} — Кубок Дніпра`);
    }
    const main = events.find((e) => e.uid === `tournament-${cup.id}@kiberarena`)!;
    expect([main.summary, main.start.toISOString(), main.url]).toEqual([
      'Кубок Дніпра',
      new Date(cup.date).toISOString(),
      `https://arena.test/tournaments/${cup.id}`,
    ]);
    // It lasts until its last match ends.
    expect(main.end.getTime()).toBe(startMs + 150 * MINUTE);
  });

  it('reads the same twice (same UIDs, same ETag, 304 when asked with it), and is held as a public read', async () => {
    const first = await api.call<string>('GET', `/api/tournaments/${cup.id}/calendar.ics`);
    const second = await api.call<string>('GET', `/api/tournaments/${cup.id}/calendar.ics`);
    expect(parseFeed(second.body).events.map((e) => e.uid)).toEqual(parseFeed(first.body).events.map((e) => e.uid));
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(first.headers.get('cache-control')).toMatch(/^public/);
    expect((await api.call('GET', `/api/tournaments/${cup.id}/calendar.ics`, { headers: { 'if-none-match': first.headers.get('etag')! } })).status).toBe(304);
  });

  it('shows the check-in window when check-in is on: 60 to 10 minutes before the start by default', async () => {
    // The check-in settings' form is H1's; the column is set directly here.
    await api.db.update(tournaments).set({ checkInEnabled: true }).where(eq(tournaments.id, cup.id));
    const { events } = parseFeed((await api.call<string>('GET', `/api/tournaments/${cup.id}/calendar.ics`)).body);
    const checkIn = events.find((e) => e.uid === `check-in-${cup.id}@kiberarena`)!;
    expect(checkIn.summary).toBe('Підтвердження участі — Кубок Дніпра');
    expect([checkIn.start.getTime(), checkIn.end.getTime()]).toEqual([Date.parse(cup.date) - 60 * MINUTE, Date.parse(cup.date) - 10 * MINUTE]);
    expect(checkIn.zone).toBe('Europe/Kyiv');
  });

  it('speaks English to an English reader', async () => {
    const res = await api.call<string>('GET', `/api/tournaments/${cup.id}/calendar.ics`, { headers: { cookie: 'lang=en' } });
    expect(parseFeed(res.body).events.some((e) => e.summary.endsWith('To be decided — Кубок Дніпра'))).toBe(true);
  });

  it('is 404 for a tournament that does not exist, 400 for an id that is not one', async () => {
    expect((await api.call('GET', '/api/tournaments/00000000-0000-4000-8000-000000000000/calendar.ics')).status).toBe(404);
    expect((await api.call('GET', '/api/tournaments/nope/calendar.ics')).status).toBe(400);
  });
});

describe('a player’s own calendar', () => {
  const link = async (p: Player) => (await api.call<{ url: string }>('GET', '/api/users/me/calendar', { token: p.token })).body.url;
  const feedPath = (url: string) => new URL(url).pathname;
  const uids = async (url: string) => parseFeed((await api.call<string>('GET', feedPath(url))).body).events.map((e) => e.uid);

  it('lives at a secret address made on the first ask, the same on every ask after, also when asked at once', async () => {
    const p = await player(api);
    const urls = await Promise.all([link(p), link(p), link(p)]);
    expect(new Set(urls).size).toBe(1);
    expect(urls[0]).toMatch(/^https:\/\/arena\.test\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(await link(p)).toBe(urls[0]);
    expect((await api.call('GET', '/api/users/me/calendar')).status).toBe(401);
  });

  it('holds my tournaments and my own matches, never another player’s', async () => {
    const players = await Promise.all([player(api), player(api), player(api), player(api)]);
    const { cup, se } = await cupOf(players);
    await schedule(cup.id, se._id, { start: START, roundMinutes: 60 });
    const [m1, m2, final] = await matchesOf(cup.id, se._id);
    const mine = (m: StageMatchView) => `match-${m._id}@kiberarena`;
    const p1 = await uids(await link(players[0]!));
    expect(p1.sort()).toEqual([`tournament-${cup.id}@kiberarena`, mine(m1!)].sort());
    const p3 = await uids(await link(players[2]!));
    expect(p3).toContain(mine(m2!));
    expect(p3).not.toContain(mine(m1!));
    const outsider = await uids(await link(await player(api)));
    expect(outsider).toEqual([]);
    // Once the first player wins, the final is theirs too.
    expect((await result(m1!, 2, 1)).status).toBe(200);
    expect(await uids(await link(players[0]!))).toContain(mine(final!));
    expect(await uids(await link(players[1]!))).not.toContain(mine(final!));
  });

  it('holds my team’s matches for every member, not only the captain', async () => {
    const captain = await player(api);
    const member = await player(api);
    const ours = await team(api, captain, 5, { members: [member.user.id] });
    const cup = await tournament(api, { game: gameId, soloOnly: false, approved: [ours, await team(api, await player(api), 5)] });
    const se = await stage(api, cup.id, { format: 'single_elimination' });
    await schedule(cup.id, se._id, { start: START, roundMinutes: 60 });
    const feed = parseFeed((await api.call<string>('GET', feedPath(await link(member)))).body);
    expect(feed.events.map((e) => e.uid)).toContain(`match-${se.matches[0]!._id}@kiberarena`);
  });

  it('a revoked address is 404 at once; the new one works', async () => {
    const p = await player(api);
    const old = await link(p);
    const revoked = await api.call<{ message: string; url: string }>('POST', '/api/users/me/calendar/revoke', { token: p.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.message).toBe('Адресу календаря змінено: стара більше не працює.');
    expect(revoked.body.url).not.toBe(old);
    const gone = await api.call<{ message: string }>('GET', feedPath(old));
    expect([gone.status, gone.body.message]).toEqual([404, 'Календар не знайдено: адресу змінено або вона неправильна.']);
    expect((await api.call('GET', feedPath(revoked.body.url))).status).toBe(200);
    expect(await link(p)).toBe(revoked.body.url);
  });

  it('is 404 for an address nobody holds, and never stored by a shared cache', async () => {
    for (const file of [`${'A'.repeat(43)}.ics`, 'nope.ics', 'x', `${'A'.repeat(43)}`])
      expect((await api.call('GET', `/api/calendar/${file}`)).status).toBe(404);
    const res = await api.call('GET', feedPath(await link(await player(api))));
    expect(res.headers.get('cache-control')).toMatch(/private/);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  });
});
