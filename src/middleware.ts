import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { createApiClient } from './lib/api/client.ts';
import { compress } from './server/serving/compression.ts';
import { withLocale } from './server/locale.ts';
import { isApiPath, methodRefusal, refusalResponse } from './server/serving/refusals.ts';
import { applyFramingPolicy } from './server/serving/framing.ts';
import { askedOf, publicAnswers, WROTE_SET_COOKIE } from './server/serving/answer-cache.ts';
import { getApp, getRuntime } from './server/runtime.ts';
import { servedOverHttps, withTransportHeaders } from './server/transport.ts';
import { collectChanges } from './server/services/live/changes.ts';
import { isWrite } from './server/api/methods.ts';

/**
 * The address of the socket a request came on (a proxy's, behind one): whether its forwarded
 * headers are believed. None for a caller gone before it was asked.
 */
function peerOf(context: APIContext): string | undefined {
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

/** The headers every answer leaves with: its type's charset, a page's own policies. Set before it may be held. */
function finish(request: Request, response: Response): Response {
  const type = response.headers.get('content-type');
  // Without an explicit charset some browsers guess wrong and Cyrillic turns into mojibake.
  if (type?.startsWith('text/html') && !/charset/i.test(type)) {
    response.headers.set('content-type', 'text/html; charset=utf-8');
  }
  if (type?.startsWith('text/html')) {
    // The language comes from a cookie, so a shared cache must keep one copy per language.
    response.headers.append('Vary', 'Cookie');
    response.headers.set('X-Content-Type-Options', 'nosniff');
    response.headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
    applyFramingPolicy(new URL(request.url).pathname, response.headers);
  }
  return response;
}

/** What depends on how this request arrived, added to the answer as it leaves, held or not (transport.ts). */
async function sendOff(request: Request, peer: string | undefined, response: Response): Promise<Response> {
  return withTransportHeaders(response, servedOverHttps(request, peer, (await getRuntime()).deps));
}

export const onRequest = defineMiddleware(async (context, next) => {
  const { request, url } = context;
  // Made at build: no request, no database.
  if (context.isPrerendered) return finish(request, await next());
  const api = isApiPath(url.pathname);
  const { env } = await getRuntime();
  // The API needs neither: only pages render with them.
  if (!api) {
    context.locals.origin = env.SITE_URL ? env.siteUrl : url.origin;
    // Pages read data through the same typed client as islands, but in-process: no loopback HTTP.
    context.locals.api = createApiClient({
      baseUrl: new URL('/api', url).href,
      fetch: async (input, init) => (await getApp()).fetch(new Request(input, init)),
    });
  }
  // Rendering is not streamed (see astro.config.mjs), so the whole page is made in this language.
  const asked = askedOf(request, url, env.SITE_URL ? env.siteUrl : null);
  const render = async () => finish(request, await withLocale(asked.locale, () => next()));
  const peer = peerOf(context);
  // A guest's read may be held (serving/answer-cache.ts); anything with a token is the caller's own.
  if (request.method === 'GET' && !request.headers.has('authorization')) {
    const answer = await publicAnswers.get(asked, async () => {
      const { result, shown } = await collectChanges(render);
      return { response: result, shown, params: context.locals.acceptsQuery && new Set(context.locals.acceptsQuery) };
    });
    return sendOff(request, peer, answer);
  }
  // Pages are only read (scripts/serve.ts refuses the rest before Astro; this covers `astro dev`).
  const refusal = methodRefusal(request.method, url.pathname, { pages: true });
  if (refusal) return refusalResponse(request, refusal);
  const response = await render();
  // The writer's next pages skip copies its write made out of date.
  if (api && isWrite(request.method) && response.status < 400) response.headers.append('set-cookie', WROTE_SET_COOKIE);
  return sendOff(request, peer, await compress(request, response));
});
