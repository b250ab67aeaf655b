import { z } from '@hono/zod-openapi';
import { confirmInput, disputeInput, reportInput } from '../../../lib/api/match-reports.ts';
import { matchCommentSchema, matchSavedSchema, matchSchema, matchStateSchema, matchUpdateInput } from '../../../lib/api/stages.ts';
import { winsNeeded } from '../../../lib/domain/stage/result.ts';
import { defaultLocale, plural, t, type MessageKey } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { confirmDueReports, confirmReport, disputeReport, reportScore, type ReportDone, type ReportOutcome, type ReportRefusal } from '../../services/match-day/match-reports.ts';
import { updateMatch, type MatchRefusal } from '../../services/competition/stages/match-changes.ts';
import { findMatch, matchComment } from '../../services/competition/stages/match-state.ts';

import { errors, jsonBody, jsonResponse, organiserOrKeyRoute, publicRead, refuseHidden, router, userRoute } from '../openapi.ts';
import { shows, tournamentData } from '../../services/live/changes.ts';

const tags = ['Етапи'];
const params = z.object({ id: z.uuid() });
const reportAnswerSchema = z.object({ message: z.string(), state: matchStateSchema });

function refuseMatch(reason: MatchRefusal, bestOf: number): never {
  if (reason === 'notFound') fail(404, 'match.notFound');
  if (reason === 'finished') fail(409, 'stage.finished');
  if (reason === 'notReady' || reason === 'bye' || reason === 'noResult' || reason === 'feedsLater' || reason === 'pairedAfter') fail(409, `match.${reason}`);
  if (reason === 'bestOf') fail(422, 'match.result.bestOf', { wins: winsNeeded(bestOf) });
  if (reason === 'tooManyGames') fail(422, 'match.result.tooManyGames', { bestOf });
  fail(422, `match.result.${reason}`);
}

/**
 * One match of a stage (issue 21): anyone reads it; the admin enters, corrects or withdraws its
 * result (the winner follows from the score), forfeits a side, sets its time and comment (public,
 * or for the organisers only: then only they read its text, issue 57). Its players report, confirm
 * and dispute results (issue 22, services/match-day/match-reports.ts).
 */
export const matchRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}',
      tags,
      summary:
        'Матч етапу: учасники, рахунок (і рахунки ігор), переможець, стан, час, коментар (порожній, якщо він лише для організаторів), версія, історія. ' +
        'Однакова для всіх читачів',
      request: { params },
      responses: {
        200: jsonResponse(matchStateSchema, 'Матч'),
        ...errors(400, 404),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      // A report whose time is up is confirmed before it is shown, not at the next sweep.
      await confirmDueReports(c.get('db'), new Date(), id);
      const found = await findMatch(c.get('db'), id);
      if (!found) fail(404, 'match.notFound');
      await refuseHidden(c.get('db'), c.get('caller'), found.tournament._id, 'match.notFound');
      shows(tournamentData(found.tournament._id));
      return c.json(found, 200);
    },
  )
  .openapi(
    organiserOrKeyRoute({
      method: 'patch',
      path: '/{id}',
      tags,
      summary:
        'Організатор турніру (адмін чи його співорганізатор): внести чи виправити результат (scoreA, scoreB, games для Bo-N, forfeit), скасувати його (reset), змінити час чи коментар. ' +
        'Переможець — з рахунку; нічия лише в круговій і швейцарській. Виправлення скидає матчі, що від нього залежали (preview: true лише показує які). ' +
        'commentPublic: false — коментар бачать лише організатори турніру (у відповіді організаторові він з текстом і commentPublic). ' +
        'Стара version — 409 з новішим матчем',
      request: { params, body: jsonBody(matchUpdateInput) },
      responses: {
        200: jsonResponse(matchSavedSchema, 'Збережено'),
        409: jsonResponse(z.object({ message: z.string(), match: matchSchema }), 'Матч уже змінено або дія неможлива'),
        ...errors(400, 401, 403, 404, 422),
      },
    }, 'match', 'run'),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const saved = await updateMatch(c.get('db'), id, body, c.var.actor);
      if (!saved.ok) refuseMatch(saved.reason, saved.bestOf);
      if (saved.stale) return c.json({ message: t('match.stale'), match: saved.match }, 409);
      const count = plural(defaultLocale, 'count.matchResults', saved.reset.length);
      const message = saved.preview
        ? t('match.preview', { count })
        : body.reset
          ? t('match.reset')
          : saved.match.status === 'completed'
            ? t('match.saved')
            : t('match.updated');
      return c.json(
        {
          message,
          match: saved.match,
          reset: saved.reset,
          preview: saved.preview,
        },
        200,
      );
    },
  )
  .openapi(
    organiserOrKeyRoute({
      method: 'get',
      path: '/{id}/comment',
      tags,
      summary:
        'Організатор турніру: коментар матчу з текстом, навіть якщо він лише для організаторів (commentPublic: false), і версія матчу. ' +
        'Форма результату читає його, коли відкривається; публічні читання такого коментаря не віддають',
      request: { params },
      responses: {
        200: jsonResponse(matchCommentSchema, 'Коментар матчу'),
        ...errors(400, 401, 403, 404),
      },
    }, 'match', 'read'),
    async (c) => {
      const found = await matchComment(c.get('db'), c.req.valid('param').id);
      if (!found) fail(404, 'match.notFound');
      return c.json(found, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/report',
      tags,
      summary:
        'Гравець (чи капітан команди) повідомляє рахунок готового матчу: звіт чекає на підтвердження суперника (confirmationMinutes турніру, потім зараховується сам). ' +
        'Повторний звіт тієї ж сторони замінює свій; звіт другої сторони з тим самим рахунком підтверджує, з іншим — матч оскаржено',
      request: { params, body: jsonBody(reportInput) },
      responses: {
        200: jsonResponse(reportAnswerSchema, 'Звіт прийнято'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const done = await reportScore(c.get('db'), id, c.var.auth.user.id, c.req.valid('json'));
      return c.json(answered(done, { reported: 'report.reported', confirmed: 'report.confirmed', disputed: 'report.mismatch' }), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/confirm',
      tags,
      summary: 'Суперник підтверджує звіт: результат зараховується так само, як адмінів (поширення сіткою, статистика, рейтинги)',
      request: { params, body: { required: false, content: { 'application/json': { schema: confirmInput } } } },
      responses: {
        200: jsonResponse(reportAnswerSchema, 'Результат підтверджено'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = (c.req.valid('json') as { version?: number } | undefined) ?? {};
      const done = await confirmReport(c.get('db'), id, c.var.auth.user.id, body.version);
      return c.json(answered(done, { reported: 'report.reported', confirmed: 'report.confirmed', disputed: 'report.disputedNow' }), 200);
    },
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/{id}/dispute',
      tags,
      summary: 'Суперник оскаржує звіт (reason, до 500 символів): матч позначено оскарженим, результат вносить адміністратор (PATCH)',
      request: { params, body: jsonBody(disputeInput) },
      responses: {
        200: jsonResponse(reportAnswerSchema, 'Результат оскаржено'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const done = await disputeReport(c.get('db'), id, c.var.auth.user.id, c.req.valid('json'));
      return c.json(answered(done, { reported: 'report.reported', confirmed: 'report.confirmed', disputed: 'report.disputedNow' }), 200);
    },
  );

/** A players' action's answer: its message and the match as the action left it, or the refusal. */
function answered(done: ReportDone, messages: Record<ReportOutcome, MessageKey>) {
  if (!done.ok) refuseReport(done.reason, done.bestOf);
  return { message: t(messages[done.outcome]), state: done.state };
}

function refuseReport(reason: ReportRefusal, bestOf: number): never {
  if (reason === 'notSide') fail(403, 'report.notSide');
  if (reason === 'stale') fail(409, 'report.stale');
  if (reason === 'notReady' || reason === 'bye') fail(409, 'report.notReady');
  if (reason === 'checkInFirst') fail(409, 'checkIn.match.first');
  if (reason === 'decided' || reason === 'disputed' || reason === 'ownReport' || reason === 'nothingToConfirm' || reason === 'nothingToDispute') fail(409, `report.${reason}`);
  refuseMatch(reason, bestOf);
}
