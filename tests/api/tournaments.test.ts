import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { applications, notifications, teamMembers, tournaments } from '../../src/server/db/schema/index.ts';
import { accounts, admin as adminOf, application, game, player as newPlayer, team, tournament as built, tournamentStatus, useTestApi, type TournamentOptions } from '../support/builders.ts';

const api = useTestApi();
let admin: string;
let player: { token: string; id: string };
let gameId: string;
let otherGameId: string;

const MISSING = '00000000-0000-4000-8000-000000000000';

interface TournamentBody {
  _id: string;
  title: string;
  name: string;
  date: string;
  status: string;
  soloOnly: boolean;
  game: string;
  gameName: string;
  image: string | null;
  imageUrl: string | null;
  description: string;
  winner: { type: string; id: string; name: string } | null;
  applications?: { _id: string; status: string; user: { _id: string; username: string }; team: { _id: string; name: string; members: unknown[] } | null }[];
  bracket?: unknown[];
}

/** A tournament of the file's game made by the builders (with approved participants), for the tests not about creating one. */
const cup = (options: TournamentOptions = {}) => built(api, { game: gameId, ...options });

async function createTournament(body: Record<string, unknown>): Promise<TournamentBody> {
  const res = await api.call<{ tournament: TournamentBody }>('POST', '/api/tournaments', {
    token: admin,
    body: { title: `Cup ${randomUUID().slice(0, 6)}`, date: '2030-05-01T16:00:00Z', game: gameId, ...body },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.tournament;
}

beforeAll(async () => {
  admin = (await adminOf(api)).token;
  const p = await api.signedIn('user');
  player = { token: p.token, id: p.user.id };
  gameId = await game(api, 'CS2');
  otherGameId = await game(api, 'Dota 2');
});

describe('creating tournaments', () => {
  it('is for admins only: guests get 401, players 403', async () => {
    const body = { title: 'Nope', date: '2030-01-01', game: gameId };
    expect((await api.call('POST', '/api/tournaments', { body })).status).toBe(401);
    const res = await api.call('POST', '/api/tournaments', { token: player.token, body });
    expect(res.status).toBe(403);
    // A player who runs no organisation (issue 56) publishes nothing.
    expect(res.body.message).toBe('Турніри створюють адміністратор сайту та власники й адміністратори організацій');
  });

  it('creates a pending team tournament by default and answers with both spellings of title and image', async () => {
    const res = await api.call<{ message: string; tournament: TournamentBody }>('POST', '/api/tournaments', {
      token: admin,
      body: { title: '  Kyiv Major  ', date: '2030-03-10T17:00:00Z', description: 'Big one', game: gameId, image: '/games/cs2.jpg' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Турнір додано!');
    expect(res.body.tournament).toMatchObject({
      title: 'Kyiv Major',
      name: 'Kyiv Major',
      status: 'pending',
      soloOnly: false,
      game: gameId,
      gameName: 'CS2',
      image: '/games/cs2.jpg',
      imageUrl: '/games/cs2.jpg',
      description: 'Big one',
      date: '2030-03-10T17:00:00.000Z',
      winner: null,
    });
  });

  it('takes soloOnly, a status in any spelling the spec knows, and a plain day as the date', async () => {
    const solo = await createTournament({ soloOnly: true, status: 'in-progress', date: '2030-04-02' });
    expect(solo.soloOnly).toBe(true);
    expect(solo.status).toBe('started');
    expect(solo.date).toBe('2030-04-02T00:00:00.000Z');
    expect((await createTournament({ status: 'completed' })).status).toBe('finished');
    expect((await createTournament({ status: 'scheduled' })).status).toBe('pending');
  });

  it('refuses missing fields, bad dates, unknown statuses, bad game ids and unknown games', async () => {
    const cases: [Record<string, unknown>, number, RegExp | string][] = [
      [{ date: '2030-01-01', game: gameId }, 400, 'Поле «Назва» обовʼязкове'],
      [{ title: 'X', game: gameId }, 400, 'Поле «Дата» обовʼязкове'],
      [{ title: 'X', date: '2030-01-01' }, 400, 'Поле «Гра» обовʼязкове'],
      [{ title: 'X', date: 'next friday', game: gameId }, 400, 'Некоректна дата: потрібна дата на кшталт 2026-11-24, рік від 1900 до 9999'],
      [{ title: 'X', date: '2030-13-45', game: gameId }, 400, 'Некоректна дата: потрібна дата на кшталт 2026-11-24, рік від 1900 до 9999'],
      [{ title: 'X', date: '2030-01-01', game: gameId, status: 'cancelled' }, 400, 'Невідомий статус турніру'],
      [{ title: 'X', date: '2030-01-01', game: 'cs2' }, 400, 'Некоректний ідентифікатор'],
      [{ title: 'X', date: '2030-01-01', game: gameId, soloOnly: 'yes' }, 400, 'Поле «Лише соло» має неправильний тип'],
      [{ title: 'X', date: '2030-01-01', game: gameId, image: 'ftp://x/y.png' }, 400, /Зображення/],
      [{ title: 'X'.repeat(121), date: '2030-01-01', game: gameId }, 400, /задовге/],
      [{ title: 'X', date: '2030-01-01', game: MISSING }, 404, 'Гру не знайдено'],
    ];
    for (const [body, status, message] of cases) {
      const res = await api.call('POST', '/api/tournaments', { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    const malformed = await api.call('POST', '/api/tournaments', { token: admin, raw: '{"title":' });
    expect(malformed.status).toBe(400);
  });
});

describe('listing tournaments', () => {
  let listGame: string;
  beforeAll(async () => {
    listGame = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Valorant' } })).body.game._id;
    await createTournament({ game: listGame, title: 'Old solo', soloOnly: true, date: '2029-01-01', status: 'finished' });
    await createTournament({ game: listGame, title: 'New team', date: '2031-01-01' });
    await createTournament({ game: listGame, title: 'Mid team', date: '2030-01-01', status: 'started' });
    await createTournament({ game: otherGameId, title: 'Elsewhere' });
  });

  it('is public, an array, newest first, of one game when asked', async () => {
    const res = await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${listGame}`);
    expect(res.status).toBe(200);
    expect(res.body.map((t) => t.title)).toEqual(['New team', 'Mid team', 'Old solo']);
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=60');
    expect(res.headers.get('vary')).toContain('Authorization');
    const all = await api.call<TournamentBody[]>('GET', '/api/tournaments');
    expect(all.body.some((t) => t.title === 'Elsewhere')).toBe(true);
    expect(all.body.some((t) => t.title === 'New team')).toBe(true);
  });

  it('filters by soloOnly=true|false and lists all when it is omitted', async () => {
    const solo = await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${listGame}&soloOnly=true`);
    expect(solo.body.map((t) => t.title)).toEqual(['Old solo']);
    const team = await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${listGame}&soloOnly=false`);
    expect(team.body.map((t) => t.title)).toEqual(['New team', 'Mid team']);
  });

  it('answers 400 for a bad game id or soloOnly value, and an empty array for an unknown game', async () => {
    expect((await api.call('GET', '/api/tournaments?game=cs2')).status).toBe(400);
    expect((await api.call('GET', `/api/tournaments?game=${listGame}&soloOnly=maybe`)).status).toBe(400);
    const none = await api.call('GET', `/api/tournaments?game=${MISSING}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
  });
});

describe('listing tournaments narrowly: status, from, sort and pages', () => {
  const HOUR = 60 * 60 * 1000;
  let narrowGame: string;
  let base: number;
  const at = (hours: number) => new Date(base + hours * HOUR).toISOString();
  const titles = (body: TournamentBody[]) => body.map((t) => t.title);
  const list = (query: string) => api.call<TournamentBody[]>('GET', `/api/tournaments?game=${narrowGame}&${query}`);

  beforeAll(async () => {
    narrowGame = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Narrow' } })).body.game._id;
    base = Math.floor(Date.now() / 1000) * 1000;
    const make = (title: string, hours: number, status = 'pending') => createTournament({ game: narrowGame, title, date: at(hours), status });
    await make('Three days ago', -72);
    await make('Earlier today', -12);
    await make('B tomorrow', 24);
    await make('A tomorrow', 24);
    await make('Started soon', 48, 'started');
    await make('Next week', 24 * 7);
    await make('Next month', 24 * 30);
    await make('Finished last year', -24 * 365, 'finished');
  });

  it('gives the home page its three upcoming ones, as it picked them from the whole list before', async () => {
    const from = new Date(Date.now() - 24 * HOUR);
    const res = await list(`status=pending&from=${encodeURIComponent(from.toISOString())}&sort=date_asc&limit=3`);
    expect(res.status).toBe(200);
    expect(titles(res.body)).toEqual(['Earlier today', 'A tomorrow', 'B tomorrow']);
    // The same three index.astro used to pick itself out of the full list.
    const everything = (await list('')).body;
    const before = everything
      .filter((t) => t.status === 'pending' && Date.parse(t.date) >= from.getTime())
      .sort((a, b) => Date.parse(a.date) - Date.parse(b.date))
      .slice(0, 3);
    expect(res.body).toEqual(before);
  });

  it('filters by status in any spelling the spec knows, and by a moment or a plain day', async () => {
    expect(titles((await list('status=started')).body)).toEqual(['Started soon']);
    expect(titles((await list('status=in_progress')).body)).toEqual(['Started soon']);
    expect(titles((await list('status=finished')).body)).toEqual(['Finished last year']);
    expect(titles((await list(`from=${encodeURIComponent(at(24 * 7))}`)).body)).toEqual(['Next month', 'Next week']);
    const day = new Date(base + 24 * 365 * HOUR).toISOString().slice(0, 10);
    expect((await list(`from=${day}`)).body).toEqual([]);
    expect(titles((await list(`status=pending&from=${encodeURIComponent(at(24))}`)).body)).toEqual([
      'Next month',
      'Next week',
      'A tomorrow',
      'B tomorrow',
    ]);
  });

  it('orders by date either way (ties by title) and stops at the limit', async () => {
    const desc = titles((await list('')).body);
    expect(desc).toEqual([
      'Next month',
      'Next week',
      'Started soon',
      'A tomorrow',
      'B tomorrow',
      'Earlier today',
      'Three days ago',
      'Finished last year',
    ]);
    expect(titles((await list('sort=date_desc')).body)).toEqual(desc);
    expect(titles((await list('sort=date_asc')).body)).toEqual([
      'Finished last year',
      'Three days ago',
      'Earlier today',
      'A tomorrow',
      'B tomorrow',
      'Started soon',
      'Next week',
      'Next month',
    ]);
    expect(titles((await list('limit=2')).body)).toEqual(desc.slice(0, 2));
    expect(titles((await list('limit=100')).body)).toEqual(desc);
    expect(titles((await list('sort=date_asc&limit=1')).body)).toEqual(['Finished last year']);
  });

  it('pages with limit and offset, pointing to the next page with a Link header until the last', async () => {
    const desc = titles((await list('')).body);
    const first = await list('limit=3');
    expect(titles(first.body)).toEqual(desc.slice(0, 3));
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toBe(`/api/tournaments?game=${narrowGame}&limit=3&offset=3`);
    const second = await api.call<TournamentBody[]>('GET', next!);
    expect(titles(second.body)).toEqual(desc.slice(3, 6));
    const last = await list('limit=3&offset=6');
    expect(titles(last.body)).toEqual(desc.slice(6));
    expect(last.headers.get('link')).toBeNull();
    // Exactly a page left: no promise of another.
    expect((await list('limit=2&offset=6')).headers.get('link')).toBeNull();
    expect((await list('offset=8')).body).toEqual([]);
    // Pages keep the filters and the order.
    const pending = await list('status=pending&sort=date_asc&limit=2&offset=2');
    expect(titles(pending.body)).toEqual(['A tomorrow', 'B tomorrow']);
    expect(pending.headers.get('link')).toBe(`</api/tournaments?game=${narrowGame}&status=pending&sort=date_asc&limit=2&offset=4>; rel="next"`);
  });

  it('sorts titles in Ukrainian alphabetical order, ties newest first', async () => {
    const game = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Абетка' } })).body.game._id;
    for (const [title, hours] of [['Яблуко', 1], ['ігри', 2], ['Ґанок', 3], ['Zed', 4], ['абетка', 5], ['Єдність', 6], ['Гора', 7], ['Їжак', 8], ['Ігри', 9]] as const) {
      await createTournament({ game, title, date: at(hours) });
    }
    const sorted = async (sort: string) => titles((await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${game}&sort=${sort}`)).body);
    // Latin before Cyrillic; Ґ after Г, Є after Е, І and Ї after И, case aside (the newer «Ігри» first).
    const alphabet = ['Zed', 'абетка', 'Гора', 'Ґанок', 'Єдність', 'Ігри', 'ігри', 'Їжак', 'Яблуко'];
    expect(await sorted('title_asc')).toEqual(alphabet);
    expect(await sorted('title_desc')).toEqual(['Яблуко', 'Їжак', 'Ігри', 'ігри', 'Єдність', 'Ґанок', 'Гора', 'абетка', 'Zed']);
  });

  it('answers at most 100 without a limit, and says where the rest is', async () => {
    const game = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name: 'Crowded' } })).body.game._id;
    await api.db.insert(tournaments).values(
      // Written directly for cost (101 through the API would take seconds); long past, so they stay behind every other list of this file.
      Array.from({ length: 101 }, (_, i) => ({ gameId: game, title: `Crowd ${i}`, date: new Date(Date.UTC(2000, 0, 1) + i * HOUR) })),
    );
    const res = await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${game}`);
    expect(res.body).toHaveLength(100);
    expect(res.headers.get('link')).toBe(`</api/tournaments?game=${game}&offset=100>; rel="next"`);
    const rest = await api.call<TournamentBody[]>('GET', `/api/tournaments?game=${game}&offset=100`);
    expect(titles(rest.body)).toEqual(['Crowd 0']);
  });

  it('answers 400 with a Ukrainian message for a bad status, date, sort, limit or offset', async () => {
    const bad = ['status=paused', 'from=tomorrow', 'from=2030-13-45', 'sort=up', 'sort=date', 'limit=0', 'limit=101', 'limit=1.5', 'limit=lots', 'limit='];
    for (const query of [...bad, 'offset=-1', 'offset=1.5', 'offset=lots', 'offset=100001']) {
      const res = await api.call('GET', `/api/tournaments?game=${narrowGame}&${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.message, query).toMatch(/[А-ЯІЇЄҐа-яіїєґ]/);
    }
    expect((await api.call('GET', '/api/tournaments?status=paused')).body.message).toBe('Невідомий статус турніру');
    expect((await api.call('GET', '/api/tournaments?from=tomorrow')).body.message).toBe('Некоректна дата: потрібна дата на кшталт 2026-11-24, рік від 1900 до 9999');
  });

  it('keeps the contract without them: tournaments of every game, newest first, list fields only', async () => {
    const res = await api.call<TournamentBody[]>('GET', '/api/tournaments');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(8);
    expect(new Set(res.body.map((t) => t.game))).toContain(otherGameId);
    const dates = res.body.map((t) => Date.parse(t.date));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    for (const t of res.body) {
      expect(Object.keys(t).sort()).toEqual(
        [
          ...['_id', 'date', 'description', 'game', 'gameName', 'image', 'imageUrl', 'name', 'soloOnly', 'status', 'title', 'winner'],
          // Registration and check-in (issue 22): small settings the admin's edit form reads from the list.
          ...['maxParticipants', 'registrationOpensAt', 'registrationClosesAt', 'checkInEnabled', 'checkInOpensAt', 'checkInClosesAt', 'confirmationMinutes'],
          // The organisation hosting it (issue 56), null for the site's own.
          'organisation',
          // Its own time zone (issue 57), null for each reader's.
          'timeZone',
          // Its own map pool and who starts a match's veto, its check-in per match and who sets the lobby details (issue 58).
          'maps',
          'vetoStarter',
          'matchCheckInMinutes',
          'lobbyHost',
          // Whether applicants need a linked Steam account (issue 60).
          'requireSteam',
        ].sort(),
      );
    }
  });
});

describe('one tournament', () => {
  let tournament: TournamentBody;
  let captain: { token: string; id: string };
  let teamId: string;
  let stranger: { token: string; id: string };

  beforeAll(async () => {
    tournament = await createTournament({ title: 'Visibility Cup' });
    const c = await api.signedIn('user');
    captain = { token: c.token, id: c.user.id };
    const s = await api.signedIn('user');
    stranger = { token: s.token, id: s.user.id };
    const seen = await team(api, captain.id, 5, { name: 'Seen Team' });
    teamId = seen.id;
    const [approvedCaptain, rejectedCaptain] = await accounts(api, 2);
    await application(api, tournament._id, 'pending', seen);
    await application(api, tournament._id, 'approved', await team(api, approvedCaptain!, 6, { name: 'Approved Team' }));
    await application(api, tournament._id, 'rejected', await team(api, rejectedCaptain!, 5, { name: 'Rejected Team' }), 'private reason');
  });

  it('shows guests the approved participants only, with team logo, captain and members without emails', async () => {
    const res = await api.call<TournamentBody>('GET', `/api/tournaments/${tournament._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ _id: tournament._id, title: 'Visibility Cup', name: 'Visibility Cup', soloOnly: false, status: 'pending', winner: null, bracket: [] });
    expect(res.body.applications!.map((a) => a.team?.name)).toEqual(['Approved Team']);
    const team = res.body.applications![0]!.team!;
    expect(team).toMatchObject({ logoUrl: null, captain: expect.any(String) });
    expect(team.members).toHaveLength(6);
    expect(JSON.stringify(res.body)).not.toContain('@example.test');
    expect(JSON.stringify(res.body)).not.toContain('private reason');
    expect(res.headers.get('cache-control')).toContain('public');
  });

  it('shows a player their own team’s application too, and an admin every application', async () => {
    const mine = await api.call<TournamentBody>('GET', `/api/tournaments/${tournament._id}`, { token: captain.token });
    expect(mine.body.applications!.map((a) => `${a.team?.name}:${a.status}`).sort()).toEqual(['Approved Team:approved', 'Seen Team:pending']);
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    const other = await api.call<TournamentBody>('GET', `/api/tournaments/${tournament._id}`, { token: stranger.token });
    expect(other.body.applications).toHaveLength(1);
    const all = await api.call<TournamentBody>('GET', `/api/tournaments/${tournament._id}`, { token: admin });
    expect(all.body.applications!.map((a) => a.status).sort()).toEqual(['approved', 'pending', 'rejected']);
  });

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    const missing = await api.call('GET', `/api/tournaments/${MISSING}`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Турнір не знайдено');
    const bad = await api.call('GET', '/api/tournaments/42');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Некоректний ідентифікатор');
  });

  it('tells a signed-in player whether they can apply (guests get 401)', async () => {
    expect((await api.call('GET', `/api/tournaments/${tournament._id}/eligibility`)).status).toBe(401);
    const capt = await api.call('GET', `/api/tournaments/${tournament._id}/eligibility`, { token: captain.token });
    expect(capt.status).toBe(200);
    expect(capt.body).toEqual({
      refusal: 'alreadyApplied',
      application: { _id: expect.any(String), status: 'pending', checkedInAt: null, position: null, mine: true },
      team: { _id: teamId, name: 'Seen Team', members: 5, isCaptain: true },
    });
    const lone = await api.call('GET', `/api/tournaments/${tournament._id}/eligibility`, { token: stranger.token });
    expect(lone.body).toEqual({ refusal: 'noTeam', application: null, team: null });
    expect((await api.call('GET', `/api/tournaments/${MISSING}/eligibility`, { token: stranger.token })).status).toBe(404);
  });
});

describe('editing and deleting tournaments', () => {
  it('saves the edit form (admin only); omitted fields stay, status spellings are normalised', async () => {
    const t = await createTournament({ title: 'Before', description: 'Keep me', image: '/a.png', soloOnly: true });
    const body = { title: 'After', date: '2030-06-01T16:00:00Z', game: otherGameId, status: 'done' };
    expect((await api.call('PUT', `/api/tournaments/${t._id}`, { body })).status).toBe(401);
    expect((await api.call('PUT', `/api/tournaments/${t._id}`, { token: player.token, body })).status).toBe(403);
    const res = await api.call<{ message: string; tournament: TournamentBody }>('PUT', `/api/tournaments/${t._id}`, { token: admin, body });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Турнір оновлено!');
    expect(res.body.tournament).toMatchObject({
      title: 'After',
      game: otherGameId,
      gameName: 'Dota 2',
      status: 'finished',
      description: 'Keep me',
      image: '/a.png',
      soloOnly: true,
      date: '2030-06-01T16:00:00.000Z',
    });
    const cleared = await api.call<{ tournament: TournamentBody }>('PUT', `/api/tournaments/${t._id}`, {
      token: admin,
      body: { ...body, image: null, description: '', soloOnly: false },
    });
    expect(cleared.body.tournament).toMatchObject({ image: null, description: '', soloOnly: false });
  });

  it('refuses an edit without title, date or game, for an unknown tournament or game', async () => {
    const t = await createTournament({});
    expect((await api.call('PUT', `/api/tournaments/${t._id}`, { token: admin, body: { title: 'Only title' } })).status).toBe(400);
    const body = { title: 'X', date: '2030-01-01', game: gameId };
    expect((await api.call('PUT', `/api/tournaments/${MISSING}`, { token: admin, body })).status).toBe(404);
    const noGame = await api.call('PUT', `/api/tournaments/${t._id}`, { token: admin, body: { ...body, game: MISSING } });
    expect(noGame.status).toBe(404);
    expect(noGame.body.message).toBe('Гру не знайдено');
    expect((await api.call('PUT', '/api/tournaments/abc', { token: admin, body })).status).toBe(400);
  });

  it('does not switch between solo and team while applications exist', async () => {
    const t = await createTournament({ soloOnly: true });
    await api.call('POST', '/api/applications', { token: player.token, body: { tournament: t._id } });
    const res = await api.call('PUT', `/api/tournaments/${t._id}`, {
      token: admin,
      body: { title: t.title, date: t.date, game: gameId, soloOnly: false },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Тип турніру (соло чи командний) не можна змінити, поки є заявки');
    const same = await api.call('PUT', `/api/tournaments/${t._id}`, { token: admin, body: { title: 'Renamed', date: t.date, game: gameId, soloOnly: true } });
    expect(same.status).toBe(200);
  });

  it('deletes a tournament with its applications (admin only)', async () => {
    const t = await createTournament({ soloOnly: true });
    await api.call('POST', '/api/applications', { token: player.token, body: { tournament: t._id } });
    expect((await api.call('DELETE', `/api/tournaments/${t._id}`)).status).toBe(401);
    expect((await api.call('DELETE', `/api/tournaments/${t._id}`, { token: player.token })).status).toBe(403);
    const res = await api.call('DELETE', `/api/tournaments/${t._id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Турнір видалено!');
    expect((await api.call('GET', `/api/tournaments/${t._id}`)).status).toBe(404);
    expect(await api.db.select().from(applications).where(eq(applications.tournamentId, t._id))).toEqual([]);
    expect((await api.call('DELETE', `/api/tournaments/${t._id}`, { token: admin })).status).toBe(404);
    expect((await api.call('DELETE', '/api/tournaments/xyz', { token: admin })).status).toBe(400);
  });
});

describe('choosing the winner', () => {
  /** A solo tournament of one approved player and one pending, then given `status`. */
  async function soloWithParticipants(status: 'pending' | 'started' | 'finished' = 'finished') {
    const winner = await newPlayer(api);
    const t = await cup({ soloOnly: true, approved: [winner] });
    const pending = (await application(api, t.id)).entrant;
    await tournamentStatus(api, t, status);
    return { t, approved: winner.user.id, approvedName: winner.user.username, pending };
  }

  it('is for admins only', async () => {
    const { t, approved } = await soloWithParticipants();
    const body = { winnerType: 'user', winnerId: approved };
    expect((await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { body })).status).toBe(401);
    expect((await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: player.token, body })).status).toBe(403);
  });

  it('saves an approved player of a finished solo tournament once, and congratulates them', async () => {
    const { t, approved, approvedName } = await soloWithParticipants();
    const res = await api.call<{ message: string; tournament: TournamentBody }>('PATCH', `/api/tournaments/${t.id}/winner`, {
      token: admin,
      body: { winnerType: 'user', winnerId: approved },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Переможця збережено!');
    expect(res.body.tournament.winner).toMatchObject({ type: 'user', id: approved, name: approvedName });
    // The newest note, after the one that approved the application.
    const notes = await api.db.select().from(notifications).where(eq(notifications.userId, approved)).orderBy(notifications.date);
    expect(notes.at(-1)?.text).toBe(`Вітаємо! Ви перемогли у турнірі «${t.title}».`);

    const again = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: approved } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Переможця вже обрано');
    const detail = await api.call<TournamentBody>('GET', `/api/tournaments/${t.id}`);
    expect(detail.body.winner?.id).toBe(approved);
  });

  it('refuses a tournament that is not finished', async () => {
    for (const status of ['pending', 'started'] as const) {
      const t = await cup({ soloOnly: true, status, approved: 1 });
      const u = t.approved[0];
      const res = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: u } });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Переможця можна обрати лише для завершеного турніру');
    }
  });

  it('finishes a started tournament and saves its winner in one call with `finish`, under the same rules', async () => {
    const { t, approved, pending } = await soloWithParticipants('started');
    // winnerRefusal still applies: a pending applicant is refused, and the tournament stays started.
    const refused = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: pending, finish: true } });
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe('Переможцем може бути лише підтверджений учасник турніру');
    expect((await api.call<TournamentBody>('GET', `/api/tournaments/${t.id}`)).body).toMatchObject({ status: 'started', winner: null });

    const res = await api.call<{ message: string; tournament: TournamentBody }>('PATCH', `/api/tournaments/${t.id}/winner`, {
      token: admin,
      body: { winnerType: 'user', winnerId: approved, finish: true },
    });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Переможця збережено, турнір завершено!');
    expect(res.body.tournament).toMatchObject({ status: 'finished', winner: { type: 'user', id: approved } });
    const again = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: approved, finish: true } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Переможця вже обрано');
  });

  it('does not finish a tournament that has not started, even with `finish`', async () => {
    const t = await cup({ soloOnly: true, approved: 1 });
    const u = t.approved[0];
    const res = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: u, finish: true } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Турнір ще не розпочато: оголосити переможця можна лише після гри');
    expect((await api.call<TournamentBody>('GET', `/api/tournaments/${t.id}`)).body).toMatchObject({ status: 'pending', winner: null });
    const bad = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: u, finish: 'yes' } });
    expect(bad.status).toBe(400);
  });

  it('refuses pending applicants, strangers, the wrong type, and tournaments without participants', async () => {
    const { t, pending } = await soloWithParticipants();
    const notApproved = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: pending } });
    expect(notApproved.status).toBe(422);
    expect(notApproved.body.message).toBe('Переможцем може бути лише підтверджений учасник турніру');
    const stranger = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: MISSING } });
    expect(stranger.status).toBe(422);
    const wrongType = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'team', winnerId: pending } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.message).toMatch(/Тип переможця не відповідає турніру/);

    const empty = await createTournament({ soloOnly: true, status: 'finished' });
    const none = await api.call('PATCH', `/api/tournaments/${empty._id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: pending } });
    expect(none.status).toBe(409);
    expect(none.body.message).toBe('Немає підтверджених учасників: спершу схваліть заявки');
  });

  it('saves an approved team of a finished team tournament and congratulates every member', async () => {
    const [captainId] = await accounts(api, 1);
    const champions = await team(api, captainId!, 5, { name: 'Champions' });
    const t = await cup({ status: 'finished', approved: [champions] });
    const teamId = champions.id;
    const asUser = await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: captainId } });
    expect(asUser.status).toBe(422);
    const res = await api.call<{ tournament: TournamentBody }>('PATCH', `/api/tournaments/${t.id}/winner`, {
      token: admin,
      body: { winnerType: 'team', winnerId: teamId },
    });
    expect(res.status).toBe(200);
    expect(res.body.tournament.winner).toEqual({ type: 'team', id: teamId, name: 'Champions' });
    const members = await api.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId));
    for (const m of members) {
      const notes = await api.db.select().from(notifications).where(eq(notifications.userId, m.userId));
      expect(notes.map((n) => n.text)).toContain(`Вітаємо! Команда «Champions» перемогла у турнірі «${t.title}».`);
    }
  });

  it('validates the body and the ids', async () => {
    const { t, approved } = await soloWithParticipants();
    expect((await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'player', winnerId: approved } })).status).toBe(400);
    expect((await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user', winnerId: 'me' } })).status).toBe(400);
    expect((await api.call('PATCH', `/api/tournaments/${t.id}/winner`, { token: admin, body: { winnerType: 'user' } })).status).toBe(400);
    expect((await api.call('PATCH', `/api/tournaments/${MISSING}/winner`, { token: admin, body: { winnerType: 'user', winnerId: approved } })).status).toBe(404);
    expect((await api.call('PATCH', '/api/tournaments/1/winner', { token: admin, body: { winnerType: 'user', winnerId: approved } })).status).toBe(400);
  });
});
