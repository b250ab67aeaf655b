import type { APIRoute } from 'astro';
import { listNews } from '../../lib/api/news.ts';
import { newsFeedXml } from '../../lib/domain/news.ts';
import { t } from '../../lib/i18n/index.ts';

/** Items in the feed: the newest current news. */
const FEED_SIZE = 50;

/** RSS 2.0 of current (not archived) news, with absolute links (SPEC §2 News, shared links). */
export const GET: APIRoute = async ({ locals }) => {
  const { items } = await listNews(locals.api, { archived: false, limit: FEED_SIZE });
  const xml = newsFeedXml(items, {
    title: t('news.feedTitle'),
    description: t('news.feedDescription'),
    origin: locals.origin,
    pagePath: '/news',
    feedPath: '/news/rss.xml',
    itemPath: (id) => `/news/${id}`,
    now: new Date(),
  });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300, stale-while-revalidate=600',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
