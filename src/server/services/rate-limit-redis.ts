import { createClient } from 'redis';
import { type Limit, type LimitState, LimitStoreDown, type RateLimiter } from './rate-limit.ts';

const PREFIX = 'kiberarena:limit:';

/** The state after `count` attempts (this one included) in a window that ends in `ttlMs`. */
function stateOf(count: number, ttlMs: number, limit: Limit): LimitState {
  return { allowed: count <= limit.max, count, retryAfter: Math.max(1, Math.ceil(Math.max(ttlMs, 0) / 1000)) };
}

/** Decrements a counter that still exists and is above zero, in one step: an expired window stays gone. */
const UNDO = "local n = tonumber(redis.call('get', KEYS[1])) if n and n > 0 then return redis.call('decr', KEYS[1]) end return 0";

/**
 * Counters in Redis: one key per counter that expires with its window, so nothing has to be
 * cleaned up. When Redis cannot be reached a limited action is refused with 503 rather than let
 * through unlimited.
 */
export async function redisLimiter(url: string): Promise<RateLimiter> {
  const client = createClient({
    url,
    // Fail at once while disconnected instead of queueing requests until Redis returns.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2000) },
  });
  client.on('error', (error: Error) => console.error('[redis]', error.message));
  await client.connect();

  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      console.error('[redis] лічильник недоступний:', (error as Error).message);
      throw new LimitStoreDown(error);
    }
  };

  return {
    hit: (key, limit) =>
      guarded(async () => {
        const [count, , ttl] = await client
          .multi()
          .incr(PREFIX + key)
          // Only the attempt that opens the window sets its end.
          .pExpire(PREFIX + key, limit.windowSeconds * 1000, 'NX')
          .pTTL(PREFIX + key)
          .exec();
        return stateOf(Number(count), Number(ttl), limit);
      }),
    undo: (key) =>
      guarded(async () => {
        await client.eval(UNDO, { keys: [PREFIX + key] });
      }),
    reset: (key) =>
      guarded(async () => {
        await client.del(PREFIX + key);
      }),
    close: async () => {
      await client.close();
    },
  };
}
