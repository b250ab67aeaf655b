import { describe, expect, it } from 'vitest';
import { isLinkOf, isValidSlug, mayChangeMember, organisationPowers, slugFromName } from '../../src/lib/domain/organisation.ts';

describe('an organisation’s slug', () => {
  it.each([
    ['Кіберклуб «Львів»', 'kiberklub-lviv'],
    ['Житомирська Федерація', 'zhytomyrska-federatsiia'],
    ['Щастя Ї', 'shchastia-i'],
    ['Odesa Storm', 'odesa-storm'],
    ['ПʼЯТНИЦЯ', 'piatnytsia'],
    ['Ａｌｐｈａ  Club!!', 'alpha-club'],
    ['★★★', ''],
  ])('is made from %j as %j', (name, slug) => {
    expect(slugFromName(name)).toBe(slug);
  });

  it('never ends in a hyphen when cut to the longest', () => {
    const slug = slugFromName(`${'a'.repeat(39)} b`);
    expect(slug).toBe('a'.repeat(39));
    expect(isValidSlug(slug)).toBe(true);
  });

  it.each(['ab', 'a'.repeat(41), 'Upper', '-start', 'end-', 'dou--ble', 'new', 'manage', 'suspended', 'під', 'a_b', '51ad00ed-2cc4-4edd-8409-0a8d71a69bee'])('refuses %j', (slug) => {
    expect(isValidSlug(slug)).toBe(false);
  });

  it.each(['abc', 'kiberklub-lviv', 'a1-b2-c3', 'a'.repeat(40)])('accepts %j', (slug) => {
    expect(isValidSlug(slug)).toBe(true);
  });
});

describe('an organisation’s links', () => {
  it.each([
    ['discord', 'https://discord.gg/abc', true],
    ['discord', 'https://discord.com/invite/abc', true],
    ['discord', 'https://discord.gg.evil.example/abc', false],
    ['discord', 'https://evildiscord.gg/abc', false],
    ['discord', 'http://discord.gg/abc', false],
    ['telegram', 'https://t.me/club', true],
    ['telegram', 'https://user@t.me/club', false],
    ['youtube', 'https://www.youtube.com/@club', true],
    ['youtube', 'https://youtu.be/x', true],
    ['twitch', 'https://www.twitch.tv/club', true],
    ['twitch', 'javascript:alert(1)', false],
    ['site', 'http://club.example', true],
    ['site', '//club.example', false],
    ['site', `https://club.example/${'a'.repeat(300)}`, false],
  ] as const)('%s: %j is %s', (kind, value, ok) => {
    expect(isLinkOf(kind, value)).toBe(ok);
  });
});

describe('who may change whom', () => {
  it('lets the owner change everyone but themselves, and hand ownership over', () => {
    expect(mayChangeMember('owner', 'admin', 'owner')).toBe(true);
    expect(mayChangeMember('owner', 'staff', null)).toBe(true);
    expect(mayChangeMember('owner', 'owner', 'admin')).toBe(false);
  });

  it('lets admins manage admins and staff, never the owner nor ownership', () => {
    expect(mayChangeMember('admin', 'staff', 'admin')).toBe(true);
    expect(mayChangeMember('admin', 'admin', null)).toBe(true);
    expect(mayChangeMember('admin', 'owner', 'staff')).toBe(false);
    expect(mayChangeMember('admin', 'staff', 'owner')).toBe(false);
  });

  it('lets staff and strangers change no one', () => {
    expect(mayChangeMember('staff', 'staff', null)).toBe(false);
    expect(mayChangeMember(null, 'staff', 'admin')).toBe(false);
  });

  it('gives each role its powers', () => {
    expect(organisationPowers('owner')).toEqual({ organise: true, manage: true, own: true });
    expect(organisationPowers('admin')).toEqual({ organise: true, manage: true, own: false });
    expect(organisationPowers('staff')).toEqual({ organise: true, manage: false, own: false });
    expect(organisationPowers(null)).toEqual({ organise: false, manage: false, own: false });
  });
});
