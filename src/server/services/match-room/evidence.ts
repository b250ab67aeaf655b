/**
 * A match's screenshots (issue 58, decision 038): pictures that back a report or a dispute, added
 * and seen by the room's people only (people.ts) — never by a guest, never on a public answer.
 *
 * A picture is checked and re-encoded as an avatar is (content/images.ts), but keeps its shape and
 * enough pixels to be read: WebP, at most `EVIDENCE_LONG_SIDE` on its long side. One upload brings
 * up to `EVIDENCE_FILES_MAX` pictures and keeps all of them or none; a match holds at most
 * `EVIDENCE_PER_MATCH_MAX`, counted under a lock on the match's row, so a burst of uploads cannot
 * pass it. A side adds them from the moment both opponents are known, also after the result (a
 * dispute comes after it), until the tournament is finished; its organisers at any time.
 */
import { and, asc, count, eq } from 'drizzle-orm';
import { EVIDENCE_FILE_BYTES, EVIDENCE_PER_MATCH_MAX } from '../../../lib/api/limits.ts';
import type { Evidence } from '../../../lib/api/match-evidence.ts';
import type { Slot } from '../../../lib/domain/stage/format.ts';
import { isFinished } from '../../../lib/domain/tournament-status.ts';
import type { Database, Tx } from '../../db/client.ts';
import { images, matchEvidence, stageMatches, users } from '../../db/schema/index.ts';
import { lockedView } from '../competition/stages/match-changes.ts';
import { MAX_PHOTO_PIXELS, type PictureShape, type ProcessedImage, processUpload, storeImage, type UploadRefusal } from '../content/images.ts';
import { publishTournament } from '../live/live.ts';
import type { Limit, RateLimiter } from '../rate-limit.ts';
import { turns } from '../turns.ts';
import type { RoomPerson } from './people.ts';

/** The long side of a stored screenshot, in pixels: a Full HD screen's, readable on any phone. */
export const EVIDENCE_LONG_SIDE = 1920;
/**
 * The most pixels a PNG or GIF screenshot may have: a 4K screen's (3840 × 2160). These are decoded
 * whole (5–7 MB a megapixel, about 55 MB at most), unlike an avatar's 2 MP; JPEG and WebP keep the
 * photo limit, decoded already shrunk.
 */
export const SCREENSHOT_PIXELS = 3840 * 2160;

/** What a screenshot becomes: its own shape, shrunk to fit 1920 px, WebP. */
export const EVIDENCE_SHAPE: PictureShape = {
  maxBytes: EVIDENCE_FILE_BYTES,
  pictureMaxPixels: SCREENSHOT_PIXELS,
  fit: 'within',
  size: EVIDENCE_LONG_SIDE,
  quality: 85,
};

const megapixels = (pixels: number) => String(Math.round(pixels / 100_000) / 10).replace('.', ',');

/** The pixel limits as the refusal `evidence.fileTooManyPixels` names them. */
export const EVIDENCE_PIXEL_LIMITS_TEXT = {
  photo: megapixels(MAX_PHOTO_PIXELS),
  picture: megapixels(SCREENSHOT_PIXELS),
  deep: megapixels(SCREENSHOT_PIXELS / 2),
};

/**
 * Evidence uploads handled at once in this process, before their body is read, and each then
 * waits for an upload's turn too (content/images.ts `uploadsInFlight`). Its body is up to ten
 * avatars' (four pictures of 5 MB, held three or four times over while parsed), so one at a time.
 */
export const evidenceUploads = turns(1);

/** Uploads one person may make in an hour (each up to four pictures). */
const EVIDENCE_LIMIT: Limit = { max: 20, windowSeconds: 60 * 60 };

/** A person of the room, as `roomPerson` found them. */
export type RoomMember = Extract<RoomPerson, { ok: true }>;

export type EvidenceAdded =
  | { ok: true; evidence: Evidence[]; tournamentId: string }
  | { ok: false; reason: 'notReady' | 'finished' }
  | { ok: false; reason: 'full'; held: number }
  | { ok: false; reason: 'tooMany'; retryAfter: number }
  /** `file`: which of the upload's pictures (from 1) was refused, and why. */
  | { ok: false; reason: 'upload'; upload: UploadRefusal; file: number };

/** Why the room's person may not add evidence now: a side before both opponents are known, or once the tournament is finished. */
export function evidenceClosed(room: RoomMember): 'notReady' | 'finished' | null {
  if (room.organiser) return null;
  if (isFinished(room.found.tournament.status)) return 'finished';
  return lockedView(room.found).match.status === 'waiting' ? 'notReady' : null;
}

async function heldBy(db: Tx, matchId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(matchEvidence).where(eq(matchEvidence.matchId, matchId));
  return row?.n ?? 0;
}

/**
 * `POST /api/matches/{id}/evidence`: the room's person adds `files` (1–4, the route counted them).
 * Every refusal comes before anything is written; the pictures are decoded one after another,
 * then stored together in one transaction with the count that keeps the match within its limit.
 */
export async function addEvidence(
  env: { db: Database; limits: RateLimiter },
  matchId: string,
  room: RoomMember,
  userId: string,
  files: readonly Blob[],
): Promise<EvidenceAdded> {
  const { db, limits } = env;
  const closed = evidenceClosed(room);
  if (closed) return { ok: false, reason: closed };
  const before = await heldBy(db, matchId);
  if (before + files.length > EVIDENCE_PER_MATCH_MAX) return { ok: false, reason: 'full', held: before };
  const limit = await limits.hit(`evidence:user:${userId}`, EVIDENCE_LIMIT);
  if (!limit.allowed) return { ok: false, reason: 'tooMany', retryAfter: limit.retryAfter };

  const pictures: ProcessedImage[] = [];
  for (const [i, file] of files.entries()) {
    const processed = await processUpload(file, EVIDENCE_SHAPE);
    if (typeof processed === 'string') return { ok: false, reason: 'upload', upload: processed, file: i + 1 };
    pictures.push(processed);
  }

  const slot: Slot | null = room.slot;
  const stored = await db.transaction(async (tx): Promise<{ full: number } | { ids: string[] }> => {
    // Uploads to one match take turns here: the count below is the one they are held to.
    await tx.select({ id: stageMatches.id }).from(stageMatches).where(eq(stageMatches.id, matchId)).for('no key update');
    const held = await heldBy(tx, matchId);
    if (held + pictures.length > EVIDENCE_PER_MATCH_MAX) return { full: held };
    // An upload's pictures keep their order: each a millisecond after the one before.
    const now = Date.now();
    const rows: (typeof matchEvidence.$inferInsert)[] = [];
    for (const [i, picture] of pictures.entries()) rows.push({ matchId, userId, slot, imageId: await storeImage(tx, picture), createdAt: new Date(now + i) });
    const written = await tx.insert(matchEvidence).values(rows).returning({ id: matchEvidence.id });
    return { ids: written.map((row) => row.id) };
  });
  if ('full' in stored) return { ok: false, reason: 'full', held: stored.full };
  const all = await listEvidence(db, matchId);
  const added = new Set(stored.ids);
  // The room's people read their list again; the event names the match, never a picture.
  publishTournament({ tournamentId: room.found.tournament.id, kind: 'evidence', matchId });
  return { ok: true, evidence: all.filter((item) => added.has(item._id)), tournamentId: room.found.tournament.id };
}

/** The picture's address under the site, read with a token. */
const urlOf = (matchId: string, evidenceId: string) => `/api/matches/${matchId}/evidence/${evidenceId}`;

/** `GET /api/matches/{id}/evidence`: the match's pictures, oldest first (the route checked the reader is of the room). */
export async function listEvidence(db: Tx, matchId: string): Promise<Evidence[]> {
  const rows = await db
    .select({
      id: matchEvidence.id,
      width: images.width,
      height: images.height,
      userId: users.id,
      username: users.username,
      slot: matchEvidence.slot,
      createdAt: matchEvidence.createdAt,
    })
    .from(matchEvidence)
    .innerJoin(images, eq(images.id, matchEvidence.imageId))
    .leftJoin(users, eq(users.id, matchEvidence.userId))
    .where(eq(matchEvidence.matchId, matchId))
    .orderBy(asc(matchEvidence.createdAt), asc(matchEvidence.id));
  return rows.map((row) => ({
    _id: row.id,
    url: urlOf(matchId, row.id),
    width: row.width,
    height: row.height,
    uploader: row.userId && row.username ? { _id: row.userId, username: row.username } : null,
    slot: row.slot,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** `GET /api/matches/{id}/evidence/{evidenceId}`: the stored picture, if it is this match's. */
export async function findEvidencePicture(db: Tx, matchId: string, evidenceId: string) {
  const [row] = await db
    .select({ mime: images.mime, data: images.data, etag: images.etag })
    .from(matchEvidence)
    .innerJoin(images, eq(images.id, matchEvidence.imageId))
    .where(and(eq(matchEvidence.id, evidenceId), eq(matchEvidence.matchId, matchId)));
  return row ?? null;
}
