import { readFileSync } from 'node:fs';
import type { APIContext, MiddlewareNext } from 'astro';
import { describe, expect, it, vi } from 'vitest';
import { embedOptions, isEmbedPath, tournamentEmbedCode } from '../../src/lib/domain/embed.ts';
import { currentLocale } from '../../src/lib/i18n/index.ts';
import { applyFramingPolicy, withFrameAncestors } from '../../src/server/serving/framing.ts';
import { drawableText, SHARE_CARD_MARK } from '../../src/server/services/content/share-card-picture.ts';

vi.mock('astro:middleware', () => ({ defineMiddleware: <T>(handler: T) => handler }));
vi.mock('../../src/server/runtime.ts', () => ({
  getApp: async () => ({ fetch: async () => new Response('{}') }),
  getRuntime: async () => ({ env: {}, deps: { trustProxy: false } }),
}));

const { onRequest } = await import('../../src/middleware.ts');

/** The site's page CSP as astro.config.mjs makes it, abridged. */
const PAGE_CSP = "default-src 'self'; script-src 'self' 'sha256-abc'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/** The middleware's answer to a guest's GET of `path`, whose page is rendered with `csp`; and the language it was rendered in. */
async function page(path: string, headers: Record<string, string> = {}) {
  const url = new URL(path, 'http://arena.test');
  let locale = '';
  const next = vi.fn(async () => {
    locale = currentLocale();
    return new Response('<p>сторінка</p>', { headers: { 'content-type': 'text/html', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' } });
  });
  const context = { isPrerendered: false, request: new Request(url, { headers }), url, locals: {} };
  const response = await (onRequest as unknown as (context: APIContext, next: MiddlewareNext) => Promise<Response>)(context as unknown as APIContext, next);
  return { response, locale };
}

const frameAncestors = (csp: string | null) => csp?.split(';').map((d) => d.trim()).find((d) => d.startsWith('frame-ancestors'));

describe('framing policy (issue 23)', () => {
  it('lets any site frame the embeds, keeping every other directive of the page CSP', async () => {
    for (const path of ['/embed/tournaments/0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c', '/embed/matches/x?lang=en&theme=light']) {
      const { response } = await page(path);
      const csp = response.headers.get('content-security-policy');
      expect(frameAncestors(csp), path).toBe('frame-ancestors *');
      expect(csp, path).toBe("default-src 'self'; script-src 'self' 'sha256-abc'; object-src 'none'; base-uri 'none'; frame-ancestors *");
      expect(response.headers.get('x-frame-options'), path).toBeNull();
    }
  });

  it('keeps every other page unframeable: frame-ancestors none and X-Frame-Options DENY', async () => {
    for (const path of ['/', '/tournaments/0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c', '/tournament/x/bracket', '/embed', '/embedded/tournaments/x', '/news?embed/']) {
      const { response } = await page(path);
      expect(frameAncestors(response.headers.get('content-security-policy')), path).toBe("frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
    }
  });

  it('sets frame-ancestors whether the policy had one or not', () => {
    expect(withFrameAncestors("default-src 'self'", '*')).toBe("default-src 'self'; frame-ancestors *");
    expect(withFrameAncestors("frame-ancestors 'none'; default-src 'self';", '*')).toBe("frame-ancestors *; default-src 'self'");
    const headers = new Headers({ 'x-frame-options': 'DENY' });
    applyFramingPolicy('/embed/tournaments/x', headers);
    expect(headers.has('x-frame-options')).toBe(false);
    expect(headers.has('content-security-policy')).toBe(false);
  });

  it('renders an embed in the language of its address, not the reader’s cookie; other pages follow the cookie', async () => {
    expect((await page('/embed/tournaments/x?lang=en', { cookie: 'lang=uk' })).locale).toBe('en');
    expect((await page('/embed/tournaments/x', { cookie: 'lang=en' })).locale).toBe('uk');
    expect((await page('/embed/tournaments/x?lang=de', { cookie: 'lang=en' })).locale).toBe('uk');
    expect((await page('/tournaments?lang=en', { cookie: 'lang=uk' })).locale).toBe('uk');
    expect((await page('/tournaments', { cookie: 'lang=en' })).locale).toBe('en');
  });
});

describe('embed addresses', () => {
  it('reads the language and the theme from the query, falling back to Ukrainian and dark', () => {
    expect(embedOptions(new URLSearchParams('lang=en&theme=light'))).toEqual({ locale: 'en', theme: 'light' });
    expect(embedOptions(new URLSearchParams('lang=fr&theme=neon'))).toEqual({ locale: 'uk', theme: 'dark' });
    expect(isEmbedPath('/embed/matches/x')).toBe(true);
    expect(isEmbedPath('/embedded')).toBe(false);
  });

  it('offers an iframe of the embed with its title, escaped', () => {
    const code = tournamentEmbedCode('https://arena.test', '0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c', 'en', 'Сітка «Кубок" <Києва>»');
    expect(code).toBe(
      '<iframe src="https://arena.test/embed/tournaments/0b7e3c1a-5f2d-4c6e-9a8b-1d2e3f4a5b6c?lang=en" title="Сітка «Кубок&quot; &lt;Києва&gt;»" width="100%" height="600" style="border:0" loading="lazy"></iframe>',
    );
  });
});

describe('share card drawing', () => {
  const latinAndCyrillic = (codePoint: number) => codePoint < 0x250 || (codePoint >= 0x400 && codePoint <= 0x52f) || (codePoint >= 0x2000 && codePoint <= 0x206f);

  it('keeps Ukrainian and Latin text and drops what no loaded font draws (emoji, other scripts) instead of boxes', () => {
    expect(drawableText('Кубок  Ґанку — Їжак\nЄнот', latinAndCyrillic)).toBe('Кубок Ґанку — Їжак Єнот');
    expect(drawableText('Сезон 🎮 ліги 漢字 Café', latinAndCyrillic)).toBe('Сезон ліги Café');
  });

  it('draws the mark of public/favicon.svg', () => {
    const squeeze = (svg: string) => svg.replace(/>\s+</g, '><').trim();
    expect(squeeze(SHARE_CARD_MARK)).toBe(squeeze(readFileSync('public/favicon.svg', 'utf8')));
  });
});
