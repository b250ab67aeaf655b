import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { t } from '../../src/lib/i18n/index.ts';
import { useTestApi } from '../support/builders.ts';

// A NUL or half a surrogate pair in any string that any documented route takes — body field,
// query parameter or path parameter — is refused with a 400 that names the field, and is never
// stored (issue 18 item 7: these reached PostgreSQL and answered 500).

type Schema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  pattern?: string;
  minimum?: number;
  minItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
  default?: unknown;
};
type Operation = { parameters?: { name: string; in: 'path' | 'query'; schema: Schema }[]; requestBody?: { content: Record<string, { schema: Schema }> } };

const UNSAFE = { nul: 'a\u0000b', 'lone surrogate': 'a\uD800b', 'lone low surrogate': '\uDC00' };

/** A plausible value for a JSON schema: enough for a request to pass the other fields' checks. */
function sample(schema: Schema): unknown {
  const option = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (option) return sample(option);
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((name) => name !== 'null') : schema.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, value]) => [key, sample(value)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sample(schema.items ?? {}));
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'string':
      if (schema.format === 'uuid') return randomUUID();
      if (schema.format === 'email') return 'someone@example.com';
      if (schema.format === 'date-time') return '2030-01-01T10:00:00Z';
      if (schema.format === 'uri') return 'https://example.com/a.png';
      // Text with a pattern of its own is refused by that pattern first; 'sample…' marks free text.
      return (schema.pattern ? 'patterned' : 'sample').padEnd(schema.minLength ?? 0, 'x');
    default:
      return 'sample';
  }
}

/** Paths of every string leaf in a sampled value. */
function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, Array.isArray(value) ? Number(key) : key]));
}

function withLeaf(value: unknown, path: (string | number)[], leaf: string): unknown {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = leaf;
  return copy;
}

interface Case {
  name: string;
  method: string;
  path: string;
  body?: unknown;
  /** Whether the unsafe text replaced free text (not an id, an enum value or an address), which only the text rule refuses. */
  freeText?: boolean;
}

/** The route's request with sampled values, and the same request with each string made unsafe in turn. */
function casesOf(method: string, template: string, operation: Operation): { baseline: Case; unsafe: Case[] } {
  const parameters = operation.parameters ?? [];
  const values = Object.fromEntries(parameters.map((p) => [`${p.in}:${p.name}`, String(sample(p.schema))]));
  const body = operation.requestBody?.content['application/json'] ? sample(operation.requestBody.content['application/json'].schema) : undefined;
  const build = (vals: Record<string, string>, json: unknown): Case => {
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(vals[`path:${name}`]!));
    const query = new URLSearchParams(parameters.filter((p) => p.in === 'query').map((p) => [p.name, vals[`query:${p.name}`]!]));
    const search = query.size > 0 ? `?${query}` : '';
    return { name: '', method, path: path + search, ...(json === undefined ? {} : { body: json }) };
  };
  const unsafe: Case[] = [];
  for (const [kind, text] of Object.entries(UNSAFE)) {
    // A URL cannot carry half a surrogate pair (it is UTF-8 there): only the NUL goes into paths and queries.
    if (kind === 'nul') {
      for (const key of Object.keys(values)) unsafe.push({ ...build({ ...values, [key]: text }, body), name: `${kind} in ${key}`, freeText: values[key]!.startsWith('sample') });
    }
    for (const leaf of stringLeaves(body)) {
      const freeText = String(leaf.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], body)).startsWith('sample');
      unsafe.push({ ...build(values, withLeaf(body, leaf, text)), name: `${kind} in body ${leaf.join('.')}`, freeText });
    }
  }
  return { baseline: build(values, body), unsafe };
}

const api = useTestApi();
let adminToken: string;
let operations: [string, string, Operation][];

beforeAll(async () => {
  adminToken = (await api.signedIn('admin')).token;
  const doc = await api.call<{ paths: Record<string, Record<string, Operation>> }>('GET', '/api/openapi.json');
  operations = Object.entries(doc.body.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [method.toUpperCase(), path, op] as [string, string, Operation]));
});

describe('unsafe text in every string an API route takes', () => {
  it('is refused with a Ukrainian 400 naming the field, or by the same guard that refuses the clean request', async () => {
    const refusedForText = new Set<string>();
    let cases = 0;
    for (const [method, template, operation] of operations) {
      const { baseline, unsafe } = casesOf(method, template, operation);
      if (unsafe.length === 0) continue;
      const clean = await api.call(method, baseline.path, { token: adminToken, body: baseline.body });
      for (const attempt of unsafe) {
        cases++;
        const res = await api.call(method, attempt.path, { token: adminToken, body: attempt.body });
        const where = `${method} ${template}: ${attempt.name} (clean request: ${clean.status})`;
        expect(res.headers.get('content-type'), where).toMatch(/application\/json/);
        const { message } = res.body as { message?: string };
        expect(typeof message, where).toBe('string');
        // A guard that turns the clean request away (no such team: 404) may turn this one away
        // first; anything that reaches validation hears about the text itself.
        if ([401, 403, 404].includes(clean.status) && res.status === clean.status) continue;
        expect(res.status, where).toBe(400);
        if (clean.status !== 400 && attempt.freeText) expect(message, where).toContain('недопустимі символи');
        if (message?.includes('недопустимі символи')) refusedForText.add(`${method} ${template}`);
      }
    }
    // The walk really reached the fields: the routes where a NUL used to answer 500 refuse it for its text.
    expect(cases).toBeGreaterThan(150);
    expect([...refusedForText]).toEqual(
      expect.arrayContaining([
        'POST /api/auth/login',
        'POST /api/applications/invite',
        'POST /api/games',
        'POST /api/game-management/{id}/add-stat-field',
        'POST /api/game-management/{gameId}/add-achievement',
        'POST /api/tournaments',
        'PUT /api/tournaments/{id}',
        'POST /api/news',
        'PUT /api/news/{id}',
        'POST /api/applications',
        'PATCH /api/tournaments/{id}/bracket',
        'POST /api/tournaments/{id}/record-match',
      ]),
    );
  });

  it('names the field in the message', async () => {
    const res = await api.call('POST', '/api/news', { token: adminToken, body: { title: 'Новина\u0000', content: 'Текст' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(t('validation.unsafeText', { field: t('field.title') }));
  });

  it('refuses a lone surrogate in a bracket comment, which JSONB cannot store', async () => {
    const res = await api.call('PATCH', `/api/tournaments/${randomUUID()}/bracket`, {
      token: adminToken,
      body: { bracket: [{ round: 1, matches: [{ a: null, b: null, winner: null, loser: null, comment: 'ok \uD83D' }] }], version: 0 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('недопустимі символи');
  });
});

describe('dates outside the years the site keeps', () => {
  let gameId: string;
  let teamId: string;
  let captainToken: string;
  let userId: string;

  beforeAll(async () => {
    gameId = (await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: adminToken, body: { name: 'Роки' } })).body.game._id;
    const captain = await api.signedIn();
    captainToken = captain.token;
    userId = captain.user.id;
    teamId = (await api.call<{ team: { _id: string } }>('POST', '/api/teams', { token: captainToken, body: { name: 'Команда років' } })).body.team._id;
  });

  // Year 0 answered 500; years 1–99 came back from the database 1900 or 2000 years later.
  const outside = ['0000-01-01', '0001-06-15', '0099-12-31', '1899-12-31T23:59:59Z', '+010000-01-01T00:00:00Z'];

  it.each(outside)('a tournament dated %s is refused with 400 and the range', async (date) => {
    const res = await api.call('POST', '/api/tournaments', { token: adminToken, body: { title: 'Турнір', date, game: gameId } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(t('tournament.invalidDate', { min: 1900, max: 9999 }));
  });

  it.each(outside)('the tournament list from %s is refused with 400', async (from) => {
    const res = await api.call('GET', `/api/tournaments?from=${encodeURIComponent(from)}`);
    expect(res.status).toBe(400);
  });

  it.each(['0000-01-01T00:00:00Z', '0050-01-01T00:00:00Z'])('team chat after %s is refused with 400', async (after) => {
    const res = await api.call('GET', `/api/team/${teamId}/chat?after=${encodeURIComponent(after)}`, { token: captainToken });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(t('chat.badCursor'));
  });

  it('match history before year 0 is refused with 400', async () => {
    const res = await api.call('GET', `/api/stats/matches/player/${userId}?before=${encodeURIComponent('0000-01-01T00:00:00Z')}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(t('matchHistory.badBefore'));
  });

  it('the first and the last supported year are kept as given', async () => {
    for (const date of ['1900-01-01T00:00:00.000Z', '9999-12-31T00:00:00.000Z']) {
      const res = await api.call<{ tournament: { _id: string; date: string } }>('POST', '/api/tournaments', { token: adminToken, body: { title: 'Межа', date, game: gameId } });
      expect(res.status).toBe(201);
      const read = await api.call<{ date: string }>('GET', `/api/tournaments/${res.body.tournament._id}`);
      expect(new Date(read.body.date).toISOString()).toBe(date);
    }
  });
});
