import { defineMiddleware } from 'astro:middleware';
import { createApiClient } from './lib/api/client.ts';
import { compress } from './server/compression.ts';
import { localeOf, withLocale } from './server/locale.ts';
import { getApp, getRuntime } from './server/runtime.ts';
import { HSTS, servedOverHttps } from './server/transport.ts';

export const onRequest = defineMiddleware(async (context, next) => {
  if (!context.isPrerendered) {
    // Pages read data through the same typed client as islands, but in-process: no loopback HTTP.
    context.locals.api = createApiClient({
      baseUrl: new URL('/api', context.url).href,
      fetch: async (input, init) => (await getApp()).fetch(new Request(input, init)),
    });
  }
  // Rendering is not streamed (see astro.config.mjs), so the whole page is made in this language.
  const response = await withLocale(localeOf(context.request), () => next());
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
    response.headers.set('X-Frame-Options', 'DENY');
    if (servedOverHttps(context.request, (await getRuntime()).deps)) response.headers.set('Strict-Transport-Security', HSTS);
  }
  return compress(context.request, response);
});
