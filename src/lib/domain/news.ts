import { escapeXml } from './markup.ts';
import { defaultLocale, isLocale, type Locale } from '../i18n/core.ts';

/*
 * Pure rules for news (SPEC §2 News page, §3 News, §9): the collapsed preview, paragraphs of the
 * text, safe links inside it, which addresses a news item may point to, and the RSS feed. Used
 * by the API (validation, feed) and by the pages and islands (rendering), so both agree.
 */

/** Characters shown in a collapsed card before the ellipsis (SPEC §9). */
export const NEWS_PREVIEW_LENGTH = 100;
/** The ellipsis that ends a cut preview. */
export const NEWS_ELLIPSIS = '…';
export const NEWS_TITLE_MAX = 200;
export const NEWS_CONTENT_MAX = 20_000;
export const NEWS_URL_MAX = 2048;

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('uk', { granularity: 'grapheme' }) : null;

/** The text split into user-perceived characters, so a cut never halves an emoji or a letter with its accent. */
function characters(text: string): string[] {
  return segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text);
}

/**
 * The collapsed text of a card: the content on one line, cut at 100 characters plus '…' when it
 * is longer; shorter texts come back whole, without an ellipsis.
 */
export function newsPreview(content: string, length = NEWS_PREVIEW_LENGTH): string {
  const flat = content.replace(/\s+/g, ' ').trim();
  const chars = characters(flat);
  if (chars.length <= length) return flat;
  return `${chars.slice(0, length).join('').trimEnd()}${NEWS_ELLIPSIS}`;
}

/** The paragraphs of a text: split at blank lines; single line breaks stay inside a paragraph. */
export function newsParagraphs(content: string): string[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((p) => p.replace(/[ \t]+$/gm, '').trim())
    .filter((p) => p !== '');
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_IN_TEXT = /https?:\/\/[^\s<>"'«»]+/giu;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '»', '…', ')', ']', '}']);
const OPENING: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, ch: string) => text.split(ch).length - 1;

/**
 * A link found in text without the sentence's trailing punctuation; a closing bracket stays when
 * the link opened it (`https://uk.wikipedia.org/wiki/Dota_(гра)`).
 */
function trimLinkEnd(candidate: string): string {
  let url = candidate;
  for (let last = url.at(-1); last && TRAILING_PUNCTUATION.has(last); last = url.at(-1)) {
    const open = OPENING[last];
    if (open && count(url, open) >= count(url, last)) break;
    url = url.slice(0, -1);
  }
  return url;
}

/** Whether `href` parses as an absolute http(s) address with a host. */
function isHttpUrl(href: string): boolean {
  try {
    const url = new URL(href);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/**
 * A line of text cut into plain parts and http(s) links, for rendering as text with `<a>`
 * elements; nothing else (no `javascript:`, no HTML) ever becomes markup.
 */
export function linkifyText(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  const push = (part: string) => {
    if (!part) return;
    const previous = parts.at(-1);
    if (previous?.kind === 'text') previous.text += part;
    else parts.push({ kind: 'text', text: part });
  };
  for (const match of text.matchAll(URL_IN_TEXT)) {
    const start = match.index;
    const href = trimLinkEnd(match[0]);
    if (!isHttpUrl(href) || href.length > NEWS_URL_MAX) continue;
    push(text.slice(last, start));
    parts.push({ kind: 'link', text: href, href });
    last = start + href.length;
  }
  push(text.slice(last));
  return parts;
}

/**
 * Whether a news image or link address is allowed: an absolute http(s) address or a path on
 * this site (`/news/1.jpg`). Refuses `javascript:`, `data:`, protocol-relative `//host`,
 * backslashes, spaces and control characters.
 */
export function isSafeNewsUrl(value: string): boolean {
  if (value === '' || value.length > NEWS_URL_MAX) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f\\]/u.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//');
  return /^https?:\/\//i.test(value) && isHttpUrl(value);
}

/** Whether an allowed address leads away from this site (it then opens in a new tab). */
export const isExternalUrl = (value: string) => /^https?:\/\//i.test(value);

// ---------------------------------------------------------------- RSS


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
