import { ADDRESS_MAX, isHttpAddress } from './address.ts';

/*
 * Pure rules for news (SPEC §2 News page, §3 News, §9): the collapsed preview, paragraphs of the
 * text and the links inside it. Used by the API (validation) and by the pages and islands
 * (rendering), so both agree. Which addresses a news item may point to: address.ts; the RSS
 * feed: src/pages/news/_feed.ts.
 */

/** Characters shown in a collapsed card before the ellipsis (SPEC §9). */
export const NEWS_PREVIEW_LENGTH = 100;
/** The ellipsis that ends a cut preview. */
export const NEWS_ELLIPSIS = '…';
export const NEWS_TITLE_MAX = 200;
export const NEWS_CONTENT_MAX = 20_000;

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
    if (!isHttpAddress(href) || href.length > ADDRESS_MAX) continue;
    push(text.slice(last, start));
    parts.push({ kind: 'link', text: href, href });
    last = start + href.length;
  }
  push(text.slice(last));
  return parts;
}
