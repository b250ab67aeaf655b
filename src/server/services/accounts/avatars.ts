import { createHash } from 'node:crypto';
import { createAvatar } from '@dicebear/core';
// The one style used, not the whole collection (two dozen styles held in memory for nothing).
import * as initials from '@dicebear/initials';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { findImage } from '../content/images.ts';

/**
 * A generated avatar for a user without an upload: the same name always gives the same picture,
 * made offline (no avatar service is called).
 */
export function generatedAvatar(seed: string): { svg: string; etag: string } {
  const svg = createAvatar(initials, {
    seed,
    size: 128,
    radius: 50,
    fontWeight: 600,
    // Deep tones from the site's palette, readable under white letters in both themes.
    backgroundColor: ['3b5bdb', '7048e8', 'c2255c', '0b7285', '2b8a3e', 'e8590c', '5f3dc4', '1864ab'],
  }).toString();
  return { svg, etag: `"g-${createHash('sha256').update(svg).digest('base64url').slice(0, 22)}"` };
}

/** Where a user's avatar is served; the version changes with every upload, so it can be cached for long. */
export function avatarUrl(userId: string, imageId: string | null): string {
  return imageId ? `/api/avatar/${userId}?v=${imageId}` : `/api/avatar/${userId}`;
}

/** A user's avatar as served: their upload, or undefined `image` for a generated one; undefined for no such user. */
export async function findAvatar(db: Tx, userId: string) {
  const [user] = await db.select({ username: users.username, imageId: users.avatarImageId }).from(users).where(eq(users.id, userId));
  if (!user) return undefined;
  const image = user.imageId ? await findImage(db, user.imageId) : null;
  return { username: user.username, image };
}
