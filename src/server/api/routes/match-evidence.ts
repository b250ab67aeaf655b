import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { EVIDENCE_FILE_BYTES, EVIDENCE_FILES_MAX, EVIDENCE_PER_MATCH_MAX } from '../../../lib/api/limits.ts';
import { evidenceAnswer, evidenceListSchema } from '../../../lib/api/match-evidence.ts';
import { t } from '../../../lib/i18n/index.ts';
import { PRIVATE_READ } from '../caching.ts';
import { type AppEnv, type GuardedVars, pathGuard } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import { uploadsInFlight } from '../../services/content/images.ts';
import {
  addEvidence,
  EVIDENCE_LONG_SIDE,
  EVIDENCE_PIXEL_LIMITS_TEXT,
  evidenceUploads,
  findEvidencePicture,
  listEvidence,
  type RoomMember,
} from '../../services/match-room/evidence.ts';
import { roomPerson } from '../../services/match-room/people.ts';
import { errors, jsonResponse, router, userRoute } from '../openapi.ts';

const tags = ['Кімната матчу'];
const params = z.object({ id: z.uuid() });
const MB = EVIDENCE_FILE_BYTES / (1024 * 1024);

/** The caller belongs in the match's room (a side's person or an organiser): 404 for no match, 403 for anyone else, before the body is read. */
async function requireRoomPerson({ db, auth }: GuardedVars, matchId: string): Promise<RoomMember> {
  const room = await roomPerson(db, matchId, auth.user);
  if (!room.ok && room.reason === 'notFound') fail(404, 'match.notFound');
  if (!room.ok) fail(403, 'evidence.outsider');
  return room;
}

const roomOnly = pathGuard('id', 'room', requireRoomPerson);

/** An evidence upload waits for its own turn, then an upload's, before its body is read (services/match-room/evidence.ts). */
const evidenceTurn = createMiddleware<AppEnv>(async (c, next) => {
  if ((c.req.header('content-type') ?? '').startsWith('multipart/form-data')) await evidenceUploads.run(() => uploadsInFlight.run(next));
  else await next();
});

const file = z.instanceof(File).openapi({ type: 'string', format: 'binary' });
const evidenceForm = z.object({
  files: z.union([file, z.array(file)]).openapi({ description: `Знімки: поле files, повторене для кожного (1–${EVIDENCE_FILES_MAX})` }),
});

/** How a refused picture is answered; `{n}` names which of the upload's it was. */
const UPLOAD_REFUSALS = {
  empty: [400, 'evidence.fileEmpty'],
  tooLarge: [413, 'evidence.fileTooLarge'],
  notImage: [415, 'evidence.fileNotImage'],
  tooManyPixels: [400, 'evidence.fileTooManyPixels'],
} as const;

/** Mounted at /matches: a match's screenshots (issue 58), for its two sides and its organisers only. */
export const matchEvidenceRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/evidence',
        tags,
        summary:
          `Додати скриншоти до матчу (multipart, поле files, повторене для кожного знімка): 1–${EVIDENCE_FILES_MAX} зображення PNG, JPEG, WebP чи GIF до ${MB} МБ кожне, ` +
          `перекодовані у WebP до ${EVIDENCE_LONG_SIDE} px за довшою стороною; збережено всі або жодного. У матчі — до ${EVIDENCE_PER_MATCH_MAX} знімків (більше — 409). ` +
          'Лише сторони матчу (гравець чи будь-хто з команди) — коли обидва суперники відомі й доки турнір не завершено — та організатори турніру будь-коли; іншим 403',
        request: { params, body: { required: true, content: { 'multipart/form-data': { schema: evidenceForm } } } },
        responses: { 201: jsonResponse(evidenceAnswer, 'Скриншоти додано'), ...errors(400, 401, 403, 404, 409, 413, 415, 429) },
      },
      roomOnly,
      evidenceTurn,
    ),
    async (c) => {
      const { files } = c.req.valid('form');
      const list = Array.isArray(files) ? files : [files];
      if (list.length > EVIDENCE_FILES_MAX) fail(400, 'evidence.tooManyFiles', { max: EVIDENCE_FILES_MAX });
      const { limits } = c.get('deps');
      const done = await addEvidence({ db: c.get('db'), limits }, c.req.valid('param').id, c.var.room, c.var.auth.user.id, list);
      if (!done.ok) {
        if (done.reason === 'tooMany') failTooMany('upload.tooMany', done.retryAfter);
        if (done.reason === 'full') fail(409, 'evidence.full', { count: done.held, max: EVIDENCE_PER_MATCH_MAX });
        if (done.reason === 'upload') {
          const [status, key] = UPLOAD_REFUSALS[done.upload];
          fail(status, key, { n: done.file, mb: MB, ...EVIDENCE_PIXEL_LIMITS_TEXT });
        }
        fail(409, done.reason === 'finished' ? 'evidence.finished' : 'evidence.notReady');
      }
      return c.json({ message: t('evidence.saved', { count: done.evidence.length }), evidence: done.evidence }, 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/evidence',
        tags,
        summary:
          'Скриншоти матчу, від старих до нових: хто й від якої сторони додав (slot null — організатор), розміри, адреса знімка. Лише сторонам матчу й організаторам',
        request: { params },
        responses: { 200: jsonResponse(evidenceListSchema, 'Скриншоти'), ...errors(400, 401, 403, 404) },
      },
      roomOnly,
    ),
    async (c) => {
      const evidence = await listEvidence(c.get('db'), c.req.valid('param').id);
      c.header('Cache-Control', PRIVATE_READ);
      return c.json({ evidence, max: EVIDENCE_PER_MATCH_MAX }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/evidence/{evidenceId}',
        tags,
        summary: 'Знімок матчу (WebP) — лише сторонам матчу й організаторам, з токеном (Cache-Control: private); знімок іншого матчу — 404',
        request: { params: params.extend({ evidenceId: z.uuid() }) },
        responses: {
          200: { description: 'Зображення', content: { 'image/webp': { schema: z.string().openapi({ format: 'binary' }) } } },
          304: { description: 'Не змінився' },
          ...errors(400, 401, 403, 404),
        },
      },
      roomOnly,
    ),
    async (c) => {
      const { id, evidenceId } = c.req.valid('param');
      const picture = await findEvidencePicture(c.get('db'), id, evidenceId);
      if (!picture) fail(404, 'evidence.notFound');
      // A stored picture never changes: the reader's browser may keep it, nobody else.
      return c.body(new Uint8Array(picture.data), 200, {
        'Content-Type': picture.mime,
        ETag: picture.etag,
        'Cache-Control': 'private, max-age=86400',
        Vary: 'Authorization',
        'X-Content-Type-Options': 'nosniff',
      });
    },
  );
