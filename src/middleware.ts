import type { APIContext } from 'astro';
import { defineMiddleware } from 'astro:middleware';
import { createApiClient } from './lib/api/client.ts';
import { compress } from './server/serving/compression.ts';
import { localeOf, withLocale } from './server/locale.ts';
import { isApiPath, methodRefusal, refusalResponse } from './server/serving/refusals.ts';
import { isEventStreamPath } from './server/serving/event-streams.ts';
import { applyFramingPolicy } from './server/serving/framing.ts';
import { embedOptions, isEmbedPath } from './lib/domain/embed.ts';
import { answerKey, publicAnswers } from './server/serving/response-cache.ts';
import { getApp, getRuntime } from './server/runtime.ts';
import { HSTS, servedOverHttps } from './server/serving/transport.ts';
import { afterApiWrite, isApiWrite, WROTE_SET_COOKIE } from './server/serving/api-writes.ts';

/**
 * The address of the socket a request came on (a proxy's, behind one): whether its forwarded
 * headers are believed. None for a page prerendered at build, or a caller gone before it was asked.
 */
function peerOf(context: APIContext): string | undefined {
  if (context.isPrerendered) return undefined;
  try {
    return context.clientAddress;
  } catch {
    return undefined;
  }
}

/** The headers every answer leaves with, set before it may be cached, so a held answer is whole. */
async function finish(request: Request, peer: string | undefined, response: Response): Promise<Response> {
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
  if (servedOverHttps(request, peer, (await getRuntime()).deps)) response.headers.set('Strict-Transport-Security', HSTS);
  return response;
}

export const onRequest = defineMiddleware(async (context, next) => {
  // The API needs neither: only pages render with them.
  if (!context.isPrerendered && !isApiPath(context.url.pathname)) {
    const { env } = await getRuntime();
    context.locals.origin = env.SITE_URL ? env.siteUrl : context.url.origin;
    // Pages read data through the same typed client as islands, but in-process: no loopback HTTP.
    context.locals.api = createApiClient({
      baseUrl: new URL('/api', context.url).href,
      fetch: async (input, init) => (await getApp()).fetch(new Request(input, init)),
    });
  }
  // Rendering is not streamed (see astro.config.mjs), so the whole page is made in this language.
  const { request, url } = context;
  // An embed speaks the language its address names (issue 23): the framing site chose it, not the visitor's cookie.
  const locale = isEmbedPath(url.pathname) ? embedOptions(url.searchParams).locale : localeOf(request);
  const render = async () => finish(request, peerOf(context), await withLocale(locale, () => next()));
  // An event stream never ends: neither held nor compressed, each event leaves as it is written.
  if (request.method === 'GET' && isEventStreamPath(url.pathname)) return render();
  // A guest's read may come from the short-lived cache; anything with a token is the caller's own.
  if (request.method === 'GET' && !request.headers.has('authorization')) {
    const { headers } = request;
    const key = answerKey({ cookie: headers.get('cookie'), forwardedProto: headers.get('x-forwarded-proto'), host: headers.get('host'), path: url.pathname + url.search });
    return key === undefined ? compress(request, await render()) : publicAnswers.get(key, request, render);
  }
  // Pages are only read (scripts/serve.ts refuses the rest before Astro; this covers `astro dev`).
  const refusal = methodRefusal(request.method, url.pathname, { pages: true });
  if (refusal) return refusalResponse(request, refusal);
  const response = await render();
  // Only a write through the API changes what a held answer shows.
  const { method } = request;
  if (isApiWrite(method, url.pathname) && response.status < 400) {
    afterApiWrite(url.pathname, method);
    response.headers.append('set-cookie', WROTE_SET_COOKIE);
  }
  return compress(request, response);
});
