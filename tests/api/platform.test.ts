import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFUSAL_HEADERS } from '../../src/server/serving/refusals.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

let api: TestApi;
beforeAll(async () => {
  api = await createTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('platform', () => {
  it('answers unknown API paths with 404 JSON', async () => {
    const res = await api.call('GET', '/api/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Не знайдено' });
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('sends the same security headers on its refusals as the server does on the ones made before the app', async () => {
    // Two lists (Hono's secureHeaders here, REFUSAL_HEADERS in server/serving/refusals.ts): this keeps them one.
    const res = await api.call('GET', '/api/no/such/thing');
    // HSTS depends on how the visitor came, which is not known before the app (see docs/security.md).
    const perAnswer = ['content-type', 'content-length', 'vary', 'etag', 'cache-control', 'strict-transport-security'];
    const names = [...res.headers.keys()].filter((name) => !perAnswer.includes(name));
    expect(names.length).toBeGreaterThan(5);
    const early = new Headers(REFUSAL_HEADERS);
    for (const name of names) expect(early.get(name), name).toBe(res.headers.get(name));
  });

  it('reports health with the database state', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', database: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('sends security headers on API answers', async () => {
    const res = await api.call('GET', '/api/health');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    // The test site's public address is https://arena.test, so browsers are told to keep to HTTPS.
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('documents every route in the OpenAPI document', async () => {
    const doc = await api.call<{ openapi: string; paths: Record<string, Record<string, unknown>> }>('GET', '/api/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    const documented = new Set(
      Object.entries(doc.body.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`)),
    );
    const selfDescribing = new Set(['GET /api/openapi.json', 'GET /api/docs']);
    const registered = api.app.routes
      .filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method} ${r.path.replace(/\/$/, '')}`)
      .filter((r, i, all) => !selfDescribing.has(r) && all.indexOf(r) === i);
    expect(registered.length).toBeGreaterThan(5);
    const missing = registered.filter((r) => !documented.has(r));
    expect(missing).toEqual([]);
  });

  it('renders a readable reference page', async () => {
    const res = await api.call<string>('GET', '/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html; charset=utf-8/i);
    expect(res.body).toContain('/api/auth/login');
    expect(res.body).toContain('Кіберарена API');
  });
});

describe('database outage', () => {
  it('answers 503 JSON quickly when the database is gone', async () => {
    const broken = await createTestApi();
    const { token } = await broken.signedIn();
    await broken.database.close();
    const started = Date.now();
    const health = await broken.call('GET', '/api/health');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'unavailable', database: 'unavailable' });
    const me = await broken.call('GET', '/api/users/me', { token });
    expect(me.status).toBe(503);
    expect(me.body.message).toBe('Сервіс тимчасово недоступний. Спробуйте пізніше.');
    expect(me.headers.get('retry-after')).toBe('5');
    expect(Date.now() - started).toBeLessThan(5000);
    await broken.close();
  });
});
