import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { createApiClient } from './lib/api/client.ts';
import { compress } from './server/serving/compression.ts';
import { localeOf, withLocale } from './server/locale.ts';
import { isApiPath, methodRefusal, refusalResponse } from './server/serving/refusals.ts';
import { applyFramingPolicy } from './server/serving/framing.ts';
import { embedOptions, isEmbedPath } from './lib/domain/embed.ts';
import { publicAnswers, WROTE_SET_COOKIE } from './server/serving/answer-cache.ts';
import { getApp, getRuntime } from './server/runtime.ts';
import { HSTS, servedOverHttps } from './server/transport.ts';
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

/**
 * What depends on how this request arrived, added to the answer as it leaves (held or not): HSTS
 * only over HTTPS, which a held answer must not carry to a reader on plain HTTP or the reverse.
 */
async function sendOff(request: Request, peer: string | undefined, response: Response): Promise<Response> {
  const https = servedOverHttps(request, peer, (await getRuntime()).deps);
  // The API sets it on its own answers, so one held from an HTTPS reader carries it: taken off for plain HTTP.
  if (https === response.headers.has('strict-transport-security')) return response;
  const headers = new Headers(response.headers);
  if (https) headers.set('Strict-Transport-Security', HSTS);
  else headers.delete('Strict-Transport-Security');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
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
  // An embed speaks the language its address names (issue 23): the framing site chose it, not the visitor's cookie.
  const locale = isEmbedPath(url.pathname) ? embedOptions(url.searchParams).locale : localeOf(request);
  const render = async () => finish(request, await withLocale(locale, () => next()));
  const peer = peerOf(context);
  // A guest's read may be held (serving/answer-cache.ts); anything with a token is the caller's own.
  if (request.method === 'GET' && !request.headers.has('authorization')) {
    const asked = { request, path: url.pathname + url.search, search: url.search, locale, origin: env.SITE_URL ? env.siteUrl : url.origin };
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
