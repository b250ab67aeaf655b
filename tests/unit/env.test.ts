import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '../../src/server/env.ts';

describe('environment', () => {
  it('has working defaults for a fresh machine', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({ PORT: 4321, HOST: 'localhost', DATA_DIR: './data', SESSION_TTL_DAYS: 30, TRUST_PROXY: false, CONCURRENT_READS: 4, seedDemo: true });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('leaves a real PostgreSQL without demo data unless asked', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db' }).seedDemo).toBe(false);
    expect(parseEnv({ DATABASE_URL: 'postgres://u@h/db', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(parseEnv({ SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ DATABASE_URL: '', PORT: '' }).PORT).toBe(4321);
  });

  it('lists every wrong variable at once', () => {
    try {
      parseEnv({ PORT: 'eighty', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'short', SEED_DEMO: 'maybe', CONCURRENT_READS: '0' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(EnvError);
      const message = (error as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'SEED_DEMO', 'CONCURRENT_READS']) expect(message).toContain(name);
    }
  });
});
