import { describe, expect, it } from 'vitest';
import { newsInput, newsUpdate } from '../../src/lib/api/news.ts';
import { escapeXml } from '../../src/lib/domain/markup.ts';
import { linkifyText, newsParagraphs, newsPreview } from '../../src/lib/domain/news.ts';
import { feedLocale, newsFeedPath, newsFeedXml } from '../../src/pages/news/_feed.ts';

describe('news preview', () => {
  it('keeps a text of at most 100 characters whole, without an ellipsis', () => {
    expect(newsPreview('Коротка новина.')).toBe('Коротка новина.');
    const exact = 'я'.repeat(100);
    expect(newsPreview(exact)).toBe(exact);
  });

  it('cuts a longer text at 100 characters and adds …', () => {
    const text = 'a'.repeat(150);
    expect(newsPreview(text)).toBe(`${'a'.repeat(100)}…`);
    expect(newsPreview('б'.repeat(101))).toBe(`${'б'.repeat(100)}…`);
  });

  it('puts the text on one line and drops the space before the ellipsis', () => {
    const text = `Перший рядок\n\nдругий   рядок ${'x'.repeat(80)} кінець, який не влізе`;
    const preview = newsPreview(text);
    expect(preview.startsWith('Перший рядок другий рядок ')).toBe(true);
    expect(preview).not.toMatch(/\s…$/);
    expect(preview.endsWith('…')).toBe(true);
    expect(newsPreview(`${'a'.repeat(99)} bcd`)).toBe(`${'a'.repeat(99)}…`);
  });

  it('never splits an emoji or a flag', () => {
    const text = `${'a'.repeat(99)}🇺🇦🇺🇦`;
    expect(newsPreview(text)).toBe(`${'a'.repeat(99)}🇺🇦…`);
    expect(newsPreview('👍'.repeat(100))).toBe('👍'.repeat(100));
  });
});

describe('news paragraphs', () => {
  it('splits at blank lines and keeps single line breaks inside a paragraph', () => {
    expect(newsParagraphs('Перший.\nТой самий абзац.\n\n  \nДругий.\r\n\r\nТретій.  ')).toEqual([
      'Перший.\nТой самий абзац.',
      'Другий.',
      'Третій.',
    ]);
  });

  it('gives nothing for an empty text', () => {
    expect(newsParagraphs(' \n\n ')).toEqual([]);
  });
});

describe('links in news text', () => {
  it('finds http(s) links and leaves the rest as text', () => {
    expect(linkifyText('Читайте на https://example.com/a?b=1&c=2 і http://x.test.')).toEqual([
      { kind: 'text', text: 'Читайте на ' },
      { kind: 'link', text: 'https://example.com/a?b=1&c=2', href: 'https://example.com/a?b=1&c=2' },
      { kind: 'text', text: ' і ' },
      { kind: 'link', text: 'http://x.test', href: 'http://x.test' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('keeps brackets the link opened and drops the sentence’s punctuation', () => {
    const parts = linkifyText('(див. https://uk.wikipedia.org/wiki/Dota_(гра)), «https://a.test/x»!');
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.text)).toEqual(['https://uk.wikipedia.org/wiki/Dota_(гра)', 'https://a.test/x']);
    expect(parts.map((p) => p.text).join('')).toBe('(див. https://uk.wikipedia.org/wiki/Dota_(гра)), «https://a.test/x»!');
  });

  it('never turns javascript:, data: or HTML into a link', () => {
    for (const text of ['javascript:alert(1)', 'data:text/html,<b>x</b>', '<a href="https://x.test">x</a>', 'https://', 'http://:80']) {
      const parts = linkifyText(text);
      expect(parts.every((p) => p.kind === 'text' || /^https?:\/\/[^<>"]+$/.test(p.href)), text).toBe(true);
      expect(parts.map((p) => p.text).join('')).toBe(text);
    }
    expect(linkifyText('javascript:alert(1)')).toEqual([{ kind: 'text', text: 'javascript:alert(1)' }]);
  });

  it('gives an empty text no parts', () => {
    expect(linkifyText('')).toEqual([]);
  });
});

describe('news addresses', () => {
  it('is what the API schema checks, with empty meaning “none”', () => {
    expect(newsInput.safeParse({ title: 'a', content: 'b', link: 'javascript:alert(1)' }).success).toBe(false);
    expect(newsInput.safeParse({ title: 'a', content: 'b', imageUrl: 'data:image/png;base64,AA' }).success).toBe(false);
    expect(newsInput.safeParse({ title: 'a', content: 'b', link: '', imageUrl: null }).success).toBe(true);
    expect(newsInput.safeParse({ title: 'a' }).success).toBe(false);
    expect(newsUpdate.safeParse({ archived: true }).success).toBe(true);
  });
});

describe('RSS feed', () => {
  const channel = {
    title: 'Новини & <Кіберарена>',
    description: 'Опис',
    origin: 'https://arena.test',
    pagePath: '/news',
    feedPath: '/news/rss.xml',
    language: 'uk' as const,
    itemPath: (id: string) => `/news/${id}`,
    now: new Date('2025-01-01T00:00:00Z'),
  };

  it('escapes the five XML characters and drops characters XML forbids', () => {
    expect(escapeXml(`<a href="x">Tom & 'Jerry'</a>\u0001\u000b`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; &apos;Jerry&apos;&lt;/a&gt;');
    expect(escapeXml('ok\tok\nok')).toBe('ok\tok\nok');
    expect(escapeXml('a\ud800b')).toBe('ab');
    expect(escapeXml('🇺🇦')).toBe('🇺🇦');
  });

  it('lists the items with absolute links, RFC 822 dates and escaped text', () => {
    const xml = newsFeedXml(
      [
        { _id: 'n2', title: 'Друга <b>новина</b>', content: 'Текст & ще', date: '2025-03-02T10:00:00Z' },
        { _id: 'n1', title: 'Перша', content: 'Раз', date: '2025-03-01T10:00:00Z' },
      ],
      channel,
    );
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"')).toBe(true);
    expect(xml).toContain('<title>Новини &amp; &lt;Кіберарена&gt;</title>');
    expect(xml).toContain('<link>https://arena.test/news</link>');
    expect(xml).toContain('<atom:link href="https://arena.test/news/rss.xml" rel="self" type="application/rss+xml" />');
    expect(xml).toContain('<title>Друга &lt;b&gt;новина&lt;/b&gt;</title>');
    expect(xml).toContain('<link>https://arena.test/news/n2</link>');
    expect(xml).toContain('<guid isPermaLink="true">https://arena.test/news/n2</guid>');
    expect(xml).toContain('<pubDate>Sun, 02 Mar 2025 10:00:00 GMT</pubDate>');
    expect(xml).toContain('<lastBuildDate>Sun, 02 Mar 2025 10:00:00 GMT</lastBuildDate>');
    expect(xml).toContain('<description>Текст &amp; ще</description>');
    expect(xml.indexOf('/news/n2')).toBeLessThan(xml.indexOf('/news/n1'));
    expect(xml).not.toMatch(/<b>/);
  });

  it('names its language, and the English feed lives at ?lang=en', () => {
    expect(newsFeedXml([], channel)).toContain('<language>uk</language>');
    const xml = newsFeedXml([], { ...channel, title: 'Kiberarena news', language: 'en', feedPath: newsFeedPath('en') });
    expect(xml).toContain('<language>en</language>');
    expect(xml).toContain('<atom:link href="https://arena.test/news/rss.xml?lang=en" rel="self" type="application/rss+xml" />');
    expect(newsFeedPath('uk')).toBe('/news/rss.xml');
    expect([feedLocale('en', 'uk'), feedLocale('uk', 'en'), feedLocale(null, 'en'), feedLocale('de', 'uk')]).toEqual(['en', 'uk', 'en', 'uk']);
  });

  it('is a valid empty channel when there is no news', () => {
    const xml = newsFeedXml([], channel);
    expect(xml).toContain('<lastBuildDate>Wed, 01 Jan 2025 00:00:00 GMT</lastBuildDate>');
    expect(xml).not.toContain('<item>');
    expect(xml.trim().endsWith('</rss>')).toBe(true);
  });
});
