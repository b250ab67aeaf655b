import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { default as Sharp } from 'sharp';
import type { Tx } from '../../db/client.ts';
import { images } from '../../db/schema/index.ts';
import { turns } from '../turns.ts';
import { MAX_UPLOAD_BYTES } from '../../../lib/api/limits.ts';

/**
 * Largest JPEG or WebP accepted, in pixels: a 24 MP camera or phone photo. Both are decoded
 * already shrunk (an eighth of each side for a 256 px square), so even the largest costs a few MB.
 */
export const MAX_PHOTO_PIXELS = 24_000_000;
/**
 * Largest PNG or GIF accepted, in pixels: these are decoded whole (5–7 MB a megapixel), so the
 * limit is what a 256 px avatar needs, not what a file can claim. A 16-bit PNG holds twice the
 * bytes per pixel and may have half as many.
 */
export const MAX_PICTURE_PIXELS = 2_000_000;
/** Side of the stored square picture, in pixels. */
export const STORED_SIZE = 256;
/**
 * Pictures decoded at once in this process; the others wait their turn. Decoding is native memory
 * outside the heap limit: two at a time keep a burst of uploads within the server's memory bound.
 */
export const DECODES_AT_ONCE = 2;

const ACCEPTED_FORMATS = new Set(['png', 'jpeg', 'webp', 'gif']);
const SHRUNK_ON_LOAD = new Set(['jpeg', 'webp']);

/**
 * Uploads handled at once in this process; the others wait, in order, before their body is read.
 * A multipart body is held three or four times over while it is parsed and decoded (a 2 MB file
 * costs about 7 MB), so uploads in flight are bounded too, not only decodes.
 */
export const UPLOADS_AT_ONCE = 2;

/** Every decode in this process waits here for one of its `DECODES_AT_ONCE` places. */
export const imageDecodes = turns(DECODES_AT_ONCE);
/** Every upload request waits here, before its body is read, for one of `UPLOADS_AT_ONCE` places. */
export const uploadsInFlight = turns(UPLOADS_AT_ONCE);

/** The most pixels a picture of this format and sample depth may have (a PNG or GIF at most `pictureMax`). */
export function pixelLimit(format: string, bitsPerSample: number, pictureMax = MAX_PICTURE_PIXELS): number {
  if (SHRUNK_ON_LOAD.has(format)) return MAX_PHOTO_PIXELS;
  return bitsPerSample > 8 ? pictureMax / 2 : pictureMax;
}

const megapixels = (pixels: number) => String(pixels / 1_000_000).replace('.', ',');

/** The pixel limits as the refusal `upload.tooManyPixels` names them. */
export const PIXEL_LIMITS_TEXT = {
  photo: megapixels(MAX_PHOTO_PIXELS),
  picture: megapixels(MAX_PICTURE_PIXELS),
  deep: megapixels(MAX_PICTURE_PIXELS / 2),
};

let loaded: Promise<typeof Sharp> | undefined;
/**
 * sharp (libvips) is loaded with the first upload, not held by every server from its start. Its
 * operation cache would keep recent decodes (up to 50 MB) for a repeat that never comes, and one
 * thread per decode is enough when two decodes share two cores.
 */
function loadSharp() {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}

/** A checked, resized and re-encoded picture, ready to store. */
export type ProcessedImage = { data: Buffer; width: number; height: number };

/** Why an upload is not a picture we keep: empty, over `MAX_UPLOAD_BYTES`, not a picture, or too many pixels. */
export type UploadRefusal = 'empty' | 'tooLarge' | 'notImage' | 'tooManyPixels';

/**
 * What a kind of upload becomes: an avatar or logo is cropped to a `STORED_SIZE` square; a match's
 * screenshot (issue 58) must stay readable, so it keeps its shape, shrunk only to fit `longSide`.
 */
export interface PictureShape {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The most pixels a PNG or GIF (decoded whole) may have; a 16-bit PNG half as many. */
  pictureMaxPixels: number;
  /** `square`: cropped to `size` × `size`; `within`: shrunk (never enlarged) to fit `size` on its long side. */
  fit: 'square' | 'within';
  size: number;
  quality: number;
}

/** An avatar or a team's logo: a 256 px square. */
export const AVATAR_SHAPE: PictureShape = { maxBytes: MAX_UPLOAD_BYTES, pictureMaxPixels: MAX_PICTURE_PIXELS, fit: 'square', size: STORED_SIZE, quality: 82 };

/**
 * Checks an upload by its content (not its name or declared type), then crops or shrinks it as
 * `shape` says, re-encodes it as WebP (dropping metadata and anything hidden in the file) and
 * returns it. An avatar's unless told otherwise.
 */
export async function processUpload(file: Blob, shape: PictureShape = AVATAR_SHAPE): Promise<ProcessedImage | UploadRefusal> {
  if (file.size === 0) return 'empty';
  if (file.size > shape.maxBytes) return 'tooLarge';
  const input = Buffer.from(await file.arrayBuffer());
  let format: string | undefined;
  let pixels = 0;
  let bitsPerSample = 8;
  const sharp = await loadSharp();
  try {
    // Reading the header alone is cheap whatever it claims, so it does not wait for a turn: a
    // picture over the limit is refused at once, however many decodes are queued.
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    format = meta.format;
    pixels = (meta.width ?? 0) * (meta.height ?? 0);
    if (meta.depth !== 'uchar' && meta.depth !== 'char') bitsPerSample = 16;
  } catch {
    return 'notImage';
  }
  if (!format || !ACCEPTED_FORMATS.has(format)) return 'notImage';
  const limit = pixelLimit(format, bitsPerSample, shape.pictureMaxPixels);
  if (pixels > limit) return 'tooManyPixels';
  try {
    const { data, info } = await imageDecodes.run(() =>
      sharp(input, { limitInputPixels: limit, animated: false })
        .rotate()
        .resize(shape.size, shape.size, shape.fit === 'square' ? { fit: 'cover' } : { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: shape.quality })
        .toBuffer({ resolveWithObject: true }),
    );
    return { data, width: info.width, height: info.height };
  } catch {
    // Headers that look fine over a body that does not decode.
    return 'notImage';
  }
}

/** Stores a processed picture and returns its id. */
export async function storeImage(db: Tx, picture: ProcessedImage): Promise<string> {
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
