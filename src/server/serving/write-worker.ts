// The write thread (serving/write-thread.ts, decision 021): the API app with a database pool of its
// own, serving the writes the main thread hands over. Its tournament events and notices reach the
// main thread's viewers and held answers over the live link, as another instance's do.
import { parentPort } from 'node:worker_threads';
import { t } from '../../lib/i18n/index.ts';
import { localeOf, withLocale } from '../locale.ts';
import { getApp } from '../runtime.ts';
import { compress } from './compression.ts';
import type { CrossingAnswer, CrossingRequest } from './write-thread.ts';

const port = parentPort!;
const app = await getApp();

async function answer(crossing: CrossingRequest): Promise<CrossingAnswer> {
  const request = new Request(crossing.url, {
    method: crossing.method,
    headers: crossing.headers,
    body: crossing.body.byteLength > 0 ? crossing.body : null,
  });
  try {
    const response = await withLocale(localeOf(request), async () => compress(request, await app.fetch(request, { clientAddress: crossing.clientAddress })));
    return { id: crossing.id, status: response.status, headers: [...response.headers], body: new Uint8Array(await response.arrayBuffer()) };
  } catch (error) {
    // The app answers its own errors; this is a fault in the crossing itself.
    console.error('[writes] запис не оброблено:', (error as Error).message);
    const body = new TextEncoder().encode(JSON.stringify({ message: withLocale(localeOf(request), () => t('error.server')) }));
    return { id: crossing.id, status: 500, headers: [['content-type', 'application/json; charset=utf-8']], body };
  }
}

port.on('message', (crossing: CrossingRequest) => {
  void answer(crossing).then((result) => port.postMessage(result, [result.body.buffer]));
});
port.postMessage({ ready: true });
