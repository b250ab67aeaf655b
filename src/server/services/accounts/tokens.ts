import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque token: 256 random bits, URL-safe. */
export const newToken = () => randomBytes(32).toString('base64url');

/** What the database keeps instead of a token, so a leaked table opens no session. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
