import type { APIRoute } from 'astro';
import { listNews } from '../../lib/api/news.ts';
import { feedLocale, newsFeedPath, newsFeedXml } from './_feed.ts';
import { currentLocale, translate } from '../../lib/i18n/index.ts';

/** Items in the feed: the newest current news. */
const FEED_SIZE = 50;

/**
 * RSS 2.0 of current (not archived) news, with absolute links (SPEC §2 News, shared links). The
 * channel's own texts and `<language>` follow `?lang=` (the address a page in English offers), else
 * the reader's cookie; the items' dates stay RFC 822, as RSS requires.
 */
export const GET: APIRoute = async ({ locals, url }) => {
  const locale = feedLocale(url.searchParams.get('lang'), currentLocale());
  const { items } = await listNews(locals.api, { archived: false, limit: FEED_SIZE });
  const xml = newsFeedXml(items, {
    title: translate(locale, 'news.feedTitle'),
    description: translate(locale, 'news.feedDescription'),
    language: locale,
    origin: locals.origin,
    pagePath: '/news',
    feedPath: newsFeedPath(locale),
    itemPath: (id) => `/news/${id}`,
    now: new Date(),
  });
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/rss+xml; charset=utf-8',
      'Cache-Control': 'public, max-age=300, stale-while-revalidate=600',
      // Without `?lang=` the language comes from the cookie: a shared cache keeps one copy per language.
      Vary: 'Cookie',
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
