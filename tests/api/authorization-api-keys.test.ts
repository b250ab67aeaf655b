import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiKeyCreated } from '../../src/lib/api/api-keys.ts';
import { application, game, organisationWithPeople, stage, unique, useTestApi, type BuiltOrganisation } from '../support/builders.ts';

/*
 * API keys across organisations (issue 60, decision 045): every registered route, called with a key
 * of organisation A on organisation B's tournament, application, match and organisation, and on
 * everything private that is no tournament's. A key passes only where a guest passes (the public
 * reads), and the routes that take keys are exactly those listed here; on B's objects they too
 * refuse it.
 */

/** The routes a key may call past the public API, with the scope each needs (api/openapi.ts `organiserOrKeyRoute`). */
const TAKES_KEYS: Record<string, 'read' | 'run'> = {
  'GET /api/tournaments/:id/export/:file': 'read',
  'GET /api/tournaments/:id/control': 'read',
  'GET /api/matches/:id/comment': 'read',
  'PATCH /api/applications/:id/status': 'run',
  'PATCH /api/applications/:id': 'run',
  'POST /api/tournaments/:id/stages': 'run',
  'POST /api/tournaments/:id/stages/:stageId/next-round': 'run',
  'POST /api/tournaments/:id/stages/:stageId/schedule': 'run',
  'POST /api/tournaments/:id/disqualify': 'run',
  'PATCH /api/tournaments/:id/check-in': 'run',
  'PATCH /api/matches/:id': 'run',
  'DELETE /api/matches/:id/call': 'run',
};

const NOT_HERE = 'Ключем API цього зробити не можна: він діє лише в публічному API й на турнірах своєї організації';
const OTHER_TOURNAMENT = 'Ключ API діє лише на турнірах своєї організації';
const READ_ONLY = 'Ключ лише для читання: проводити турніри ним не можна';

const api = useTestApi();
let a: BuiltOrganisation;
let b: BuiltOrganisation;
const keys = { read: '', run: '' };
/** Organisation A's and B's objects: a tournament, an application to it, a stage match in it, the stage. */
const objects = { a: {} as Record<string, string>, b: {} as Record<string, string> };

async function objectsOf(org: BuiltOrganisation, gameId: string): Promise<Record<string, string>> {
  const made = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', {
    token: org.owner.token,
    body: { title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, organisation: org.id },
  });
  const tournament = made.body.tournament._id;
  const pending = (await application(api, tournament)).id;
  for (let i = 0; i < 2; i++) await application(api, tournament, 'approved');
  const built = await stage(api, tournament, { format: 'single_elimination' });
  return { tournament, application: pending, match: built.matches[0]!._id, stage: built._id, organisation: org.id };
}

/** The path of a route with its parameters filled from one organisation's objects; any other id is made up. */
function pathOf(route: string, of: Record<string, string>): string {
  const [, path] = route.split(' ') as [string, string];
  const first = path.startsWith('/api/tournaments/:id')
    ? of.tournament
    : path.startsWith('/api/applications/:id')
      ? of.application
      : path.startsWith('/api/matches/:id')
        ? of.match
        : path.startsWith('/api/organisations/:id')
          ? of.organisation
          : randomUUID();
  return path
    .replace(':id', first!)
    .replace(':stageId', of.stage!)
    .replace(':file', 'participants.csv')
    .replace(/:\w+/g, () => randomUUID());
}

const call = (route: string, path: string, token?: string) => {
  const [method] = route.split(' ') as [string];
  return api.call<{ message?: string }>(method, path, { token, ...(method === 'GET' || method === 'HEAD' ? {} : { body: {} }) });
};

let routes: string[] = [];

beforeAll(async () => {
  const gameId = await game(api, unique('Гра '));
  a = await organisationWithPeople(api, 'Ключі А ');
  b = await organisationWithPeople(api, 'Ключі Б ');
  for (const scope of ['read', 'run'] as const) {
    const made = await api.call<ApiKeyCreated>('POST', `/api/organisations/${a.id}/api-keys`, { token: a.owner.token, body: { name: `Матриця ${scope}`, scope } });
    keys[scope] = made.body.secret;
  }
  objects.a = await objectsOf(a, gameId);
  objects.b = await objectsOf(b, gameId);
  const skipped = new Set(['GET /api/openapi.json', 'GET /api/docs']);
  routes = api.app.routes
    .filter((r) => r.method !== 'ALL')
    .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
    .filter((r, i, list) => !skipped.has(r) && list.indexOf(r) === i);
});

describe('a key of organisation A on every route', () => {
  it('is refused on B’s objects and on every private route; only public reads answer it as a guest', async () => {
    const wrong: string[] = [];
    const refusedAsOther: string[] = [];
    for (const route of routes) {
      const path = pathOf(route, objects.b);
      const res = await call(route, path, keys.run);
      if (route in TAKES_KEYS) {
        if (res.status !== 403 || res.body.message !== OTHER_TOURNAMENT) wrong.push(`${route}: ${res.status} ${res.body.message}`);
        else refusedAsOther.push(route);
        continue;
      }
      if (res.status === 401 || res.status === 403) {
        if (res.body.message !== NOT_HERE && res.status === 403) wrong.push(`${route}: ${res.status} ${res.body.message}`);
        continue;
      }
      // Not refused: it must be a read anyone may make, answered as to a guest.
      const guest = await call(route, path);
      if (!route.startsWith('GET ') || guest.status !== res.status) wrong.push(`${route}: key ${res.status}, guest ${guest.status}`);
    }
    expect(wrong).toEqual([]);
    expect(refusedAsOther.sort()).toEqual(Object.keys(TAKES_KEYS).sort());
    // The matrix saw every kind of route: far more than the handful that take keys.
    expect(routes.length).toBeGreaterThan(150);
  });

  it('refuses every write on a route that takes no keys before reading its body', async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => !r.startsWith('GET ') && !(r in TAKES_KEYS))) {
      const [method] = route.split(' ') as [string];
      const res = await api.call<{ message?: string }>(method, pathOf(route, objects.a), { token: keys.run, raw: '{"bad":' });
      if (res.status !== 403 || res.body.message !== NOT_HERE) wrong.push(`${route}: ${res.status} ${res.body.message}`);
    }
    expect(wrong).toEqual([]);
  });

  it('lets a key through the listed routes on its own organisation’s objects, as far as its scope goes', async () => {
    const wrong: string[] = [];
    for (const [route, scope] of Object.entries(TAKES_KEYS)) {
      const path = pathOf(route, objects.a);
      // An empty body: let in, the route judges it (200, 400, 409…), never 401 or 403.
      const run = await call(route, path, keys.run);
      if (run.status === 401 || run.status === 403 || run.status >= 500) wrong.push(`run ${route}: ${run.status} ${run.body.message}`);
      const read = await call(route, path, keys.read);
      const readOk = scope === 'read' ? read.status !== 401 && read.status !== 403 && read.status < 500 : read.status === 403 && read.body.message === READ_ONLY;
      if (!readOk) wrong.push(`read ${route}: ${read.status} ${read.body.message}`);
    }
    expect(wrong).toEqual([]);
  });
});
