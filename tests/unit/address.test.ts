import { describe, expect, it } from 'vitest';
import { isExternalAddress, isHttpAddress, isSafeAddress, pictureSrc, returnPath, signInPath } from '../../src/lib/domain/address.ts';

describe('picture and link addresses (news, games, tournaments)', () => {
  it('allows http(s) addresses and paths on this site', () => {
    for (const url of ['https://example.com', 'http://example.com/a.jpg?x=1#y', 'HTTPS://EXAMPLE.COM', '/news/1.jpg', '/', 'https://uk.wikipedia.org/wiki/Кіберспорт']) {
      expect(isSafeAddress(url), url).toBe(true);
    }
  });

  it('refuses scripts, data, other schemes, protocol-relative and odd addresses', () => {
    for (const url of [
      '',
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'java\tscript:alert(1)',
      'data:image/png;base64,AAAA',
      'vbscript:x',
      'ftp://example.com',
      'mailto:a@b.test',
      '//evil.example',
      '/\\evil.example',
      'https:evil.example',
      'https://',
      'news/1.jpg',
      'https://exa mple.com',
      '/path\nwith-newline',
      `https://example.com/${'a'.repeat(2048)}`,
    ]) {
      expect(isSafeAddress(url), JSON.stringify(url)).toBe(false);
    }
  });

  it('keeps a game picture on this site or elsewhere, never one with a backslash', () => {
    expect(isSafeAddress('http://x.test/a.jpg')).toBe(true);
    expect(isSafeAddress('/a\\b')).toBe(false);
  });
});

describe('absolute http(s) addresses (team logos, links in text)', () => {
  it('accepts absolute http and https links only', () => {
    expect(isHttpAddress('https://example.com/logo.png')).toBe(true);
    expect(isHttpAddress('HTTP://example.com/a')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/teams/1.png', 'ftp://x.y/z', 'https://', 'example.com/logo.png', '']) {
      expect(isHttpAddress(bad), bad).toBe(false);
    }
  });
});

describe('external addresses', () => {
  it('are the absolute ones; a path on this site is not', () => {
    expect(isExternalAddress('https://example.com')).toBe(true);
    expect(isExternalAddress('/news/1')).toBe(false);
  });
});

describe('a stored picture in a page', () => {
  it('is shown when either rule let it be saved, so a team logo shows alike on every page', () => {
    // A logo link is saved by isHttpAddress, which takes a space that isSafeAddress refuses.
    expect(pictureSrc('https://cdn.example/odesa storm.png')).toBe('https://cdn.example/odesa storm.png');
    expect(pictureSrc('/api/avatar/p1')).toBe('/api/avatar/p1');
    expect([pictureSrc('javascript:alert(1)'), pictureSrc('data:image/png;base64,AA'), pictureSrc('//evil.example/x.png'), pictureSrc(null)]).toEqual([null, null, null, null]);
  });
});

describe('the way back after signing in', () => {
  it('is a path on this site, with its query and fragment', () => {
    expect(returnPath('/tournaments/0175848a-0223-426f-b768-ec4fe056fb8a#apply')).toBe('/tournaments/0175848a-0223-426f-b768-ec4fe056fb8a#apply');
    expect(returnPath('/games/all?page=2')).toBe('/games/all?page=2');
  });

  it('is nothing for another site, a script, a backslash or nothing at all', () => {
    for (const value of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', 'tournaments/1', '/a b', '/\tx', '', null, undefined]) {
      expect(returnPath(value), String(value)).toBeNull();
    }
  });

  it('travels in the sign-in page\'s address, encoded, and comes back whole', () => {
    const path = '/tournaments/1?x=1&y=2#apply';
    const address = signInPath(path);
    expect(address).toBe('/login?next=%2Ftournaments%2F1%3Fx%3D1%26y%3D2%23apply');
    expect(returnPath(new URL(address, 'http://site.test').searchParams.get('next'))).toBe(path);
    expect(signInPath('/tournaments/1', '/register')).toBe('/register?next=%2Ftournaments%2F1');
  });
});
