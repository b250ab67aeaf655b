import sharp from 'sharp';
import { count, eq, isNull, and } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { images, teams, users } from '../../src/server/db/schema/index.ts';
import { imageDecodes, uploadsInFlight } from '../../src/server/services/content/images.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
async function upload(token: string, body: Buffer, name: string, type: string) {
  const form = new FormData();
  form.set('avatar', new Blob([new Uint8Array(body)], { type }), name);
  const response = await api.app.request('/api/cabinet/me', { method: 'PUT', body: form, headers: { authorization: `Bearer ${token}` } }, { clientAddress: '203.0.113.7' });
  const answer = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: answer, done: performance.now() };
}

/** Pictures no user or team points at. */
async function orphanCount(): Promise<number> {
  const [row] = await api.db
    .select({ n: count() })
    .from(images)
    .leftJoin(users, eq(users.avatarImageId, images.id))
    .leftJoin(teams, eq(teams.logoImageId, images.id))
    .where(and(isNull(users.id), isNull(teams.id)));
  return row?.n ?? 0;
}

describe('a burst of avatar uploads from one account', () => {
  it('refuses a 6300 × 6300 16-bit PNG from its header, keeps the rest, and leaves exactly one picture', { timeout: 60_000 }, async () => {
    // The 40 MP limit let this one in: about 90 MB of native memory to decode a file of a few hundred KB.
    const deep = await sharp({ create: { width: 6300, height: 6300, channels: 3, background: { r: 90, g: 120, b: 150 } } })
      .toColourspace('grey16')
      .png()
      .toBuffer();
    expect((await sharp(deep, { limitInputPixels: false }).metadata()).depth).toBe('ushort');
    // A 12 MP phone photo, the largest thing an avatar usually comes from.
    const photo = await sharp({ create: { width: 4032, height: 3024, channels: 3, background: { r: 40, g: 90, b: 160 } } })
      .jpeg({ quality: 80 })
      .toBuffer();
    const small = await sharp({ create: { width: 320, height: 240, channels: 4, background: { r: 200, g: 40, b: 90, alpha: 1 } } })
      .png()
      .toBuffer();

    // Alone, it is refused from its header, without a decode.
    const first = await api.signedIn();
    const decodesBefore = imageDecodes.runs;
    const started = performance.now();
    const alone = await upload(first.token, deep, 'deep.png', 'image/png');
    expect(alone.status).toBe(400);
    expect(alone.done - started).toBeLessThan(1000);
    expect(imageDecodes.runs).toBe(decodesBefore);

    const { token, user } = await api.signedIn();
    const allowed = Array.from({ length: 29 }, (_, i) =>
      i % 3 === 0 ? upload(token, photo, 'photo.jpg', 'image/jpeg') : upload(token, small, 'small.png', 'image/png'),
    );
    const [refused, ...rest] = await Promise.all([upload(token, deep, 'deep.png', 'image/png'), ...allowed]);

    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Зображення завелике для аватара: JPEG і WebP — до 24 Мп, PNG і GIF — до 2 Мп (16-бітні PNG — до 1 Мп)');
    for (const res of rest) expect([200, 429]).toContain(res.status);
    // Among them too: only the pictures that were kept were decoded.
    expect(imageDecodes.runs - decodesBefore).toBe(rest.filter((res) => res.status === 200).length);
    expect(rest.filter((res) => res.status === 200).length).toBeGreaterThan(0);

    const [row] = await api.db.select({ avatarImageId: users.avatarImageId }).from(users).where(eq(users.id, user.id));
    expect(row?.avatarImageId).not.toBeNull();
    const [own] = await api.db.select({ n: count() }).from(images).where(eq(images.id, row!.avatarImageId!));
    expect(own?.n).toBe(1);
    expect(await orphanCount()).toBe(0);
    // Uploads are handled, and pictures decoded, two at a time, whatever arrives at once.
    expect(uploadsInFlight.peak).toBe(2);
    expect(imageDecodes.peak).toBe(2);
  });
});
