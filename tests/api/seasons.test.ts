import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Season, SeasonListItem, SeasonSaved, SeasonStandings } from '../../src/lib/api/seasons.ts';
import type { StageMatchView, StagesState } from '../../src/lib/api/stages.ts';
import type { TournamentDetail, TournamentSaved } from '../../src/lib/api/tournaments.ts';
import { seasons, tournaments } from '../../src/server/db/schema/index.ts';
import { AnswerCache, type Asked, type Rendered, STALE_MAX_MS } from '../../src/server/serving/answer-cache.ts';
import { collectChanges, type DataTag, onChanges, tournamentData } from '../../src/server/services/live/changes.ts';
import { admin as adminOf, game, player, stage, tournament, tournamentStatus, unique, useTestApi, type Player, organisationWithPeople, type BuiltOrganisation } from '../support/builders.ts';

/*
 * Seasons (issue 59): an organisation's owner and admins (the site's admin for the site's own) make
 * one and choose its tournaments; its table adds up points by final place across its finished
 * tournaments, ties going to the best single place and then to the most recent result, and follows a
 * corrected result at once — in the held answers too.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;
let otherGameId: string;
const POINTS = [10, 6, 4, 3];

type Org = BuiltOrganisation;
const organisation = () => organisationWithPeople(api);

const create = (token: string | undefined, body: unknown) => api.call<SeasonSaved>('POST', '/api/seasons', { token, body });
const join = (token: string | undefined, season: string, cup: string) => api.call<SeasonSaved>('PUT', `/api/seasons/${season}/tournaments/${cup}`, { token });
const leave = (token: string | undefined, season: string, cup: string) => api.call<SeasonSaved>('DELETE', `/api/seasons/${season}/tournaments/${cup}`, { token });
const standingsOf = (season: string) => api.call<SeasonStandings>('GET', `/api/seasons/${season}/standings`);
const seasonCount = async () => (await api.db.select({ n: count() }).from(seasons))[0]!.n;

/** A season made by `token` (201 expected); its id. */
async function made(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await create(token, { name: unique('Сезон '), game: gameId, pointsByPlace: POINTS, ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.season._id;
}

/** A new tournament of an organisation, published by its owner; its id. */
async function orgTournament(org: Org, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await api.call<TournamentSaved>('POST', '/api/tournaments', {
    token: org.owner.token,
    body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: org.id, ...extra },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.tournament._id;
}

const stagesOf = async (id: string) => (await api.call<StagesState>('GET', `/api/tournaments/${id}/stages`)).body.stages;

/** Plays every ready match of the tournament's stages: the side listed earlier in `strength` wins 2–0. */
async function playOut(id: string, strength: string[]) {
  for (let guard = 0; guard < 20; guard++) {
    const ready = (await stagesOf(id)).flatMap((s) => s.matches).find((m: StageMatchView) => m.status === 'ready');
    if (!ready) return;
    const aWins = strength.indexOf(ready.a!) < strength.indexOf(ready.b!);
    const res = await api.call('PATCH', `/api/matches/${ready._id}`, { token: admin.token, body: { version: ready.version, scoreA: aWins ? 2 : 0, scoreB: aWins ? 0 : 2 } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

/** A solo tournament of the site's on `date` with `players`, played out as `strength` says (strongest first) and finished. */
async function played(date: string, players: Player[], strength: Player[] = players) {
  const cup = await tournament(api, { game: gameId, soloOnly: true, date, approved: players });
  // Seeds 1 v 4 and 2 v 3: the two strongest meet in the final.
  await stage(api, cup.id, { format: 'single_elimination', seeding: 'standard' });
  await playOut(
    cup.id,
    strength.map((p) => p.user.id),
  );
  await tournamentStatus(api, cup, 'finished');
  return cup;
}

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, unique('Сезонна гра '));
  otherGameId = await game(api, unique('Інша гра '));
});

describe('making a season', () => {
  let a: Org;
  let b: Org;
  beforeAll(async () => {
    [a, b] = [await organisation(), await organisation()];
  });

  it('lets an organisation’s owner and admins, and the site’s admin, make one for it; the site’s admin alone the site’s own', async () => {
    for (const who of [a.owner, a.admin, admin]) {
      const res = await create(who.token, { name: 'Весняна ліга', game: gameId, pointsByPlace: POINTS, organisation: a.id });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.message).toBe('Сезон «Весняна ліга» створено');
      expect(res.body.season).toMatchObject({
        name: 'Весняна ліга',
        game: { _id: gameId },
        organisation: { _id: a.id },
        pointsByPlace: POINTS,
        soloOnly: null,
        tournaments: [],
      });
    }
    const own = await create(admin.token, { name: 'Сезон сайту', game: gameId, pointsByPlace: [3, 2, 1], soloOnly: false });
    expect(own.status).toBe(201);
    expect(own.body.season).toMatchObject({ organisation: null, soloOnly: false });
  });

  it('refuses staff, other organisations, players and guests, and the site’s own to anyone but its admin', async () => {
    const before = await seasonCount();
    const body = { name: 'Чужий сезон', game: gameId, pointsByPlace: POINTS };
    const refusals: [string | undefined, Record<string, unknown>, number, string][] = [
      [undefined, { organisation: a.id }, 401, 'Потрібно увійти'],
      [(await player(api)).token, { organisation: a.id }, 403, 'Сезонами керують власник і адміністратори організації'],
      [a.staff.token, { organisation: a.id }, 403, 'Сезонами керують власник і адміністратори організації'],
      [b.owner.token, { organisation: a.id }, 403, 'Сезонами керують власник і адміністратори організації'],
      [a.owner.token, {}, 403, 'Сезони самої Кіберарени створює її адміністратор'],
      [a.owner.token, { organisation: '00000000-0000-4000-8000-000000000000' }, 404, 'Організацію не знайдено'],
      [a.owner.token, { organisation: a.id, game: '00000000-0000-4000-8000-000000000000' }, 404, 'Гру не знайдено'],
    ];
    for (const [token, extra, status, message] of refusals) {
      const res = await create(token, { ...body, ...extra });
      expect(res.status, message).toBe(status);
      expect((res.body as unknown as { message: string }).message).toContain(message);
    }
    expect(await seasonCount()).toBe(before);
  });

  it('refuses a bad name, points table or field with 400 and a Ukrainian sentence, and writes nothing', async () => {
    const before = await seasonCount();
    const base = { name: 'Ліга', game: gameId, pointsByPlace: POINTS, organisation: a.id };
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '   ' }, 'Вкажіть назву сезону'],
      [{ name: 'я'.repeat(81) }, 'Назва сезону — щонайбільше 80 символів'],
      [{ name: 'a\u0000b' }, 'недопустим'],
      [{ name: 'a\u0007b' }, 'Назва містить недопустимі символи'],
      [{ name: 42 }, 'Назва'],
      [{ pointsByPlace: [] }, 'Вкажіть очки хоча б за перше місце'],
      [{ pointsByPlace: [5, 10] }, 'Нижче місце не може давати більше очок, ніж вище'],
      [{ pointsByPlace: [10, -1] }, 'Очки не можуть бути відʼємними'],
      [{ pointsByPlace: [10, 1.5] }, 'Очки за місця — цілі числа'],
      [{ pointsByPlace: ['10'] }, 'Очки за місця — цілі числа'],
      [{ pointsByPlace: [10001] }, 'За місце — щонайбільше 10000 очок'],
      [{ pointsByPlace: Array.from({ length: 65 }, () => 1) }, 'Очки — щонайбільше за 64 місця'],
      [{ pointsByPlace: '10, 6' }, 'Очки за місця'],
      [{ pointsByPlace: undefined }, 'Очки за місця'],
      [{ game: 'dota' }, 'Некоректний ідентифікатор'],
      [{ organisation: 'not-a-uuid' }, 'Некоректний ідентифікатор'],
      [{ soloOnly: 'yes' }, 'Лише соло'],
    ];
    for (const [change, message] of cases) {
      const res = await create(a.owner.token, { ...base, ...change });
      expect(res.status, JSON.stringify(change).slice(0, 80)).toBe(400);
      expect((res.body as unknown as { message: string }).message, JSON.stringify(change).slice(0, 80)).toContain(message);
    }
    expect((await api.call('POST', '/api/seasons', { token: a.owner.token, raw: '{"name":' })).status).toBe(400);
    expect(await seasonCount()).toBe(before);
    // The English reader hears it in English.
    const english = await api.call<{ message: string }>('POST', '/api/seasons', { token: a.owner.token, body: { ...base, pointsByPlace: [1, 2] }, headers: { cookie: 'lang=en' } });
    expect(english.body.message).toBe('A lower place cannot give more points than a higher one');
  });
});

describe('reading seasons', () => {
  it('answers a season, 404 for an unknown one, 400 for a path that is no id; lists them by organisation, the site’s and game', async () => {
    const org = await organisation();
    const mine = await made(org.owner.token, { organisation: org.id, name: 'Ліга читання' });
    const site = await made(admin.token, { name: 'Сезон сайту для списку', game: otherGameId });
    const read = await api.call<Season>('GET', `/api/seasons/${mine}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ _id: mine, name: 'Ліга читання', organisation: { _id: org.id }, tournaments: [] });
    expect(read.headers.get('cache-control')).toMatch(/public/);
    expect((await api.call('GET', '/api/seasons/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await api.call('GET', '/api/seasons/00000000-0000-4000-8000-000000000000/standings')).status).toBe(404);
    expect((await api.call('GET', '/api/seasons/not-an-id')).status).toBe(400);
    const ofOrg = await api.call<SeasonListItem[]>('GET', `/api/seasons?organisation=${org.id}`);
    expect(ofOrg.body.map((s) => [s._id, s.tournaments, s.finished])).toEqual([[mine, 0, 0]]);
    const own = await api.call<SeasonListItem[]>('GET', '/api/seasons?organisation=site');
    expect(own.body.some((s) => s._id === site)).toBe(true);
    expect(own.body.every((s) => s.organisation === null)).toBe(true);
    const ofGame = await api.call<SeasonListItem[]>('GET', `/api/seasons?game=${otherGameId}`);
    expect(ofGame.body.map((s) => s._id)).toEqual([site]);
    expect((await api.call('GET', '/api/seasons?organisation=elsewhere')).status).toBe(400);
    expect((await api.call('GET', '/api/seasons?limit=0')).status).toBe(400);
  });

  it('hides a suspended organisation’s seasons from all but the site’s admin, and refuses changes to them', async () => {
    const org = await organisation();
    const id = await made(org.owner.token, { organisation: org.id });
    expect((await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { suspended: true, reason: 'Перевірка' } })).status).toBe(200);
    expect((await api.call('GET', `/api/seasons/${id}`)).status).toBe(404);
    expect((await standingsOf(id)).status).toBe(404);
    expect((await api.call<SeasonListItem[]>('GET', `/api/seasons?organisation=${org.id}`)).body).toEqual([]);
    expect((await api.call('GET', `/api/seasons/${id}`, { token: admin.token })).status).toBe(200);
    const rename = { name: 'Нова назва', pointsByPlace: POINTS };
    expect((await api.call('PUT', `/api/seasons/${id}`, { token: org.owner.token, body: rename })).status).toBe(403);
    expect((await api.call('PUT', `/api/seasons/${id}`, { token: (await player(api)).token, body: rename })).status).toBe(404);
    expect((await create(org.owner.token, { name: 'Ще один', game: gameId, pointsByPlace: POINTS, organisation: org.id })).status).toBe(403);
  });
});

describe('a season’s tournaments', () => {
  let a: Org;
  let b: Org;
  let season: string;
  beforeAll(async () => {
    [a, b] = [await organisation(), await organisation()];
    season = await made(a.owner.token, { organisation: a.id });
  });

  it('takes the organisation’s own tournaments of its game; the first decides players or teams; joining again changes nothing', async () => {
    const first = await orgTournament(a);
    const res = await join(a.admin.token, season, first);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toMatch(/^Турнір «Кубок .+» тепер у сезоні$/);
    expect(res.body.season.soloOnly).toBe(true);
    expect(res.body.season.tournaments.map((t) => t._id)).toEqual([first]);
    expect((await join(a.owner.token, season, first)).status).toBe(200);
    expect((await join(admin.token, season, await orgTournament(a))).status).toBe(200);
    // The tournament's page names its season.
    const detail = await api.call<TournamentDetail>('GET', `/api/tournaments/${first}`);
    expect(detail.body.season).toEqual({ _id: season, name: expect.any(String) });
  });

  it('refuses another organisation’s or the site’s tournament (403), another game’s or kind (422), one in another season (409)', async () => {
    const before = await api.db.select({ id: tournaments.id, season: tournaments.seasonId }).from(tournaments);
    const elsewhere = await made(a.owner.token, { organisation: a.id });
    const inElsewhere = await orgTournament(a);
    expect((await join(a.owner.token, elsewhere, inElsewhere)).status).toBe(200);
    const cases: [string, number, string][] = [
      [await orgTournament(b), 403, 'До сезону додаються лише турніри його організатора'],
      [(await tournament(api, { game: gameId, soloOnly: true })).id, 403, 'До сезону додаються лише турніри його організатора'],
      [await orgTournament(a, { game: otherGameId }), 422, 'Це турнір з іншої гри'],
      [await orgTournament(a, { soloOnly: false }), 422, 'Сезон не змішує гравців і команди'],
      [inElsewhere, 409, 'Турнір уже в іншому сезоні'],
      ['00000000-0000-4000-8000-000000000000', 404, 'Турнір не знайдено'],
    ];
    for (const [cup, status, message] of cases) {
      const res = await join(a.owner.token, season, cup);
      expect(res.status, message).toBe(status);
      expect((res.body as unknown as { message: string }).message).toContain(message);
    }
    expect((await join(a.owner.token, season, 'not-a-uuid')).status).toBe(400);
    const after = await api.db.select({ id: tournaments.id, season: tournaments.seasonId }).from(tournaments);
    const moved = after.filter((row) => row.season === season && !before.some((old) => old.id === row.id && old.season === season));
    expect(moved).toEqual([]);
  });

  it('lets only its managers choose its tournaments, checking before the path’s tournament', async () => {
    const cup = await orgTournament(a);
    const ghost = '00000000-0000-4000-8000-000000000000';
    for (const [token, status] of [
      [undefined, 401],
      [a.staff.token, 403],
      [b.owner.token, 403],
      [(await player(api)).token, 403],
    ] as const) {
      expect((await join(token, season, cup)).status).toBe(status);
      expect((await leave(token, season, cup)).status).toBe(status);
      expect((await join(token, 'not-a-uuid', ghost)).status).toBe(status);
    }
    expect((await join(a.owner.token, ghost, cup)).status).toBe(404);
  });

  it('lets a tournament leave; leaving again is 404; the season keeps its kind but may change it once empty', async () => {
    const solo = await made(a.owner.token, { organisation: a.id });
    const cup = await orgTournament(a);
    expect((await join(a.owner.token, solo, cup)).status).toBe(200);
    const put = (body: Record<string, unknown>) => api.call<SeasonSaved>('PUT', `/api/seasons/${solo}`, { token: a.owner.token, body: { name: 'Ліга', pointsByPlace: POINTS, ...body } });
    expect((await put({ soloOnly: false })).status).toBe(409);
    expect((await put({ game: otherGameId })).status).toBe(409);
    const left = await leave(a.admin.token, solo, cup);
    expect(left.status).toBe(200);
    expect(left.body).toMatchObject({ message: 'Турнір вилучено із сезону', season: { tournaments: [], soloOnly: true } });
    expect((await leave(a.admin.token, solo, cup)).status).toBe(404);
    const changed = await put({ soloOnly: false, game: otherGameId, name: 'Командна ліга' });
    expect(changed.status).toBe(200);
    expect(changed.body.season).toMatchObject({ name: 'Командна ліга', soloOnly: false, game: { _id: otherGameId } });
    expect((await api.call<TournamentDetail>('GET', `/api/tournaments/${cup}`)).body.season).toBeNull();
  });

  it('deletes a season with its managers’ word; its tournaments stay, in no season', async () => {
    const doomed = await made(a.owner.token, { organisation: a.id });
    const cup = await orgTournament(a);
    await join(a.owner.token, doomed, cup);
    expect((await api.call('DELETE', `/api/seasons/${doomed}`, { token: a.staff.token })).status).toBe(403);
    expect((await api.call('DELETE', `/api/seasons/${doomed}`, { token: a.admin.token })).body).toEqual({ message: 'Сезон видалено' });
    expect((await api.call('GET', `/api/seasons/${doomed}`)).status).toBe(404);
    const [row] = await api.db.select({ season: tournaments.seasonId }).from(tournaments).where(eq(tournaments.id, cup));
    expect(row).toEqual({ season: null });
    expect((await api.call('DELETE', `/api/seasons/${doomed}`, { token: a.admin.token })).status).toBe(404);
  });
});

describe('the season’s table', () => {
  let season: string;
  let p: Player[];
  let cups: { id: string; title: string; date: string; game: string }[];
  let rival: string;

  beforeAll(async () => {
    p = await Promise.all(Array.from({ length: 6 }, () => player(api)));
    season = await made(admin.token, { name: 'Таблиця', pointsByPlace: POINTS });
    const [a, b, c, d, e, f] = p as [Player, Player, Player, Player, Player, Player];
    // January: A beats B. February: B beats A. So far 16 each, a win each: B's is the more recent.
    const january = await played('2030-01-10T16:00:00Z', [a, b]);
    const february = await played('2030-02-10T16:00:00Z', [a, b], [b, a]);
    // March, four players and no match for third: C wins, D second, E and F share 3–4 (4 points each).
    const march = await played('2030-03-10T16:00:00Z', [c, d, e, f]);
    // April, without stages: its named winner is first.
    const april = await tournament(api, { game: gameId, soloOnly: true, date: '2030-04-10T16:00:00Z', approved: [c, e], status: 'finished' });
    expect((await api.call('PATCH', `/api/tournaments/${april.id}/winner`, { token: admin.token, body: { winnerType: 'user', winnerId: c.user.id } })).status).toBe(200);
    // May: not finished, not counted.
    const may = await tournament(api, { game: gameId, soloOnly: true, date: '2030-05-10T16:00:00Z', approved: [d, f] });
    cups = [january, february, march, april, may];
    for (const cup of cups) expect((await join(admin.token, season, cup.id)).status).toBe(200);
    rival = february.id;
  });

  it('adds up points by final place, ties broken by the best place and then the most recent result; shows each tournament’s place and points', async () => {
    const res = await standingsOf(season);
    expect(res.status).toBe(200);
    const [a, b, c, d, e, f] = p.map((x) => x.user.id);
    expect(res.body.rows.map((r) => [r.rank, r.participant._id, r.total, r.best])).toEqual([
      [1, c, 20, 1],
      [2, b, 16, 1],
      [3, a, 16, 1],
      [4, d, 6, 2],
      // E and F: 4 points each from the shared 3–4, best place 3; E also played April (no place but the winner's): still level, so one rank, by name.
      ...[e, f].sort((x, y) => res.body.rows.find((r) => r.participant._id === x)!.participant.name.localeCompare(res.body.rows.find((r) => r.participant._id === y)!.participant.name, 'uk')).map((id) => [5, id, 4, 3]),
    ]);
    const rowOf = (id: string) => res.body.rows.find((r) => r.participant._id === id)!;
    expect(rowOf(e!).results).toEqual([{ tournament: cups[2]!.id, from: 3, to: 4, points: 4 }]);
    expect(rowOf(c!).results).toEqual([
      { tournament: cups[3]!.id, from: 1, to: 1, points: 10 },
      { tournament: cups[2]!.id, from: 1, to: 1, points: 10 },
    ]);
    expect(rowOf(a!).participant).toEqual({ type: 'user', _id: a, name: p[0]!.user.username });
    expect(res.body.tournaments.map((t) => [t._id, t.counted])).toEqual(cups.map((cup, i) => [cup.id, i < 4]));
    expect(res.body.season).toMatchObject({ _id: season, pointsByPlace: POINTS, soloOnly: true });
  });

  it('follows new points at once', async () => {
    expect((await api.call('PUT', `/api/seasons/${season}`, { token: admin.token, body: { name: 'Таблиця', pointsByPlace: [25, 18, 15, 12] } })).status).toBe(200);
    expect((await standingsOf(season)).body.rows.slice(0, 2).map((r) => r.total)).toEqual([50, 43]);
    expect((await api.call('PUT', `/api/seasons/${season}`, { token: admin.token, body: { name: 'Таблиця', pointsByPlace: POINTS } })).status).toBe(200);
  });

  it('updates when a result of a finished tournament is corrected — the held answer too', async () => {
    // A guest's answer held as the serving layer holds it, emptied by what writes say they changed.
    const cache = new AnswerCache(60_000);
    const stop = onChanges((tags) => cache.changed(tags));
    const path = `/api/seasons/${season}/standings`;
    const asked = (): Asked => ({ request: new Request(`http://arena.test${path}`), path, search: '', locale: 'uk', origin: 'http://arena.test' });
    let renders = 0;
    const render = async (): Promise<Rendered> => {
      renders++;
      const { result, shown } = await collectChanges(() => api.call('GET', path));
      return { response: new Response(JSON.stringify(result.body), { status: result.status, headers: result.headers }), shown };
    };
    // Read seconds apart, as a quiet page is: a busy one keeps its copy up to STALE_MAX_MS (decision 050).
    vi.useFakeTimers({ toFake: ['Date'] });
    const read = async () => {
      vi.setSystemTime(Date.now() + STALE_MAX_MS + 1);
      return (await (await cache.get(asked(), render)).json()) as SeasonStandings;
    };
    try {
      const order = (body: SeasonStandings) => body.rows.slice(1, 3).map((r) => [r.participant._id, r.total]);
      const [a, b] = [p[0]!.user.id, p[1]!.user.id];
      expect(order(await read())).toEqual([
        [b, 16],
        [a, 16],
      ]);
      await read();
      expect(renders).toBe(1);
      // An unrelated tournament's change leaves it held.
      const elsewhere = await tournament(api, { game: otherGameId });
      await tournamentStatus(api, elsewhere, 'started');
      await read();
      expect(renders).toBe(1);

      // February is reopened, its final corrected (A won after all) and finished again.
      const cup = cups[1]!;
      await tournamentStatus(api, cup, 'started');
      const final = (await stagesOf(rival))[0]!.matches[0]!;
      const aIsSideA = final.a === a;
      const corrected = await api.call('PATCH', `/api/matches/${final._id}`, {
        token: admin.token,
        body: { version: final.version, scoreA: aIsSideA ? 2 : 1, scoreB: aIsSideA ? 1 : 2 },
      });
      expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
      // While reopened it counts no more.
      expect((await read()).rows.find((r) => r.participant._id === a)!.total).toBe(10);
      await tournamentStatus(api, cup, 'finished');
      const after = await read();
      expect(order(after)).toEqual([
        [a, 20],
        [b, 12],
      ]);
      expect(renders).toBe(3);
    } finally {
      stop();
      vi.useRealTimers();
    }
  });

  it('says it shows every one of its tournaments, so their writes empty held copies', async () => {
    const { shown } = await collectChanges(() => standingsOf(season));
    for (const cup of cups) expect(shown.has(tournamentData(cup.id))).toBe(true);
    expect(shown.has('seasons')).toBe(true);
  });

  it('counts a tournament no more once its game changes, and again when changed back', async () => {
    const april = cups[3]!;
    const edit = (gameOf: string) =>
      api.call('PUT', `/api/tournaments/${april.id}`, { token: admin.token, body: { title: april.title, date: april.date, game: gameOf } });
    const c = p[2]!.user.id;
    const totalOfC = async () => (await standingsOf(season)).body.rows.find((r) => r.participant._id === c)!.total;
    expect(await totalOfC()).toBe(20);
    expect((await edit(otherGameId)).status).toBe(200);
    expect((await standingsOf(season)).body.tournaments.map((t) => t._id)).not.toContain(april.id);
    expect(await totalOfC()).toBe(10);
    expect((await edit(gameId)).status).toBe(200);
    expect(await totalOfC()).toBe(20);
  });

  it('is empty for a season without finished tournaments, and counts teams in a team season', async () => {
    const empty = await made(admin.token, {});
    expect((await standingsOf(empty)).body).toMatchObject({ rows: [], tournaments: [] });
    const teams = await made(admin.token, { soloOnly: false });
    const cup = await tournament(api, { game: gameId, soloOnly: false, approved: 2 });
    await stage(api, cup.id, { format: 'single_elimination' });
    await playOut(cup.id, cup.approved);
    await tournamentStatus(api, cup, 'finished');
    expect((await join(admin.token, teams, cup.id)).status).toBe(200);
    const rows = (await standingsOf(teams)).body.rows;
    expect(rows.map((r) => [r.participant.type, r.participant._id, r.total])).toEqual([
      ['team', cup.approved[0], 10],
      ['team', cup.approved[1], 6],
    ]);
    expect(rows[0]!.participant.name.length).toBeGreaterThan(0);
  });
});

describe('what a season’s writes say they changed', () => {
  it('the seasons, and the page of a tournament that joins or leaves; a refusal, nothing', async () => {
    const told: DataTag[][] = [];
    const stop = onChanges((tags) => void told.push([...tags].sort()));
    try {
      const changesOf = async (write: () => Promise<unknown>) => {
        told.length = 0;
        await write();
        return [...told];
      };
      let id = '';
      expect(await changesOf(async () => (id = await made(admin.token, {})))).toEqual([['seasons']]);
      const cup = await tournament(api, { game: gameId, soloOnly: true });
      expect(await changesOf(() => join(admin.token, id, cup.id))).toEqual([[tournamentData(cup.id), 'seasons'].sort()]);
      expect(await changesOf(() => join(admin.token, id, cup.id))).toEqual([]);
      expect(await changesOf(() => leave(admin.token, id, cup.id))).toEqual([[tournamentData(cup.id), 'seasons'].sort()]);
      expect(await changesOf(() => create(admin.token, { name: '', game: gameId, pointsByPlace: POINTS }))).toEqual([]);
      expect(await changesOf(() => api.call('DELETE', `/api/seasons/${id}`, { token: admin.token }))).toEqual([['seasons']]);
    } finally {
      stop();
    }
  });
});
