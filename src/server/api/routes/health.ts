import { createRoute, z } from '@hono/zod-openapi';
import { DISK_FULL_RETRY_AFTER, diskFullLately } from '../../services/disk-full.ts';
import { jsonResponse, router } from '../openapi.ts';

const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  /** `full`: a write was refused for lack of disk space lately and none has succeeded since (services/disk-full.ts). */
  storage: z.enum(['ok', 'full']),
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
    description: '503, коли база даних не відповідає або коли запис нещодавно не вдався через брак місця на диску (`storage: full`).',
    responses: {
      200: jsonResponse(healthSchema, 'Працює'),
      503: jsonResponse(healthSchema, 'База даних недоступна або закінчилося місце для запису'),
    },
  }),
  async (c) => {
    const database = c.get('deps').database;
    const uptime = Math.round((Date.now() - startedAt) / 1000);
    // The timer goes as soon as the ping answers: under load, thousands of pending 2 s timers would fill the heap.
    let timer: NodeJS.Timeout | undefined;
    const reachable = await Promise.race([
      database.ping().then(() => true, () => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(resolve, 2000, false))),
    ]).finally(() => clearTimeout(timer));
    // Reads still work on a full disk, but an instance that cannot save is not healthy.
    const full = diskFullLately();
    const ok = reachable && !full;
    c.header('Cache-Control', 'no-store');
    // A balancer or client that sees the 503 knows when to look again, as with the API's other 503s.
    if (!ok) c.header('Retry-After', String(reachable ? DISK_FULL_RETRY_AFTER : 5));
    const body = { database: reachable ? 'ok' : 'unavailable', storage: full ? 'full' : 'ok', driver: database.kind, uptime } as const;
    return ok ? c.json({ status: 'ok' as const, ...body }, 200) : c.json({ status: 'unavailable' as const, ...body }, 503);
  },
);
