// The API alone, without the pages: `npm run api` (for a separate API host, see PUBLIC_API_URL).
import type http from 'node:http';
import type { App } from './api/app.ts';
import { nodeListener } from './api/on-node.ts';
import { guardedServer } from './serving/refusals.ts';

/**
 * The API's HTTP server: what the app cannot take is refused before it, and a request has
 * `requestTimeoutMs` to arrive, as on the site's server (server/serving/refusals.ts).
 */
export function apiServer(app: Pick<App, 'fetch'>, options: { requestTimeoutMs?: number } = {}): http.Server {
  const listener = nodeListener(app);
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
