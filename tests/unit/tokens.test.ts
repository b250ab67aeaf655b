import { describe, expect, it } from 'vitest';
import { isApiKeySecret } from '../../src/lib/domain/api-keys.ts';
import { newToken } from '../../src/server/services/accounts/tokens.ts';

describe('newToken', () => {
  it('is 256 random bits, URL-safe', () => {
    const token = newToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(token);
  });

  it('draws again rather than give a session a token the server would take for an API key', () => {
    // 32 bytes whose base64url begins «ka_», as one draw in 262 144 does; then ordinary ones.
    const draws = [Buffer.from(`ka_${'A'.repeat(40)}`, 'base64url'), Buffer.alloc(32, 7)];
    expect(isApiKeySecret(draws[0]!.toString('base64url'))).toBe(true);
    const token = newToken((size) => {
      expect(size).toBe(32);
      return draws.shift()!;
    });
    expect(token).toBe(Buffer.alloc(32, 7).toString('base64url'));
    expect(isApiKeySecret(token)).toBe(false);
    expect(draws).toEqual([]);
  });
});
