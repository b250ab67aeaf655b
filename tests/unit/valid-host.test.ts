import { describe, expect, it } from 'vitest';
import { validHost } from '../../src/server/transport.ts';

describe('validHost (the Host header the app may build its address from)', () => {
  it('takes names, IPv4 and bracketed IPv6 addresses, with or without a port', () => {
    for (const host of ['kiberarena.ua', 'localhost:4321', '127.0.0.1', '[::1]', '[::1]:4321', 'app_1.internal:4001', 'XN--80AKHBYKNJ4F.XN--J1AMH']) {
      expect(validHost(host), host).toBe(true);
    }
  });

  it('refuses credentials, broken brackets, emptiness, spaces, paths and impossible ports', () => {
    for (const host of ['a@b', '[::1', '', ' ', 'a b', 'a/b', 'a,b', 'a:b:c', 'arena.test:99999', '[:::::]', '-a', 'exаmple.com', undefined, null]) {
      expect(validHost(host), String(host)).toBe(false);
    }
  });
});
