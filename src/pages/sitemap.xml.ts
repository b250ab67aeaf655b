import type { APIRoute } from 'astro';
import { listGames } from '../lib/api/games.ts';
import { listNews } from '../lib/api/news.ts';
import { PAGE_MAX_LIMIT, type Page } from '../lib/api/paging.ts';
import { listTournaments } from '../lib/api/tournaments.ts';
import { escapeXml } from '../lib/domain/markup.ts';

/** Every item of a paged list, read page by page as the API gives them. */
async function everyPage<T>(read: (offset: number) => Promise<Page<T>>): Promise<T[]> {
  const all: T[] = [];
  for (let more = true; more; ) {
    const page = await read(all.length);
    all.push(...page.items);
    more = page.more && page.items.length > 0;
  }
  return all;
}

/** Every public page a search engine should find: sections, games, tournaments with their brackets, news items. */
export const GET: APIRoute = async ({ locals }) => {
  const [games, tournaments, news] = await Promise.all([
    listGames(locals.api),
    everyPage((offset) => listTournaments(locals.api, { sort: 'date_asc', limit: PAGE_MAX_LIMIT, offset })),
    everyPage((offset) => listNews(locals.api, { limit: PAGE_MAX_LIMIT, offset })),
  ]);
  const entries: { path: string; lastmod?: string }[] = [
    { path: '/' },
    { path: '/tournaments' },
    { path: '/news' },
    { path: '/leaderboards' },
    ...games.map((game) => ({ path: `/games/${game._id}` })),
    ...tournaments.flatMap((tournament) => [{ path: `/tournaments/${tournament._id}` }, { path: `/tournament/${tournament._id}/bracket` }]),
    ...news.map((item) => ({ path: `/news/${item._id}`, lastmod: item.date })),
  ];
  const body = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries.map(
      (entry) =>
        `  <url><loc>${escapeXml(new URL(entry.path, locals.origin).href)}</loc>${entry.lastmod ? `<lastmod>${escapeXml(entry.lastmod.slice(0, 10))}</lastmod>` : ''}</url>`,
    ),
    '</urlset>',
    '',
  ].join('\n');
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=600' } });
};
