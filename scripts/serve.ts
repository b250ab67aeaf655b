// Serves a finished build: compressed static files first, then Astro (pages and the API).
// `npm start` calls it after building; on its own (`node scripts/serve.ts`) it serves the
// existing build, which is how extra instances and tests start without rebuilding.
import http from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import sirv from 'sirv';

type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => void | Promise<void>;

/** Fingerprinted by the build: a changed file gets a new name, so it may be kept for a year. */
const FINGERPRINTED = /^\/_astro\//;

/**
 * Starts the HTTP server for the build in `buildDir`. Static files are sent as the `.br` or `.gz`
 * copy made at build time when the browser takes it (astro.config.mjs, `precompress`); anything
 * else goes to Astro's own handler.
 */
export async function serveBuild(buildDir: string, port: number, host: string): Promise<http.Server> {
  // Astro would otherwise start its own server when the entry is imported.
  process.env.ASTRO_NODE_AUTOSTART = 'disabled';
  const entry = (await import(pathToFileURL(resolve(buildDir, 'server/entry.mjs')).href)) as { handler: NodeHandler };
  const files = sirv(resolve(buildDir, 'client'), {
    brotli: true,
    gzip: true,
    etag: true,
    setHeaders(res, pathname) {
      res.setHeader('Cache-Control', FINGERPRINTED.test(pathname) ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate');
      res.setHeader('X-Content-Type-Options', 'nosniff');
    },
  });
  const server = http.createServer((req, res) => {
    // Only reads can be files; everything else (and every miss) is Astro's.
    if (req.method !== 'GET' && req.method !== 'HEAD') return void entry.handler(req, res);
    files(req, res, () => entry.handler(req, res));
  });
  // Slow or idle clients must not hold sockets forever; a load balancer keeps its own connections alive longer.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 30_000;
  await new Promise<void>((done) => server.listen(port, host, done));
  // The build's own runtime opens the database on its first request: make that now, not for a visitor.
  await fetch(`http://${host.includes(':') ? `[${host}]` : host}:${port}/api/health`).catch(() => {});
  return server;
}

if (import.meta.main) {
  const { parseEnv } = await import('../src/server/env.ts');
  const env = parseEnv();
  await serveBuild(process.env.BUILD_DIR ?? 'dist', env.PORT, env.HOST);
  console.log(`Кіберарена: http://${env.HOST}:${env.PORT}`);
}
