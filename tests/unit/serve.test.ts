import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overloaded } from '../../scripts/serve.ts';

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer(overloaded);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((done) => server.close(done)));

describe('a request that waited too long for its turn', () => {
  it('gets the API its 503 JSON in the reader\'s language, not to be cached, with a time to retry', async () => {
    const response = await fetch(`${base}/api/tournaments`, { headers: { cookie: 'lang=en' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ message: 'The service is temporarily unavailable. Try again later.' });
  });

  it('gets a page a short page saying the same, in Ukrainian by default', async () => {
    const response = await fetch(`${base}/tournaments`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('text/html');
    const page = await response.text();
    expect(page).toContain('<html lang="uk">');
    expect(page).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(page).toContain('<p>Сервіс тимчасово недоступний. Спробуйте пізніше.</p>');
  });
});
