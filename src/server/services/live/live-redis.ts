import { createClient } from 'redis';

/** The Redis channel of the live events (services/live/live.ts). */
export const REDIS_LIVE_CHANNEL = 'kiberarena:live';

/**
 * Live events over Redis pub/sub (REDIS_URL): one client publishes, a second one subscribes (a
 * subscribed Redis connection can do nothing else). Both reconnect by themselves; the subscriber
 * subscribes again when it does, and `onReconnect` tells the open pages to read again, since events
 * published meanwhile are lost.
 */
export async function redisLink(url: string, onMessage: (text: string) => void, onReconnect: () => void): Promise<{ send(text: string): Promise<void>; close(): Promise<void> }> {
  const options = {
    url,
    // Fail at once while disconnected: an event sent later would be stale anyway.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2000) },
  };
  const publisher = createClient(options);
  const subscriber = createClient(options);
  for (const client of [publisher, subscriber]) client.on('error', (error: Error) => console.error('[live redis]', error.message));
  let ready = 0;
  subscriber.on('ready', () => {
    if (++ready > 1) onReconnect();
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  await subscriber.subscribe(REDIS_LIVE_CHANNEL, onMessage);
  return {
    send: async (text) => {
      await publisher.publish(REDIS_LIVE_CHANNEL, text);
    },
    close: async () => {
      await Promise.allSettled([subscriber.close(), publisher.close()]);
    },
  };
}
