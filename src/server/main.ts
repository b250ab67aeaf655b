// The API alone, without the pages: `npm run api` (for a separate API host, see PUBLIC_API_URL).
import type http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { guardedServer } from './serving/refusals.ts';

interface FetchApp {
  fetch(request: Request, env: { clientAddress?: string | undefined }): Response | Promise<Response>;
}

/**
 * The API's HTTP server: what the app cannot take is refused before it, and a request has
 * `requestTimeoutMs` to arrive, as on the site's server (server/serving/refusals.ts).
 */
export function apiServer(app: FetchApp, options: { requestTimeoutMs?: number } = {}): http.Server {
  const listener = getRequestListener((request, node) => app.fetch(request, { clientAddress: node.incoming.socket.remoteAddress }));
  return guardedServer((req, res) => void listener(req, res), { pages: false, ...options });
}

if (import.meta.main) {
  const { getApp, getRuntime } = await import('./runtime.ts');
  const { env } = await getRuntime();
  const server = apiServer(await getApp());
  server.listen(env.PORT, env.HOST, () => {
    console.log(`Кіберарена API: http://${env.HOST}:${env.PORT}/api (документація: /api/docs)`);
  });
}
