import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import { matchRecordedSchema, recordFormSchema, recordMatchInput, statsEnabledSchema } from '../../../lib/api/tournament-stats.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail, failTooMany } from '../errors.ts';
import { type Limit, reserve } from '../../services/rate-limit.ts';
import { enableStats, recordForm, recordMatch, type RecordRefusal } from '../../services/statistics/tournament-stats.ts';

import { adminRoute, errors, jsonBody, jsonResponse, router } from '../openapi.ts';

const tags = ['Статистика'];
const params = z.object({ id: z.uuid() });

/**
 * The same result for the same tournament is recorded once in this many seconds: a double tap or a
 * retried request sent alongside the first must not count a match twice. A different match that
 * happens to end the same way can be recorded once the window has passed.
 */
const DUPLICATE_WINDOW: Limit = { max: 1, windowSeconds: 5 };

/** Each refusal of a recording: its status and message. */
function refuse(refusal: RecordRefusal): never {
  if (refusal.reason === 'notParticipant') fail(422, 'stats.notParticipant', { name: refusal.name });
  if (refusal.reason === 'winnerMismatch') fail(422, 'stats.winnerMismatch', { name: refusal.name });
  if (refusal.reason === 'unknownStat') fail(422, 'stats.unknownStat', { field: refusal.field });
  if (refusal.reason === 'percent') fail(422, 'stats.percentInvalid', { field: refusal.field });
  const plain = {
    notFound: [404, 'tournament.notFound'],
    finished: [409, 'stats.tournamentFinished'],
    notEnabled: [409, 'stats.notEnabled'],
    needsConfig: [422, 'stats.needsConfig'],
    sameParticipant: [422, 'stats.sameParticipant'],
    scoreEqual: [400, 'stats.scoreEqual'],
  } as const;
  const [status, key] = plain[refusal.reason];
  fail(status, key);
}

/**
 * Statistics of one tournament (SPEC §7): the admin turns them on, then records match results,
 * which update ratings, streaks and achievements (docs/decisions/004-rating.md).
 */
export const tournamentStatsRoutes = router()
  .openapi(
    adminRoute({
      method: 'get',
      path: '/{id}/stats',
      tags,
      summary: 'Форма запису матчу (адмін): стан статистики турніру, числові показники гри й учасники',
      request: { params },
      responses: { 200: jsonResponse(recordFormSchema, 'Дані форми'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const form = await recordForm(c.get('db'), c.req.valid('param').id);
      if (!form) fail(404, 'tournament.notFound');
      c.header('Cache-Control', 'private, no-store');
      return c.json(form, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/{id}/enable-stats',
      tags,
      summary: 'Увімкнути статистику турніру (адмін); лише якщо для гри налаштовано статистику; повторний виклик нічого не змінює',
      request: { params },
      responses: { 200: jsonResponse(statsEnabledSchema, 'Увімкнено'), ...errors(400, 401, 403, 404, 422) },
    }),
    async (c) => {
      const result = await enableStats(c.get('db'), c.req.valid('param').id);
      if (!result.ok) fail(result.reason === 'notFound' ? 404 : 422, result.reason === 'notFound' ? 'tournament.notFound' : 'stats.needsConfig');
      return c.json({ message: t(result.already ? 'stats.alreadyEnabled' : 'stats.enabled'), tournament: result.tournament }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/{id}/record-match',
      tags,
      summary:
        'Записати результат матчу (адмін; SPEC §3 Match result payload). Учасник — participantNId (id гравця чи команди) або participantN (id чи імʼя); ' +
        'переможець — той, у кого більший рахунок (надісланий winner має з цим збігатися)',
      request: { params, body: jsonBody(recordMatchInput) },
      responses: { 201: jsonResponse(matchRecordedSchema, 'Записано'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      if (body.tournamentId && body.tournamentId !== id) fail(400, 'stats.tournamentMismatch');
      const fingerprint = createHash('sha256').update(JSON.stringify(body)).digest('base64url');
      const slot = await reserve(c.get('deps').limits, `record-match:${id}:${fingerprint}`, DUPLICATE_WINDOW);
      if (!slot.allowed) {
        await slot.release();
        failTooMany('stats.duplicateMatch', slot.retryAfter, 409);
      }
      const result = await recordMatch(c.get('db'), id, body);
      // A refused result was not recorded: the same body, corrected elsewhere or retried, may come again at once.
      if (!result.ok) {
        await slot.release();
        refuse(result);
      }
      return c.json(result.recorded, 201);
    },
  );
