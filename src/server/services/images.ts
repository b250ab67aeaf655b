import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { images } from '../db/schema/index.ts';
import { fail } from '../errors.ts';

/** Largest upload accepted, in bytes. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
/** Largest picture accepted, in pixels, so a tiny file cannot unpack into gigabytes. */
export const MAX_UPLOAD_PIXELS = 40_000_000;
/** Side of the stored square picture, in pixels. */
export const STORED_SIZE = 256;

const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);

/**
 * Checks an upload by its content (not its name or declared type), then crops it to a square,
 * re-encodes it as WebP (dropping metadata and anything hidden in the file) and returns it.
 */
export async function processUpload(file: Blob): Promise<{ data: Buffer; width: number; height: number }> {
  if (file.size === 0) fail(400, 'upload.empty');
  if (file.size > MAX_UPLOAD_BYTES) fail(413, 'upload.tooLarge');
  const input = Buffer.from(await file.arrayBuffer());
  let format: string | undefined;
  let pixels = 0;
  // sharp (libvips) is loaded with the first upload, not held by every server from its start.
  const { default: sharp } = await import('sharp');
  try {
    // Reading the header alone is cheap whatever it claims; the pixel limit is checked below.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
  } catch {
    fail(415, 'upload.notImage');
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) fail(415, 'upload.notImage');
  if (pixels > MAX_UPLOAD_PIXELS) fail(413, 'upload.tooManyPixels');
  try {
    const data = await sharp(input, { limitInputPixels: MAX_UPLOAD_PIXELS, animated: false })
      .rotate()
      .resize(STORED_SIZE, STORED_SIZE, { fit: 'cover' })
      .webp({ quality: 82 })
      .toBuffer();
    return { data, width: STORED_SIZE, height: STORED_SIZE };
  } catch {
    // Headers that look fine over a body that does not decode.
    fail(415, 'upload.notImage');
  }
}

/** Stores a processed picture and returns its id. */
export async function storeImage(db: Tx, picture: { data: Buffer; width: number; height: number }): Promise<string> {
  const etag = `"${createHash('sha256').update(picture.data).digest('base64url').slice(0, 27)}"`;
  const [row] = await db
    .insert(images)
    .values({ mime: 'image/webp', data: picture.data, etag, width: picture.width, height: picture.height })
    .returning({ id: images.id });
  if (!row) throw new Error('image insert returned nothing');
  return row.id;
}

export async function findImage(db: Tx, id: string) {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row ?? null;
}

export async function deleteImage(db: Tx, id: string): Promise<void> {
  await db.delete(images).where(eq(images.id, id));
}
