import { describe, expect, it } from 'vitest';
import { EMBEDDED_API_READS, EnvError, parseEnv, POSTGRES_API_READS } from '../../src/server/env.ts';

describe('environment', () => {
  it('has working defaults for a fresh machine', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: 'localhost', DATA_DIR: './data', SESSION_TTL_DAYS: 30, CONCURRENT_READS: 6, apiReads: EMBEDDED_API_READS, seedDemo: true, siteUrl: 'http://localhost:4321' });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('lets more API reads in at once on PostgreSQL than on the embedded database, unless told', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).apiReads).toBe(POSTGRES_API_READS);
    expect(parseEnv({ CONCURRENT_READS: '4' }).apiReads).toBe(EMBEDDED_API_READS);
    expect(parseEnv({ CONCURRENT_API_READS: '9' }).apiReads).toBe(9);
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', CONCURRENT_API_READS: '3' }).apiReads).toBe(3);
  });

  it('leaves a real PostgreSQL without demo data unless asked', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(parseEnv({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('takes links in letters from SITE_URL, or else from the address the server listens on', () => {
    expect(parseEnv({ SITE_URL: 'https://kiberarena.ua/' }).siteUrl).toBe('https://kiberarena.ua');
    expect(parseEnv({ HOST: '0.0.0.0', PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
    expect(parseEnv({ HOST: '::1' }).siteUrl).toBe('http://[::1]:4321');
    expect(parseEnv({ HOST: '192.168.1.20' }).siteUrl).toBe('http://192.168.1.20:4321');
  });

  it('trusts no proxy unless told: every forwarded header is the client\'s own', () => {
    for (const none of [{}, { TRUST_PROXY: 'false' }, { TRUST_PROXY: 'no' }, { TRUST_PROXY: '0' }, { TRUST_PROXY: '' }]) {
      const trust = parseEnv(none).TRUST_PROXY;
      for (const address of ['127.0.0.1', '::1', '10.0.0.2', '203.0.113.9']) expect(trust(address, 0), `${JSON.stringify(none)} ${address}`).toBe(false);
    }
  });

  it('reads true as a proxy on this machine (loopback) and nothing else', () => {
    const trust = parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY;
    expect([trust('127.0.0.1', 0), trust('127.8.9.10', 0), trust('::1', 0), trust('::ffff:127.0.0.1', 0)]).toEqual([true, true, true, true]);
    expect([trust('10.0.0.2', 0), trust('203.0.113.9', 0), trust('2001:db8::1', 0)]).toEqual([false, false, false]);
    expect(parseEnv({ TRUST_PROXY: 'yes' }).TRUST_PROXY('::1', 0)).toBe(true);
  });

  it('reads a comma list of addresses, networks and the names loopback, linklocal, uniquelocal', () => {
    const trust = parseEnv({ TRUST_PROXY: ' 10.0.0.0/8, 198.51.100.7 ,2001:db8:ff::/48,loopback' }).TRUST_PROXY;
    for (const ours of ['10.1.2.3', '198.51.100.7', '2001:db8:ff:1::5', '127.0.0.1', '::ffff:10.0.0.1']) expect(trust(ours, 0), ours).toBe(true);
    for (const stranger of ['11.0.0.1', '198.51.100.8', '2001:db8:fe::1', '192.168.1.1']) expect(trust(stranger, 0), stranger).toBe(false);
    const names = parseEnv({ TRUST_PROXY: 'linklocal,uniquelocal' }).TRUST_PROXY;
    for (const ours of ['169.254.1.1', 'fe80::1', '10.0.0.1', '172.16.5.5', '192.168.1.1', 'fd00::1']) expect(names(ours, 0), ours).toBe(true);
    expect(names('127.0.0.1', 0)).toBe(false);
  });

  it('refuses a number of proxies, saying to list their addresses', () => {
    for (const count of ['1', '2', '10']) {
      expect(() => parseEnv({ TRUST_PROXY: count })).toThrow(EnvError);
      expect(() => parseEnv({ TRUST_PROXY: count })).toThrow(/TRUST_PROXY: .*перелічіть через кому адреси або мережі ваших проксі/);
    }
  });

  it('refuses what is not an address, a network or a name, naming each wrong entry', () => {
    for (const junk of ['maybe', '-1', '10.0.0.0/33', '10.0.0.0/0', '::/0', '300.1.1.1', '127.0.0.1:8080', 'loopback, localhost', ',', 'http://10.0.0.1']) {
      expect(() => parseEnv({ TRUST_PROXY: junk }), junk).toThrow(EnvError);
    }
    expect(() => parseEnv({ TRUST_PROXY: '10.0.0.1, nginx, 10.0.0.0/99' })).toThrow(/TRUST_PROXY: «nginx».*\n.*TRUST_PROXY: «10\.0\.0\.0\/99»/);
  });

  it('names no venue network unless told: every address is counted per address', () => {
    for (const none of [{}, { TRUSTED_VENUE_NETWORKS: '' }]) {
      const venue = parseEnv(none).TRUSTED_VENUE_NETWORKS;
      for (const address of ['192.168.1.10', '10.0.0.2', '203.0.113.9', '2001:db8::1']) expect(venue(address), `${JSON.stringify(none)} ${address}`).toBe(false);
    }
  });

  it('reads a comma list of venue addresses and networks, an IPv4-mapped address as its IPv4 one', () => {
    const venue = parseEnv({ TRUSTED_VENUE_NETWORKS: ' 192.168.0.0/16, 198.51.100.7 ,2001:db8:ab::/48,10.0.0.0/8' }).TRUSTED_VENUE_NETWORKS;
    for (const inside of ['192.168.44.2', '198.51.100.7', '2001:db8:ab:1::5', '10.200.3.4', '::ffff:192.168.1.1']) expect(venue(inside), inside).toBe(true);
    for (const outside of ['192.169.0.1', '198.51.100.8', '2001:db8:ac::1', '11.0.0.1', '127.0.0.1', '::1', 'unknown']) expect(venue(outside), outside).toBe(false);
  });

  it('refuses what is not an address or a network, naming each wrong entry in Ukrainian', () => {
    for (const junk of ['maybe', 'loopback', 'uniquelocal', '300.1.1.1', '10.0.0.0/33', '10.0.0.0/x', '10.0.0.0/8/8', '127.0.0.1:8080', 'http://10.0.0.1', ',', ' , ', '2001:db8::/129', 'venue.example']) {
      expect(() => parseEnv({ TRUSTED_VENUE_NETWORKS: junk }), junk).toThrow(EnvError);
    }
    expect(() => parseEnv({ TRUSTED_VENUE_NETWORKS: '10.0.0.1, club, 10.0.0.0/99' })).toThrow(
      /TRUSTED_VENUE_NETWORKS: «club» — не IP-адреса і не мережа \(CIDR\).*\n.*TRUSTED_VENUE_NETWORKS: «10\.0\.0\.0\/99» — не IP-адреса/,
    );
    expect(() => parseEnv({ TRUSTED_VENUE_NETWORKS: ',' })).toThrow(/TRUSTED_VENUE_NETWORKS: перелічіть через кому адреси або мережі \(CIDR\) залів/);
  });

  it('refuses a network wider than a venue (an IPv4 /8, an IPv6 /32) and one holding loopback', () => {
    for (const wide of ['0.0.0.0/0', '100.64.0.0/7', '::/0', '2001:db8::/31']) {
      expect(() => parseEnv({ TRUSTED_VENUE_NETWORKS: wide }), wide).toThrow(/TRUSTED_VENUE_NETWORKS: «.*» — мережа ширша за \/(8|32)/);
    }
    for (const loopback of ['127.0.0.1', '127.0.0.0/8', '::1', '::/32']) {
      expect(() => parseEnv({ TRUSTED_VENUE_NETWORKS: loopback }), loopback).toThrow(/TRUSTED_VENUE_NETWORKS: «.*» містить loopback/);
    }
    expect(parseEnv({ TRUSTED_VENUE_NETWORKS: '100.0.0.0/8, 2001:db8::/32' }).TRUSTED_VENUE_NETWORKS('100.64.1.1')).toBe(true);
  });

  it('has web push off unless PUSH_SUBJECT names a mailto: address or an https: page to reach the operator at (issue 60)', () => {
    expect(parseEnv({}).PUSH_SUBJECT).toBeUndefined();
    for (const subject of ['mailto:ops@kiberarena.ua', 'https://kiberarena.ua/contact']) expect(parseEnv({ PUSH_SUBJECT: subject }).PUSH_SUBJECT).toBe(subject);
    for (const subject of ['ops@kiberarena.ua', 'mailto:nobody', 'http://kiberarena.ua', 'https://localhost/contact', 'ftp://kiberarena.ua']) {
      expect(() => parseEnv({ PUSH_SUBJECT: subject }), subject).toThrow(/PUSH_SUBJECT: має бути mailto:/);
    }
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(4321);
  });

  it('lists every wrong variable at once', () => {
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'short', SEED_DEMO: 'maybe', CONCURRENT_READS: '0', CONCURRENT_API_READS: '-1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO', 'CONCURRENT_READS', 'CONCURRENT_API_READS']) expect(message).toContain(name);
    }
  });
});
