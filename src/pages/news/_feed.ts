import { escapeXml } from '../../lib/domain/markup.ts';
import { defaultLocale, isLocale, type Locale } from '../../lib/i18n/core.ts';

/*
 * The news feed (RSS 2.0), written beside the endpoint that serves it (rss.xml.ts); the news pages
 * link to it with newsFeedPath.
 */
export interface FeedItem {
  _id: string;
  title: string;
  content: string;
  date: string;
}

export interface FeedChannel {
  title: string;
  description: string;
  /** The site's origin, `https://arena.example`: every link in the feed is absolute. */
  origin: string;
  /** Path of the news page, `/news`. */
  pagePath: string;
  /** Path of the feed itself, `/news/rss.xml` (with `?lang=en` for the English one). */
  feedPath: string;
  /** The language of the channel's own texts (its items are written as their authors wrote them). */
  language: Locale;
  /** Path of one item's page. */
  itemPath: (id: string) => string;
  /** Moment of the build, for `lastBuildDate` when there are no items. */
  now: Date;
}

/** Path of the news feed in a language: Ukrainian, the default, at `/news/rss.xml`, English with `?lang=en`. */
export const newsFeedPath = (locale: Locale): string => (locale === defaultLocale ? '/news/rss.xml' : `/news/rss.xml?lang=${locale}`);

/** The language a feed request asks for: `?lang=` (a feed reader sends no cookie), else the reader's `fallback`. */
export const feedLocale = (lang: string | null, fallback: Locale): Locale => (isLocale(lang) ? lang : fallback);

/** An RSS 2.0 document of the given news, newest first, with absolute links and escaped text. */
export function newsFeedXml(items: readonly FeedItem[], channel: FeedChannel): string {
  const abs = (path: string) => new URL(path, channel.origin).href;
  const newest = items.reduce<Date | null>((max, item) => {
    const d = new Date(item.date);
    return !max || d > max ? d : max;
  }, null);
  const entries = items.map((item) => {
    const link = abs(channel.itemPath(item._id));
    return [
      '    <item>',
      `      <title>${escapeXml(item.title)}</title>`,
      `      <link>${escapeXml(link)}</link>`,
      `      <guid isPermaLink="true">${escapeXml(link)}</guid>`,
      `      <pubDate>${new Date(item.date).toUTCString()}</pubDate>`,
      `      <description>${escapeXml(item.content)}</description>`,
      '    </item>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">',
    '  <channel>',
    `    <title>${escapeXml(channel.title)}</title>`,
    `    <link>${escapeXml(abs(channel.pagePath))}</link>`,
    `    <description>${escapeXml(channel.description)}</description>`,
    `    <language>${channel.language}</language>`,
    `    <lastBuildDate>${(newest ?? channel.now).toUTCString()}</lastBuildDate>`,
    `    <atom:link href="${escapeXml(abs(channel.feedPath))}" rel="self" type="application/rss+xml" />`,
    ...entries,
    '  </channel>',
    '</rss>',
    '',
  ].join('\n');
}
