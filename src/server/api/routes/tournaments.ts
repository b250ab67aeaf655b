import { z } from '@hono/zod-openapi';
import {
  eligibilitySchema,
  tournamentDetailSchema,
  cloneInput,
  tournamentCreate,
  tournamentListQuery,
  tournamentSaved,
  tournamentSchema,
  tournamentUpdate,
  winnerInput,
} from '../../../lib/api/tournaments.ts';
import type { WinnerRefusal } from '../../../lib/domain/tournament-winner.ts';
import { UNVERIFIED_DAILY_TOURNAMENTS } from '../../../lib/domain/organisation.ts';
import { t } from '../../../lib/i18n/index.ts';
import { keyOfHost } from '../api-key-guards.ts';
import { getAuth } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import { errors, hostRoute, jsonBody, jsonResponse, messageBody, oneTournament, organiserRoute, publicRead, publisherRoute, router, userRoute } from '../openapi.ts';
import { cloneTournament, hostTournament, type CloneSave } from '../../services/organisations/hosting.ts';
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

/** A refusal of publishing or cloning for an organisation (issue 56), or of the save itself. */
function refuseHosting(result: Extract<CloneSave, { ok: false }>): never {
  if (result.reason === 'organisationNotFound') fail(404, 'organisation.notFound');
  if (result.reason === 'forbidden') fail(403, 'organisation.publishersOnly');
  if (result.reason === 'suspended') fail(403, 'organisation.suspended');
  if (result.reason === 'daily') failTooMany('organisation.dailyLimit', result.retryAfter, 429, { max: UNVERIFIED_DAILY_TOURNAMENTS });
  refuseSave(result);
}

function refuseSave(result: Extract<TournamentSave, { ok: false }>): never {
  if (result.reason === 'notFound') fail(404, 'tournament.notFound');
  if (result.reason === 'gameNotFound') fail(404, 'games.notFound');
  if (result.reason === 'registrationWindow' || result.reason === 'checkInWindow' || result.reason === 'checkInPassed') fail(422, `tournament.refused.${result.reason}`);
  if (result.reason === 'steamWrongGame') fail(422, 'linked.requireSteamWrongGame');
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
        'Турніри (публічно), сторінкою: типово перші 100, спершу новіші. Необовʼязкові фільтри: гра `game`, організація `organisation`, соло чи командні ' +
        '`soloOnly` (true|false), статус `status` (pending|started|finished), `from` — лише турніри від цієї дати (ISO 8601) і пізніше. ' +
        '`sort` — date_desc (типово), date_asc, title_asc, title_desc (за абеткою); `limit` (1–100) і `offset` обирають сторінку. ' +
        'Якщо далі є ще, відповідь має заголовок `Link: <…>; rel="next"`',
      request: { query: tournamentListQuery },
      responses: { 200: jsonResponse(z.array(tournamentSchema), 'Сторінка турнірів'), ...errors(400) },
    }, { shows: () => ['tournaments'], mine: true }),
    async (c) => {
      const { game, organisation, soloOnly, status, from, sort, limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listTournaments(c.get('db'), {
        gameId: game,
        organisationId: organisation,
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
      // Its organisers (an admin, its staff, a key of its organisation) see every application, as they decide them.
      const key = c.get('apiKey');
      const viewer = auth
        ? { userId: auth.user.id, isAdmin: await isOrganiser(c.get('db'), auth.user, id) }
        : key && (await keyOfHost(c, id))
          ? { userId: key.creatorId, isAdmin: true }
          : null;
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
    publisherRoute({
      method: 'post',
      path: '/',
      tags: ['Турніри'],
      summary:
        'Створити турнір (статус за замовчуванням pending): адмін — турнір сайту, власник чи адміністратор організації — її турнір ' +
        '(`organisation`; її підписники отримують сповіщення; неперевірена організація — до 10 турнірів на добу, далі 429 з Retry-After). ' +
        'Необовʼязково: `maxParticipants` (2–1024), вікна реєстрації ' +
        '(`registrationOpensAt`, `registrationClosesAt`) і підтвердження участі (`checkInEnabled`, `checkInOpensAt`, `checkInClosesAt`; ' +
        'типово за 60 і 10 хв до початку), `confirmationMinutes`, `timeZone` (часовий пояс IANA, у якому показано сторінку турніру; null — у поясі читача). Вікно, що не відкривається раніше, ніж закривається, чи закривається після початку — 422',
      request: { body: jsonBody(tournamentCreate) },
      responses: { 201: jsonResponse(tournamentSaved, 'Турнір додано'), ...errors(400, 401, 403, 404, 415, 422, 429) },
    }),
    async (c) => {
      const { organisation, ...input } = c.req.valid('json');
      const { user } = c.var.auth;
      if (!organisation && user.role !== 'admin') fail(403, 'tournament.organisationRequired');
      const result = organisation ? await hostTournament(c.get('db'), user, organisation, input) : await createTournament(c.get('db'), input);
      if (!result.ok) refuseHosting(result);
      return c.json({ message: t('tournament.added'), tournament: result.tournament }, 201);
    },
  )
  .openapi(
    hostRoute({
      method: 'post',
      path: '/{id}/clone',
      tags: ['Турніри'],
      summary:
        'Клонувати турнір на нову дату (`date`): той самий тип, гра, опис, зображення, ліміт місць, підтвердження участі й організація; ' +
        'вікна реєстрації зсуваються разом із початком; без заявок, етапів і переможця. Адмін — будь-який, власник чи адміністратор організації — її',
      request: { params: idParam, body: jsonBody(cloneInput) },
      responses: { 201: jsonResponse(tournamentSaved, 'Турнір склоновано'), ...errors(400, 401, 403, 404, 415, 422, 429) },
    }),
    async (c) => {
      const result = await cloneTournament(c.get('db'), c.var.auth.user, c.req.valid('param').id, c.req.valid('json').date);
      if (!result.ok) {
        if (result.reason === 'notFound') fail(404, 'tournament.notFound');
        refuseHosting(result);
      }
      return c.json({ message: t('tournament.cloned'), tournament: result.tournament }, 201);
    },
  )
  .openapi(
    hostRoute({
      method: 'put',
      path: '/{id}',
      tags: ['Турніри'],
      summary: 'Адмін або люди організації турніру: зберегти турнір (назва, дата й гра обовʼязкові; решта — якщо передано)',
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
    hostRoute({
      method: 'delete',
      path: '/{id}',
      tags: ['Турніри'],
      summary: 'Адмін або люди організації турніру: видалити турнір разом із заявками',
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
