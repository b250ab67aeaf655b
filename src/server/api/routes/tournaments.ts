import { z } from '@hono/zod-openapi';
import {
  eligibilitySchema,
  tournamentDetailSchema,
  tournamentInput,
  tournamentListQuery,
  tournamentSaved,
  tournamentSchema,
  tournamentUpdate,
  winnerInput,
} from '../../../lib/api/tournaments.ts';
import type { WinnerRefusal } from '../../../lib/domain/tournament-winner.ts';
import { t } from '../../../lib/i18n/index.ts';
import { getAuth } from '../context.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, oneTournament, organiserRoute, publicRead, router, userRoute } from '../openapi.ts';
import { eligibility } from '../../services/match-day/applications.ts';
import { isOrganiser } from '../../services/competition/staff.ts';
import { announceFinished } from '../../services/competition/tournament-finish.ts';

import { linkToNext } from '../paging.ts';
import { PAGE_MAX_LIMIT } from '../../../lib/api/paging.ts';
import {
  createTournament,
  deleteTournament,
  getTournamentDetail,
  listTournaments,
  setWinner,
  updateTournament,
  type TournamentSave,
} from '../../services/competition/tournaments.ts';

const idParam = z.object({ id: z.uuid() });

function refuseSave(result: Extract<TournamentSave, { ok: false }>): never {
  if (result.reason === 'notFound') fail(404, 'tournament.notFound');
  if (result.reason === 'gameNotFound') fail(404, 'games.notFound');
  if (result.reason === 'registrationWindow' || result.reason === 'checkInWindow' || result.reason === 'checkInPassed') fail(422, `tournament.refused.${result.reason}`);
  fail(409, 'tournament.typeLocked');
}

const WINNER_STATUS: Record<WinnerRefusal, 409 | 422> = {
  notStarted: 409,
  notFinished: 409,
  hasWinner: 409,
  noParticipants: 409,
  wrongType: 422,
  notParticipant: 422,
};

export const tournamentsRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/',
      tags: ['Турніри'],
      summary:
        'Турніри (публічно), сторінкою: типово перші 100, спершу новіші. Необовʼязкові фільтри: гра `game`, соло чи командні ' +
        '`soloOnly` (true|false), статус `status` (pending|started|finished), `from` — лише турніри від цієї дати (ISO 8601) і пізніше. ' +
        '`sort` — date_desc (типово), date_asc, title_asc, title_desc (за абеткою); `limit` (1–100) і `offset` обирають сторінку. ' +
        'Якщо далі є ще, відповідь має заголовок `Link: <…>; rel="next"`',
      request: { query: tournamentListQuery },
      responses: { 200: jsonResponse(z.array(tournamentSchema), 'Сторінка турнірів'), ...errors(400) },
    }, { shows: () => ['tournaments'], mine: true }),
    async (c) => {
      const { game, soloOnly, status, from, sort, limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listTournaments(c.get('db'), {
        gameId: game,
        soloOnly: soloOnly === undefined ? undefined : soloOnly === 'true',
        status,
        from: from === undefined ? undefined : new Date(from),
        sort,
        limit,
        offset,
      });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}',
      tags: ['Турніри'],
      summary: 'Турнір із заявками, переможцем і сіткою (гостям — лише схвалені заявки; організаторам турніру — усі)',
      request: { params: idParam },
      responses: { 200: jsonResponse(tournamentDetailSchema, 'Турнір'), ...errors(400, 404) },
    }, { shows: oneTournament, mine: true }),
    async (c) => {
      const auth = getAuth(c);
      const { id } = c.req.valid('param');
      // Its organisers (an admin, its staff) see every application, as they decide them.
      const viewer = auth ? { userId: auth.user.id, isAdmin: await isOrganiser(c.get('db'), auth.user, id) } : null;
      const detail = await getTournamentDetail(c.get('db'), id, viewer);
      if (!detail) fail(404, 'tournament.notFound');
      return c.json(detail, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'get',
      path: '/{id}/eligibility',
      tags: ['Турніри'],
      summary: 'Чи може поточний гравець (або його команда) подати заявку',
      request: { params: idParam },
      responses: { 200: jsonResponse(eligibilitySchema, 'Стан заявки гравця'), ...errors(400, 401, 404) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const result = await eligibility(c.get('db'), c.req.valid('param').id, user.id);
      if (!result) fail(404, 'tournament.notFound');
      c.header('Cache-Control', 'private, no-store');
      return c.json(result, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'post',
      path: '/',
      tags: ['Турніри'],
      summary:
        'Адмін: створити турнір (статус за замовчуванням pending). Необовʼязково: `maxParticipants` (2–1024), вікна реєстрації ' +
        '(`registrationOpensAt`, `registrationClosesAt`) і підтвердження участі (`checkInEnabled`, `checkInOpensAt`, `checkInClosesAt`; ' +
        'типово за 60 і 10 хв до початку), `confirmationMinutes`. Вікно, що не відкривається раніше, ніж закривається, чи закривається після початку — 422',
      request: { body: jsonBody(tournamentInput) },
      responses: { 201: jsonResponse(tournamentSaved, 'Турнір додано'), ...errors(400, 401, 403, 404, 415, 422) },
    }),
    async (c) => {
      const result = await createTournament(c.get('db'), c.req.valid('json'));
      if (!result.ok) refuseSave(result);
      return c.json({ message: t('tournament.added'), tournament: result.tournament }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'put',
      path: '/{id}',
      tags: ['Турніри'],
      summary: 'Адмін: зберегти турнір (назва, дата й гра обовʼязкові; решта — якщо передано)',
      request: { params: idParam, body: jsonBody(tournamentUpdate) },
      responses: { 200: jsonResponse(tournamentSaved, 'Турнір оновлено'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const result = await updateTournament(c.get('db'), c.req.valid('param').id, c.req.valid('json'), announceFinished);
      if (!result.ok) refuseSave(result);
      return c.json({ message: t('tournament.updated'), tournament: result.tournament }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/{id}',
      tags: ['Турніри'],
      summary: 'Адмін: видалити турнір разом із заявками',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Турнір видалено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      if (!(await deleteTournament(c.get('db'), c.req.valid('param').id))) fail(404, 'tournament.notFound');
      return c.json({ message: t('tournament.deleted') }, 200);
    },
  )
  .openapi(
    organiserRoute({
      method: 'patch',
      path: '/{id}/winner',
      tags: ['Турніри'],
      summary:
        'Організатор турніру (адмін чи його співорганізатор): обрати переможця завершеного турніру з підтверджених учасників. З `finish: true` розпочатий турнір ' +
        'позначається завершеним у тій самій транзакції (фінал сітки зіграно); турнір, що ще очікує, — 409',
      request: { params: idParam, body: jsonBody(winnerInput) },
      responses: { 200: jsonResponse(tournamentSaved, 'Переможця збережено'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }, 'tournament'),
    async (c) => {
      const { winnerType, winnerId, finish } = c.req.valid('json');
      const result = await setWinner(c.get('db'), c.req.valid('param').id, { type: winnerType, id: winnerId }, c.var.auth.user, {
        finish: finish === true,
        onFinish: announceFinished,
      });
      if (!result.ok) {
        if (result.reason === 'notFound') fail(404, 'tournament.notFound');
        fail(WINNER_STATUS[result.reason], `winner.refused.${result.reason}`);
      }
      return c.json({ message: t(finish ? 'winner.finished' : 'winner.saved'), tournament: result.tournament }, 200);
    },
  );
