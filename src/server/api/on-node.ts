import type http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { t } from '../../lib/i18n/index.ts';
import type { App } from './app.ts';
import { fetchHeaders, sendWhole } from '../node-response.ts';
import { dropHeld, sendHead, SENT } from './node-streams.ts';

/**
 * The API on Node's own request and response (@hono/node-server): `npm run api`'s server, and the
 * site's event streams (scripts/serve.ts sends them here instead of through Astro, decision 047).
 *
 * An event stream stays open for as long as its reader watches: ten thousand of them at a final.
 * Through Astro's handler each would hold its request, its response with a web stream and the
 * adapter's suspended frames for its whole life; on Node's response it holds the socket, the
 * response and its place in the topic. So a stream route that finds `outgoing` in its bindings
 * leaves its stream to api/node-streams.ts, which writes the frames there once the answer's head
 * has gone with every header the app's middlewares gave it.
 */

export type NodeHandler = (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>;

/**
 * The app's event streams as a Node request listener (scripts/serve.ts, decision 047): the request
 * is given to the app as a plain fetch Request made from its head (a stream's request has no body),
 * and nothing but the stream keeps it once the app has answered. (@hono/node-server's listener keeps
 * its request for as long as the response is open, to abort it when the client leaves, which for a
 * stream is its whole life.) A refusal (400, 404, 429, 503) is sent as it came.
 */
export function streamListener(app: Pick<App, 'fetch'>): NodeHandler {
  return async (req, res) => {
    try {
      const request = new Request(new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`), { method: req.method, headers: fetchHeaders(req) });
      const response = sendHead(res, await app.fetch(request, { clientAddress: req.socket.remoteAddress, outgoing: res }));
      if (response !== SENT) await sendWhole(res, response);
    } catch {
      dropHeld(res);
      // A stream already under way is cut off; before its head, a failure is the app's own (the
      // guard, refusals.ts, let only a valid head through).
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ message: t('error.server') }));
    }
  };
}

/** The app as a Node request listener: the caller's address from the socket, streams on the response itself. */
export function nodeListener(app: Pick<App, 'fetch'>): NodeHandler {
  // The process's own Request and Response stay the platform's (Astro shares the process).
  return getRequestListener(
    async (request, node) => {
      // Our servers speak HTTP/1.1 (nginx talks HTTP/2 to browsers, scripts/serve.ts and main.ts do not).
      const outgoing = node.outgoing as http.ServerResponse;
      try {
        return sendHead(outgoing, await app.fetch(request, { clientAddress: node.incoming.socket.remoteAddress, outgoing }));
      } catch (error) {
        dropHeld(outgoing);
        throw error;
      }
    },
    { overrideGlobalObjects: false },
  );
}

/**
 * Whether a path is one of the app's event streams: the routes whose answer is `text/event-stream`
 * (api/openapi.ts `streamRoute`), as the API's documentation lists them.
 */
export function streamPaths(app: App): (path: string) => boolean {
  const patterns = app.openAPIRegistry.definitions.flatMap((definition) => {
    if (definition.type !== 'route' || definition.route.method !== 'get') return [];
    const ok = definition.route.responses[200];
    if (!ok || !('content' in ok) || !ok.content?.['text/event-stream']) return [];
    // Documented paths are the app's own, under its base (app.ts); `{id}` is one segment.
    const escaped = `/api${definition.route.path}`.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    return [new RegExp(`^${escaped.replace(/\{[^}]+\}/g, '[^/]+')}/?$`)];
  });
  return (path) => patterns.some((pattern) => pattern.test(path));
}
