import { describe, expect, it } from 'vitest';
import { EMBEDDED_API_READS, EnvError, parseEnv, POSTGRES_API_READS } from '../../src/server/env.ts';

describe('environment', () => {
  it('has working defaults for a fresh machine', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: 'localhost', DATA_DIR: './data', SESSION_TTL_DAYS: 30, TRUST_PROXY: 0, CONCURRENT_READS: 6, apiReads: EMBEDDED_API_READS, seedDemo: true, siteUrl: 'http://localhost:4321' });
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

  it('reads TRUST_PROXY as a yes or no (one proxy or none) or as a number of proxies', () => {
    expect(parseEnv({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(1);
    expect(parseEnv({ TRUST_PROXY: 'no' }).TRUST_PROXY).toBe(0);
    expect(parseEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(() => parseEnv({ TRUST_PROXY: '-1' })).toThrow(EnvError);
    expect(() => parseEnv({ TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
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
