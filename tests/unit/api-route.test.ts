import type { APIContext } from 'astro';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const fetch = vi.fn(async () => new Response('{}'));
vi.mock('../../src/server/runtime.ts', () => ({ getApp: async () => ({ fetch }) }));

const { ALL } = await import('../../src/pages/api/[...path].ts');

/** What Astro hands the route: only the two fields it reads. */
function context(address: () => string): APIContext {
  return {
    request: new Request('http://localhost/api/health'),
    get clientAddress() {
      return address();
    },
  } as APIContext;
}

describe('the /api route of the site', () => {
  beforeEach(() => fetch.mockClear());

  it('hands the request to the API with the caller’s address', async () => {
    const ctx = context(() => '203.0.113.7');
    await ALL(ctx);
    expect(fetch).toHaveBeenCalledWith(ctx.request, { clientAddress: '203.0.113.7' });
  });

  it('answers a caller that already hung up without reaching the API (its address is gone)', async () => {
    const response = await ALL(
      context(() => {
        throw new Error('ClientAddressNotAvailable');
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Зʼєднання закрито до відповіді' });
    expect(fetch).not.toHaveBeenCalled();
  });
});
