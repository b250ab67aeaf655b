// The API alone, without the pages: `npm run api` (for a separate API host, see PUBLIC_API_URL).
import { serve } from '@hono/node-server';
import { getApp, getRuntime } from './runtime.ts';

const { env } = await getRuntime();
const app = await getApp();
serve({ fetch: (request, node) => app.fetch(request, { clientAddress: node.incoming.socket.remoteAddress }), port: env.PORT, hostname: env.HOST }, (info) => {
  console.log(`Кіберарена API: http://${env.HOST}:${info.port}/api (документація: /api/docs)`);
});
