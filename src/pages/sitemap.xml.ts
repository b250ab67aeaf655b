import type { APIRoute } from 'astro';
import { listGames } from '../lib/api/games.ts';
import { getLeaderboard, listStatsGames } from '../lib/api/leaderboards.ts';
import { listNews } from '../lib/api/news.ts';
import { listOrganisations } from '../lib/api/organisations.ts';
import { PAGE_MAX_LIMIT, type Page } from '../lib/api/paging.ts';
import { listSeasons } from '../lib/api/season-calls.ts';
import { listTournaments } from '../lib/api/tournament-list.ts';
import { LEADERBOARD_MAX_LIMIT } from '../lib/domain/leaderboard.ts';
import { escapeXml } from '../lib/domain/markup.ts';
import { profilePath } from '../lib/domain/participant.ts';
import { ALL_GAMES } from '../lib/domain/tournament-list.ts';

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

/**
 * The profiles worth finding (issue 23): the players and teams with activity, as each rated game's
 * leaderboards list them — the top 100 of each tab by rating, so the list stays bounded however
 * many accounts there are; one who plays several games is listed once.
 */
async function activeProfiles(locals: App.Locals): Promise<string[]> {
  const games = await listStatsGames(locals.api);
  const boards = await Promise.all(
    games.flatMap((game) => [
      getLeaderboard(locals.api, 'players', game._id, { limit: LEADERBOARD_MAX_LIMIT }).then((rows) => rows.flatMap((r) => (r.userId ? [profilePath('user', r.userId._id)] : []))),
      getLeaderboard(locals.api, 'teams', game._id, { limit: LEADERBOARD_MAX_LIMIT }).then((rows) => rows.flatMap((r) => (r.teamId ? [profilePath('team', r.teamId._id)] : []))),
    ]),
  );
  return [...new Set(boards.flat())];
}

/** Every public page a search engine should find: sections, games, tournaments with their brackets, news items, organisations, seasons, active profiles. */
export const GET: APIRoute = async ({ locals }) => {
  const [games, tournaments, news, organisations, seasons, profiles] = await Promise.all([
    listGames(locals.api),
    everyPage((offset) => listTournaments(locals.api, { sort: 'date_asc', limit: PAGE_MAX_LIMIT, offset })),
    everyPage((offset) => listNews(locals.api, { limit: PAGE_MAX_LIMIT, offset })),
    everyPage((offset) => listOrganisations(locals.api, { limit: PAGE_MAX_LIMIT, offset })),
    everyPage((offset) => listSeasons(locals.api, { limit: PAGE_MAX_LIMIT, offset })),
    activeProfiles(locals),
  ]);
  const entries: { path: string; lastmod?: string }[] = [
    { path: '/' },
    { path: '/tournaments' },
    { path: `/games/${ALL_GAMES}` },
    { path: '/news' },
    { path: '/leaderboards' },
    { path: '/organisations' },
    ...games.map((game) => ({ path: `/games/${game._id}` })),
    ...tournaments.flatMap((tournament) => [{ path: `/tournaments/${tournament._id}` }, { path: `/tournament/${tournament._id}/bracket` }]),
    ...news.map((item) => ({ path: `/news/${item._id}`, lastmod: item.date })),
    ...organisations.map((organisation) => ({ path: `/org/${organisation.slug}` })),
    ...seasons.map((season) => ({ path: `/seasons/${season._id}` })),
    ...profiles.map((path) => ({ path })),
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
