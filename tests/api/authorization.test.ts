import { describe, expect, it } from 'vitest';
import { application, player, stage } from '../support/builders.ts';
import { accountsRows } from './authorization/rows-accounts.ts';
import { matchesRows } from './authorization/rows-matches.ts';
import { teamsOrganisationsRows } from './authorization/rows-teams-and-organisations.ts';
import { tournamentsRows } from './authorization/rows-tournaments.ts';
import { ACTORS, api, ip, ok, people, tokenOf, unique, w, type Expect, type Row } from './authorization/world.ts';

/*
 * The authorization matrix (issue 10): every registered route, called by every kind of caller,
 * with the status each must get. A route without a row fails the last test. The callers and the
 * objects the rows act on are built in authorization/world.ts; the rows, by area, beside it.
 */

/* Rows run in this order, each actor in the order of ACTORS; destructive rows come last. */
const rows: Row[] = [...accountsRows, ...tournamentsRows, ...matchesRows, ...teamsOrganisationsRows];

/** Every signed-in caller but the admin is refused. */
const isAdminOnly = (row: Row) => (['user', 'member', 'captain', 'otherCaptain'] as const).every((a) => row.expect[a] === 403) && row.expect.admin < 500;
/** A tournament's organiser route (decision 016): its staff pass where every other non-admin is refused. */
const isOrganiserRoute = (row: Row) => isAdminOnly(row) && row.expect.staff !== 403;

describe('authorization matrix', () => {
  it('refuses to sign in an unconfirmed account, so it calls the API as a guest', async () => {
    const res = await api.call('POST', '/api/auth/login', { body: { loginOrEmail: w.unconfirmed, password: 'correct-horse-9' } });
    expect(res.status).toBe(403);
    expect(res.body).not.toHaveProperty('token');
  });

  for (const row of rows) {
    it(`${row.route} answers each caller as expected`, async () => {
      const [method] = row.route.split(' ');
      const got = {} as Expect;
      for (const actor of ACTORS) {
        const request = await row.request(actor);
        const token = request.token === null ? undefined : (request.token ?? tokenOf(actor));
        const res = await api.call(method!, request.path, { token, body: request.body, ip: request.ip ?? ip(actor) });
        got[actor] = res.status;
        if (res.status >= 400) expect(res.body, `${actor}: ${row.route}`).toHaveProperty('message');
      }
      expect(got, JSON.stringify(got)).toEqual(row.expect);
    });
  }

  it('checks who may call before it looks at the body: 401 for a guest, 403 for a non-admin (and for staff of another tournament), never 400', async () => {
    const got: Record<string, number[]> = {};
    for (const row of rows) {
      const [method] = row.route.split(' ');
      if (method === 'GET') continue;
      const { path } = await row.request('guest');
      const hostile = path.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'not-a-uuid');
      const statuses: number[] = [];
      if (row.expect.guest === 401) statuses.push((await api.call(method!, hostile, { raw: '{"bad":' })).status);
      if (isAdminOnly(row)) {
        statuses.push((await api.call(method!, hostile, { raw: '{"bad":', token: people.user.token })).status);
        // Staff are no admins, and a path naming no tournament of theirs is refused as one.
        statuses.push((await api.call(method!, hostile, { raw: '{"bad":', token: people.staff.token })).status);
        // On an organiser route, staff of another tournament are refused before the body of a real path is read.
        if (isOrganiserRoute(row)) statuses.push((await api.call(method!, path, { raw: '{"bad":', token: w.elsewhereStaff })).status);
      }
      if (statuses.length) got[row.route] = statuses;
    }
    const wrong = Object.entries(got).filter(([route, statuses]) => {
      const row = rows.find((r) => r.route === route)!;
      const expected = [...(row.expect.guest === 401 ? [401] : []), ...(isAdminOnly(row) ? [403, 403] : []), ...(isOrganiserRoute(row) ? [403] : [])];
      return JSON.stringify(statuses) !== JSON.stringify(expected);
    });
    expect(wrong).toEqual([]);
  });

  it('refuses organisation A’s owner, admin and staff on every route that changes organisation B’s tournament', async () => {
    // Organisation B with a tournament, an application to it and a stage match in it.
    const ownerB = await player(api);
    const orgB = await ok<{ organisation: { _id: string } }>('POST', '/api/organisations', ownerB.token, { name: `Організація Б ${unique()}` });
    /** One of B's solo tournaments, with `extra` fields. */
    const tournamentOfB = async (extra: Record<string, unknown> = {}) =>
      (
        await ok<{ tournament: { _id: string } }>('POST', '/api/tournaments', ownerB.token, {
          title: `Турнір Б ${unique()}`,
          date: '2030-06-01',
          game: w.game,
          soloOnly: true,
          organisation: orgB.organisation._id,
          ...extra,
        })
      ).tournament._id;
    const cupB = await tournamentOfB();
    const applicationB = (await application(api, cupB)).id;
    await application(api, cupB, 'approved');
    await application(api, cupB, 'approved');
    const matchB = (await stage(api, cupB, { format: 'single_elimination' })).matches[0]!._id;
    // A second one of B's with check-in open, for the check-in routes.
    const hour = 3_600_000;
    const checkInB = await tournamentOfB({
      date: new Date(Date.now() + 2 * hour).toISOString(),
      checkInEnabled: true,
      checkInOpensAt: new Date(Date.now() - hour).toISOString(),
      checkInClosesAt: new Date(Date.now() + hour).toISOString(),
    });
    const approvedB = (await application(api, checkInB, 'approved')).id;
    // A third one of B's playing free-for-all lobbies (issue 59), for the lobby's games.
    const lobbyCupB = await tournamentOfB();
    await application(api, lobbyCupB, 'approved');
    await application(api, lobbyCupB, 'approved');
    const lobbyB = (await stage(api, lobbyCupB, { format: 'free_for_all', settings: { lobbySize: 4, games: 1 } })).lobbies[0]!._id;
    /** What the path's `:id` names on each kind of route, in organisation B. */
    const ofB: [RegExp, string][] = [
      [/^\/api\/matches\/:id(?=\/games)/, `/api/matches/${lobbyB}`],
      [/^\/api\/tournaments\/:id(?=\/|$)/, `/api/tournaments/${cupB}`],
      [/^\/api\/applications\/:id(?=\/|$)/, `/api/applications/${applicationB}`],
      [/^\/api\/matches\/:id(?=\/|$)/, `/api/matches/${matchB}`],
    ];
    const got: Record<string, number[]> = {};
    for (const row of rows) {
      const [method, route] = row.route.split(' ') as [string, string];
      const kind = ofB.find(([pattern]) => pattern.test(route));
      if (method === 'GET' || !kind || row.expect.orgOwner !== 403) continue;
      // B's object for `:id`, the row's own path after it (a stage's id, a user's).
      const request = await row.request('orgOwner');
      const tail = request.path.split('/').slice(4).join('/');
      const pathB = route.endsWith('/check-in') ? `/api/tournaments/${checkInB}/check-in` : `${kind[1]}${tail ? `/${tail}` : ''}`;
      // An organiser route refuses before it reads the body; a player's own (check-in, a report, withdrawing) reads whose it is from a real one.
      const body = isAdminOnly(row)
        ? { raw: '{"bad":' }
        : {
            body:
              request.body && typeof request.body === 'object' && 'applicationId' in request.body
                ? { ...request.body, applicationId: approvedB }
                : request.body,
          };
      got[row.route] = [];
      for (const actor of ['orgOwner', 'orgAdmin', 'orgStaff'] as const) {
        got[row.route]!.push((await api.call(method, pathB, { ...body, token: people[actor].token })).status);
      }
    }
    // Every organiser and host route, and the players' own ones on a tournament, a match or an application.
    expect(Object.keys(got).sort()).toEqual(
      rows
        .map((row) => row.route)
        .filter((route) => !route.startsWith('GET') && ofB.some(([pattern]) => pattern.test(route.split(' ')[1]!)))
        .filter((route) => rows.find((row) => row.route === route)!.expect.orgOwner === 403)
        .sort(),
    );
    expect(Object.keys(got).length).toBeGreaterThanOrEqual(22);
    expect(Object.entries(got).filter(([, statuses]) => statuses.some((status) => status !== 403))).toEqual([]);
  });

  it('has a row for every registered route', () => {
    const selfDescribing = new Set(['GET /api/openapi.json', 'GET /api/docs']);
    const registered = api.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
      .filter((r, i, list) => !selfDescribing.has(r) && list.indexOf(r) === i);
    const covered = rows.map((r) => r.route);
    expect(new Set(covered).size).toBe(covered.length);
    expect(registered.filter((r) => !covered.includes(r))).toEqual([]);
    expect(covered.filter((r) => !registered.includes(r))).toEqual([]);
  });
});
