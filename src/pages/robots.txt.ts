import type { APIRoute } from 'astro';

/** Lets search engines in, keeps them out of the API and the personal pages, and names the sitemap. */
export const GET: APIRoute = ({ locals }) =>
  new Response(
    ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /admin', 'Disallow: /cabinet', 'Disallow: /team', `Sitemap: ${new URL('/sitemap.xml', locals.origin).href}`, ''].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } },
  );
