import { createHash, randomBytes } from 'node:crypto';
import { isApiKeySecret } from '../../../lib/domain/api-keys.ts';

/**
 * A fresh opaque token: 256 random bits, URL-safe. Never one that starts as an API key's secret
 * does (`ka_`, one draw in 262 144): the server takes such a bearer token for a key, so a session
 * given it would be refused on every request. `random` is the source of the bits (tests give one).
 */
export function newToken(random: (size: number) => Buffer = randomBytes): string {
  for (;;) {
    const token = random(32).toString('base64url');
    if (!isApiKeySecret(token)) return token;
  }
}

/** What the database keeps instead of a token, so a leaked table opens no session. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
