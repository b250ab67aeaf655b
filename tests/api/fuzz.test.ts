import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { game, useTestApi } from '../support/builders.ts';
import { hostileParam, hostileString, hostileValue, rowsIn, tableCounts } from '../support/hostile.ts';

// Hostile input on every route of the OpenAPI document: nothing answers 5xx, every refusal is
// JSON `{ message }`, and a refused request leaves the database as it was.

const api = useTestApi();
let adminToken: string;
let userToken: string;
let routes: { method: string; path: string }[];

const rowsOf = <T>(query: ReturnType<typeof sql.raw>) => rowsIn<T>(api, query);
const snapshot = () => tableCounts(api);

beforeAll(async () => {
  adminToken = (await api.signedIn('admin')).token;
  userToken = (await api.signedIn()).token;
  const doc = await api.call<{ paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
  routes = Object.entries(doc.body.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })));
});

describe('hostile input on every route', () => {
  it('never answers 5xx, always explains a refusal in JSON, and changes nothing when it refuses', async () => {
    expect(routes.length).toBeGreaterThan(50);
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: routes.length - 1 }),
        fc.constantFrom(adminToken, userToken, undefined),
        fc.array(hostileParam, { minLength: 3, maxLength: 3 }),
        // A JSON value of any shape, or text that is not JSON at all.
        fc.oneof(hostileValue.map((json) => ({ json })), fc.string({ maxLength: 30 }).map((raw) => ({ raw }))),
        async (index, token, params, body) => {
          const route = routes[index]!;
          let i = 0;
          const path = route.path.replace(/\{\w+\}/g, () => encodeURIComponent(String(params[i++] ?? 'x')));
          const options = route.method === 'GET' ? { token } : 'raw' in body ? { token, raw: body.raw } : { token, body: body.json };
          const before = route.method === 'GET' ? '' : await snapshot();
          const res = await api.call(route.method, path, options);
          expect(res.status, `${route.method} ${path}`).toBeLessThan(500);
          if (res.status >= 400 && res.status !== 404) {
            expect(res.headers.get('content-type')).toMatch(/application\/json/);
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          }
          // A refused change leaves every table as it was. (Some routes need no input, e.g. setting
          // up the popular games, and may rightly succeed.)
          if (route.method !== 'GET' && res.status >= 400) expect(await snapshot(), `${route.method} ${path}`).toBe(before);
        },
      ),
      { numRuns: 600 },
    );
  });
});

describe('hostile input on a match the caller plays (issue 22)', () => {
  it('report, confirm, dispute, call (issue 57), veto, chat, check-in and lobby details (issue 58) by its sides or its organiser never answer 5xx and change nothing when they refuse', async () => {
    const [a, b] = [await api.signedIn(), await api.signedIn()];
    // An organiser of its own: the hostile requests above may have signed the shared admin out.
    const organiser = (await api.signedIn('admin')).token;
    const gameId = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: organiser, body: { name: `Fuzz ${Date.now()}` } })).body.game._id;
    // A map pool and a stage with a veto (issue 58), so the veto's moves meet its rules, not a 404.
    await api.call('PUT', `/api/games/${gameId}/maps`, { token: organiser, body: { maps: ['Ancient', 'Anubis', 'Dust II', 'Inferno', 'Mirage', 'Nuke', 'Overpass'], sides: ['CT', 'T'] } });
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: organiser,
      // A check-in to each match (issue 58): the sides' check-ins meet its rules too.
      body: { title: `Fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true, matchCheckInMinutes: 60 },
    });
    const tournamentId = cup.body.tournament._id;
    for (const p of [a, b]) {
      const applied = await api.call<{ application: { _id: string } }>('POST', '/api/applications', { token: p.token, body: { tournament: tournamentId } });
      await api.call('PATCH', `/api/applications/${applied.body.application._id}/status`, { token: organiser, body: { status: 'approved' } });
    }
    const made = await api.call<{ stage: { matches: { _id: string }[] } }>('POST', `/api/tournaments/${tournamentId}/stages`, {
      token: organiser,
      body: { format: 'single_elimination', settings: { veto: {} } },
    });
    const matchId = made.body.stage.matches[0]!._id;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ...(['report', 'confirm', 'dispute', 'call', 'veto', 'chat', 'check-in'] as const).map((action) => ['POST', action] as const),
          ['PUT', 'lobby'] as const,
        ),
        fc.constantFrom(a.token, b.token, organiser),
        fc.oneof(hostileValue.map((json) => ({ json })), fc.string({ maxLength: 30 }).map((raw) => ({ raw }))),
        async ([method, action], token, body) => {
          const before = await snapshot();
          const res = await api.call(method, `/api/matches/${matchId}/${action}`, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${action} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await snapshot()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('hostile games of a free-for-all lobby (issue 59)', () => {
  it('by its players or its organiser never answer 5xx and change nothing when they refuse', async () => {
    const players = [await api.signedIn(), await api.signedIn(), await api.signedIn()];
    const organiser = (await api.signedIn('admin')).token;
    const gameId = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: organiser, body: { name: `Fuzz lobby ${Date.now()}` } })).body.game._id;
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: organiser,
      body: { title: `Fuzz lobby cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const tournamentId = cup.body.tournament._id;
    for (const p of players) {
      const applied = await api.call<{ application: { _id: string } }>('POST', '/api/applications', { token: p.token, body: { tournament: tournamentId } });
      await api.call('PATCH', `/api/applications/${applied.body.application._id}/status`, { token: organiser, body: { status: 'approved' } });
    }
    const made = await api.call<{ stage: { lobbies: { _id: string; members: string[] }[] } }>('POST', `/api/tournaments/${tournamentId}/stages`, {
      token: organiser,
      body: { format: 'free_for_all', settings: { lobbySize: 3, games: 3 } },
    });
    const lobby = made.body.stage.lobbies[0]!;
    // Hostile lines next to ones that nearly fit: real members with wrong places, kills or extra keys.
    const nearLine = fc.record({
      participant: fc.oneof(fc.constantFrom(...lobby.members), fc.uuid(), hostileString),
      placement: fc.oneof(fc.integer({ min: -1, max: 5 }), hostileValue),
      kills: fc.oneof(fc.integer({ min: -1, max: 120 }), hostileValue),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...players.map((p) => p.token), organiser),
        fc.oneof(fc.integer({ min: 0, max: 4 }).map(String), hostileParam),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.array(nearLine, { maxLength: 4 }).map((lines) => ({ json: { lines } as unknown })),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (token, n, body) => {
          const before = await snapshot();
          const path = `/api/matches/${lobby._id}/games/${encodeURIComponent(n)}`;
          const res = await api.call('PUT', path, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${n} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await snapshot()).toBe(before);
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('hostile reads of a free-for-all lobby and its card (issue 59)', () => {
  it('never answer 5xx and explain every refusal in JSON', async () => {
    const token = (await api.signedIn()).token;
    await fc.assert(
      fc.asyncProperty(hostileParam, fc.constantFrom(adminToken, token, undefined), async (id, caller) => {
        const read = await api.call('GET', `/api/lobbies/${encodeURIComponent(id)}`, { token: caller });
        expect(read.status, id).toBeLessThan(500);
        expect([400, 404], id).toContain(read.status);
        expect(typeof (read.body as { message?: unknown }).message).toBe('string');
        const picture = await api.call('GET', `/api/og/match/${encodeURIComponent(id)}.png`, { token: caller });
        expect(picture.status, id).toBeLessThan(500);
        expect([400, 404], id).toContain(picture.status);
      }),
      { numRuns: 60 },
    );
  });
});

describe('hostile uploads of evidence to a match the caller plays (issue 58)', () => {
  it('never answer 5xx, always explain a refusal, and store nothing of a refused upload', async () => {
    const [a, b] = [await api.signedIn(), await api.signedIn()];
    const organiser = (await api.signedIn('admin')).token;
    const created = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: organiser, body: { name: `Fuzz evidence ${Date.now()}` } });
    const gameId = created.body.game._id;
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: organiser,
      body: { title: `Fuzz evidence cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const tournamentId = cup.body.tournament._id;
    for (const p of [a, b]) {
      const applied = await api.call<{ application: { _id: string } }>('POST', '/api/applications', { token: p.token, body: { tournament: tournamentId } });
      await api.call('PATCH', `/api/applications/${applied.body.application._id}/status`, { token: organiser, body: { status: 'approved' } });
    }
    const made = await api.call<{ stage: { matches: { _id: string }[] } }>('POST', `/api/tournaments/${tournamentId}/stages`, {
      token: organiser,
      body: { format: 'single_elimination' },
    });
    const matchId = made.body.stage.matches[0]!._id;
    // Bytes that start like a picture (PNG, JPEG, GIF, WebP signatures) and go on as anything.
    const signature = fc.constantFrom(
      [],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      [0xff, 0xd8, 0xff, 0xe0],
      [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
      [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
    );
    const part = fc.oneof(
      fc.record({
        bytes: fc.tuple(signature, fc.uint8Array({ maxLength: 200 })).map(([head, tail]) => new Uint8Array([...head, ...tail])),
        name: hostileString,
        type: fc.constantFrom('image/png', 'image/jpeg', 'text/plain', '', 'application/octet-stream'),
      }),
      hostileString.map((text) => ({ text })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(a.token, b.token),
        fc.array(fc.tuple(fc.constantFrom('files', 'files[]', 'file', '__proto__'), part), { maxLength: 6 }),
        async (token, parts) => {
          const form = new FormData();
          for (const [field, value] of parts) {
            if ('text' in value) form.append(field, value.text);
            else form.append(field, new Blob([value.bytes], { type: value.type }), value.name || 'x');
          }
          const before = await snapshot();
          const res = await api.call('POST', `/api/matches/${matchId}/evidence`, { token, body: form });
          expect(res.status, JSON.stringify(parts.map(([field]) => field))).toBeLessThan(500);
          expect(res.status).not.toBe(201);
          expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          expect(await snapshot()).toBe(before);
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('broken forms on every route that takes one', () => {
  it('are refused with 400 and a Ukrainian message, changing nothing', async () => {
    const doc = await api.call<{ paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> }>('GET', '/api/openapi.json');
    const forms = Object.entries(doc.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.requestBody?.content?.['multipart/form-data'])
        .map(([method]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, crypto.randomUUID()) })),
    );
    expect(forms.length).toBeGreaterThan(0);
    for (const { method, path } of forms) {
      for (const raw of ['--xyz\r\nbroken', '', '--xyz--', 'not a form at all\u0000']) {
        const before = await snapshot();
        const res = await api.call<{ message: string }>(method, path, { token: userToken, raw, headers: { 'content-type': 'multipart/form-data; boundary=xyz' } });
        expect(res.status, `${method} ${path} ${JSON.stringify(raw)}`).toBeGreaterThanOrEqual(400);
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
        expect(res.body.message, `${method} ${path} ${JSON.stringify(raw)}`).toMatch(/[а-яіїєґ]/i);
        expect(await snapshot()).toBe(before);
      }
    }
  });
});

describe('hostile input on my notice settings and language (issue 22)', () => {
  it('never answer 5xx, and a refusal keeps the settings and language as they were', async () => {
    const me = await api.signedIn();
    const mine = async () => JSON.stringify(await rowsOf(sql`select locale, notice_settings from users where id = ${me.user.id}`));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('notice-settings', 'locale'),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.record({ bell: fc.array(fc.oneof(hostileString, fc.constantFrom('matchReady', 'tournamentFinished')), { maxLength: 4 }) }).map((json) => ({ json })),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (path, body) => {
          const before = await mine();
          const res = await api.call('PUT', `/api/users/me/${path}`, 'raw' in body ? { token: me.token, raw: body.raw } : { token: me.token, body: body.json });
          expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await mine()).toBe(before);
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('hostile input on check-in, by the participant and the admin (issues 22, 57)', () => {
  it('never answer 5xx, and a refusal leaves the applications and the window as they were', async () => {
    const admin = await api.signedIn('admin');
    const me = await api.signedIn();
    const gameId = await game(api, `Fuzz check-in ${Date.now()}`);
    const hour = 3_600_000;
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: admin.token,
      body: {
        title: 'Fuzz check-in',
        date: new Date(Date.now() + 2 * hour).toISOString(),
        game: gameId,
        soloOnly: true,
        maxParticipants: 2,
        checkInEnabled: true,
        checkInOpensAt: new Date(Date.now() - hour).toISOString(),
        checkInClosesAt: new Date(Date.now() + hour).toISOString(),
      },
    });
    const id = cup.body.tournament._id;
    await api.call('POST', '/api/applications', { token: me.token, body: { tournament: id } });
    const state = async () =>
      JSON.stringify([
        await rowsOf(sql`select id, status, checked_in_at from applications where tournament_id = ${id} order by id`),
        await rowsOf(sql`select check_in_closes_at from tournaments where id = ${id}`),
      ]);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'DELETE', 'PATCH'),
        fc.constantFrom(me.token, admin.token),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.record({ applicationId: fc.oneof(fc.uuid(), hostileString) }).map((json) => ({ json })),
          fc
            .record({
              closesAt: fc.oneof(
                hostileString,
                fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
              ),
            })
            .map((json) => ({ json })),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (method, token, body) => {
          const before = await state();
          const res = await api.call(method, `/api/tournaments/${id}/check-in`, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${method} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});

describe('hostile input on the live event streams (issue 22)', () => {
  it('never answer 5xx, refuse in JSON, and leave no stream counted after the caller leaves', async () => {
    // Its own admin: the fuzz above may have signed the shared one out.
    const boss = (await api.signedIn('admin')).token;
    const gameId = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: boss, body: { name: `Live fuzz ${Date.now()}` } })).body.game._id;
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: boss,
      body: { title: `Live fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const known = cup.body.tournament._id;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.constant(known), hostileParam),
        fc.oneof(fc.constant(''), hostileString.map((q) => `?${encodeURIComponent(q)}=${encodeURIComponent(q)}`)),
        fc.constantFrom(adminToken, userToken, undefined, 'not-a-token'),
        async (id, query, token) => {
          for (const path of [`/api/tournaments/${encodeURIComponent(id)}/events${query}`, `/api/users/me/events${query}`]) {
            // One address for every run: a stream left counted would soon turn the next ones into 429s.
            const res = await api.call('GET', path, { token, ip: '203.0.113.77' });
            expect(res.status, path).toBeLessThan(500);
            expect(res.status, path).not.toBe(429);
            if (res.status >= 400 && res.status !== 404) expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('hostile input on naming a co-organiser (issue 23)', () => {
  it('never answers 5xx, refuses in JSON, and a refusal adds no staff, audit row or notice', async () => {
    // Its own admin: the fuzz above may have signed the shared one out.
    const boss = (await api.signedIn('admin')).token;
    const gameId = await game(api, `Staff fuzz ${Date.now()}`);
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: boss,
      body: { title: `Staff fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const id = cup.body.tournament._id;
    const state = async () =>
      JSON.stringify(
        await rowsOf(sql`select (select count(*) from tournament_staff) as staff, (select count(*) from audit_log) as audit, (select count(*) from notifications) as notices`),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(boss, userToken),
        fc.oneof(fc.constant(id), hostileParam),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.record({ user: fc.oneof(hostileValue, hostileString, fc.uuid()) }).map((json) => ({ json })),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (token, tournamentId, body) => {
          const before = await state();
          const path = `/api/tournaments/${encodeURIComponent(tournamentId)}/staff`;
          const res = await api.call('POST', path, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});

describe('hostile input on venue networks (issue 57)', () => {
  it('asking, deciding and withdrawing never answer 5xx, refuse in JSON, and a refusal stores no request, audit row or notice', async () => {
    // Its own admin: the fuzz above may have signed the shared one out.
    const boss = (await api.signedIn('admin')).token;
    const gameId = await game(api, `Venue fuzz ${Date.now()}`);
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: boss,
      body: { title: `Venue fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const id = cup.body.tournament._id;
    const state = async () =>
      JSON.stringify(
        await rowsOf(sql`select (select count(*) from venue_networks) as venues, (select count(*) from audit_log) as audit, (select count(*) from notifications) as notices`),
      );
    const entry = fc.oneof(
      hostileString,
      fc.constantFrom('192.0.2.0/24', '10.0.0.0/7', '127.0.0.1', '::1', '::ffff:127.0.0.1', '2001:db8::/31', '0.0.0.0/0', 'loopback', '192.0.2.0/033', '1.2.3.4/-1', '1.2.3.4/'),
      fc.ipV4(),
      fc.ipV6(),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST', 'DELETE', 'PATCH'),
        fc.constantFrom(boss, userToken),
        fc.oneof(fc.constant(id), hostileParam),
        fc.oneof(
          hostileValue.map((json) => ({ json })),
          fc.record({ networks: fc.oneof(fc.array(entry, { maxLength: 6 }), hostileValue), note: fc.oneof(hostileString, hostileValue) }).map((json) => ({ json })),
          fc.record({ status: fc.oneof(fc.constantFrom('approved', 'refused', 'pending', 'withdrawn'), hostileValue) }).map((json) => ({ json })),
          fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
        ),
        async (method, token, target, body) => {
          const before = await state();
          const path = method === 'PATCH' ? `/api/venue-networks/${encodeURIComponent(target)}` : `/api/tournaments/${encodeURIComponent(target)}/venue-network`;
          const res = await api.call(method, path, 'raw' in body ? { token, raw: body.raw } : { token, body: body.json });
          expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('hostile query parameters on the audit log (issue 23)', () => {
  it('the history and the admin’s log never answer 5xx, and explain every refusal in JSON', async () => {
    // Its own admin: the fuzz above may have signed the shared one out.
    const boss = (await api.signedIn('admin')).token;
    const gameId = await game(api, `Audit fuzz ${Date.now()}`);
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: boss,
      body: { title: `Audit fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true },
    });
    const known = cup.body.tournament._id;
    const [entry] = await rowsOf<{ id: string }>(sql`select id from audit_log limit 1`);
    const keys = fc.constantFrom('limit', 'before', 'tournament', 'kind', 'actor', 'from', 'to', 'offset', '__proto__');
    const value = fc.oneof(
      hostileString,
      fc.uuid(),
      fc.integer({ min: -5, max: 500 }).map(String),
      fc.constantFrom('resultEntered', 'staffAdded', '2030-05-01T16:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z', entry?.id ?? ''),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(`/api/tournaments/${known}/history`, '/api/audit'),
        fc.array(fc.tuple(keys, value), { maxLength: 5 }),
        fc.constantFrom(boss, userToken, undefined),
        async (path, pairs, token) => {
          const query = new URLSearchParams(pairs).toString();
          const res = await api.call('GET', `${path}${query ? `?${query}` : ''}`, { token });
          expect(res.status, `${path}?${query}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(res.headers.get('content-type')).toMatch(/application\/json/);
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          } else expect(Array.isArray(res.body)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('hostile input on seasons (issue 59)', () => {
  it('making, changing and joining never answer 5xx, refuse in JSON, and a refusal leaves seasons and tournaments as they were', async () => {
    // Its own admin and organisation: the fuzz above may have signed the shared admin out.
    const boss = (await api.signedIn('admin')).token;
    const owner = await api.signedIn();
    const made = await api.call<{ organisation: { _id: string } }>('POST', '/api/organisations', { token: owner.token, body: { name: `Fuzz league ${Date.now()}` } });
    const organisation = made.body.organisation._id;
    const gameId = await game(api, `Season fuzz ${Date.now()}`);
    const season = await api.call<{ season: { _id: string } }>('POST', '/api/seasons', {
      token: owner.token,
      body: { name: 'Fuzz season', game: gameId, pointsByPlace: [3, 2, 1], organisation },
    });
    const seasonId = season.body.season._id;
    const cup = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
      token: owner.token,
      body: { title: `Season fuzz cup ${Date.now()}`, date: '2030-05-01T16:00:00Z', game: gameId, soloOnly: true, organisation },
    });
    const cupId = cup.body.tournament._id;
    const state = async () =>
      JSON.stringify(await rowsOf(sql`select (select json_agg(s order by s.id) from seasons s) as seasons, (select json_agg(t.season_id order by t.id) from tournaments t) as joined`));
    const points = fc.oneof(hostileValue, fc.array(fc.oneof(fc.integer({ min: -5, max: 20_000 }), fc.double(), hostileString), { maxLength: 70 }));
    const body = fc.oneof(
      hostileValue.map((json) => ({ json })),
      fc
        .record({
          name: fc.oneof(hostileString, hostileValue),
          game: fc.oneof(fc.constant(gameId), fc.uuid(), hostileString),
          pointsByPlace: points,
          organisation: fc.oneof(fc.constant(organisation), fc.uuid(), hostileString, fc.constant(undefined)),
          soloOnly: fc.oneof(fc.boolean(), fc.constant(null), hostileValue),
        })
        .map((json) => ({ json })),
      fc.string({ maxLength: 30 }).map((raw) => ({ raw })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          ['POST', () => '/api/seasons'] as const,
          ['PUT', (id: string) => `/api/seasons/${id}`] as const,
          ['PUT', (id: string, other: string) => `/api/seasons/${id}/tournaments/${other}`] as const,
          ['DELETE', (id: string, other: string) => `/api/seasons/${id}/tournaments/${other}`] as const,
        ),
        fc.constantFrom(boss, owner.token, userToken),
        fc.oneof(fc.constant(seasonId), hostileParam),
        fc.oneof(fc.constant(cupId), hostileParam),
        body,
        async ([method, pathOf], token, id, other, sent) => {
          const path = pathOf(encodeURIComponent(id), encodeURIComponent(other));
          const before = await state();
          const res = await api.call(method, path, 'raw' in sent ? { token, raw: sent.raw } : { token, body: sent.json });
          expect(res.status, `${method} ${path} ${JSON.stringify(sent).slice(0, 200)}`).toBeLessThan(500);
          if (res.status >= 400) {
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
            expect(await state()).toBe(before);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
