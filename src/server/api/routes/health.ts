import { createRoute, z } from '@hono/zod-openapi';
import { jsonResponse, router } from '../openapi.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  driver: z.enum(['pglite', 'postgres']),
  uptime: z.number(),
});

const startedAt = Date.now();

export const health = router().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['Службове'],
    summary: 'Стан застосунку й бази даних (для балансувальника)',
    responses: {
      200: jsonResponse(healthSchema, 'Працює'),
      503: jsonResponse(healthSchema, 'База даних недоступна'),
    },
  }),
  async (c) => {
    const database = c.get('deps').database;
    const uptime = Math.round((Date.now() - startedAt) / 1000);
    // The timer goes as soon as the ping answers: under load, thousands of pending 2 s timers would fill the heap.
    let timer: NodeJS.Timeout | undefined;
    const ok = await Promise.race([
      database.ping().then(() => true, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, 2000, false))),
    ]).finally(() => clearTimeout(timer));
    c.header('Cache-Control', 'no-store');
    // A balancer or client that sees the 503 knows when to look again, as with the API's other 503s.
    if (!ok) c.header('Retry-After', '5');
    const body = { database: ok ? 'ok' : 'unavailable', driver: database.kind, uptime } as const;
    return ok ? c.json({ status: 'ok' as const, ...body }, 200) : c.json({ status: 'unavailable' as const, ...body }, 503);
  },
);
