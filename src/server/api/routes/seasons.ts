import { z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { PAGE_MAX_LIMIT } from '../../../lib/api/paging.ts';
import {
  seasonInput,
  seasonListItemSchema,
  seasonListQuery,
  seasonSaved,
  seasonSchema,
  seasonStandingsSchema,
  seasonUpdate,
  type Season,
} from '../../../lib/api/seasons.ts';
import { organisationPowers } from '../../../lib/domain/organisation.ts';
import { MAX_SEASONS } from '../../../lib/domain/season.ts';
import { t, type MessageKey } from '../../../lib/i18n/index.ts';
import { type AppEnv, getAuth, type GuardedEnv } from '../context.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, publicRead, router, userRoute } from '../openapi.ts';
import { linkToNext } from '../paging.ts';
import { isPublic, managesAnOrganisation, roleIn } from '../../services/organisations/organisations.ts';
import {
  createSeason,
  deleteSeason,
  findSeason,
  hostOf,
  joinSeason,
  leaveSeason,
  listSeasons,
  readSeason,
  updateSeason,
  type CreateRefusal,
  type JoinSave,
  type LeaveSave,
  type UpdateRefusal,
} from '../../services/seasons/seasons.ts';
import { seasonStandings } from '../../services/seasons/standings.ts';

const tags = ['Сезони'];

const uuid = z.uuid();
const idParam = z.object({ id: z.uuid() });
const tournamentParam = z.object({ id: z.uuid(), tournamentId: z.uuid() });
const showsSeasons = () => ['seasons' as const];

type Refusal = [400 | 403 | 404 | 409 | 422, MessageKey];

const CREATE_REFUSALS: Record<CreateRefusal, Refusal> = {
  organisationNotFound: [404, 'organisation.notFound'],
  forbidden: [403, 'season.managersOnly'],
  siteAdminOnly: [403, 'season.siteAdminOnly'],
  suspended: [403, 'organisation.suspended'],
  gameNotFound: [404, 'games.notFound'],
  tooMany: [409, 'season.tooMany'],
};

const UPDATE_REFUSALS: Record<UpdateRefusal, Refusal> = {
  notFound: [404, 'season.notFound'],
  gameNotFound: [404, 'games.notFound'],
  locked: [409, 'season.locked'],
};

const MEMBERSHIP_REFUSALS: Record<Extract<JoinSave | LeaveSave, { ok: false }>['reason'], Refusal> = {
  notFound: [404, 'season.notFound'],
  tournamentNotFound: [404, 'tournament.notFound'],
  inAnotherSeason: [409, 'season.inAnotherSeason'],
  notInSeason: [404, 'season.notInSeason'],
  otherOrganisation: [403, 'season.join.otherOrganisation'],
  otherGame: [422, 'season.join.otherGame'],
  otherKind: [422, 'season.join.otherKind'],
};

function refuse<R extends string>(table: Record<R, Refusal>, reason: R): never {
  const [status, key] = table[reason];
  fail(status, key, { max: MAX_SEASONS });
}

/**
 * Route guard of `POST /seasons`, before the body says for whom: the site's admin, or the owner or
 * an admin of an organisation that is not suspended. The service checks the organisation named.
 */
const seasonMakers = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const { user } = c.var.auth;
  if (user.role !== 'admin' && !(await managesAnOrganisation(c.get('db'), user.id))) fail(403, 'season.managersOnly');
  await next();
});

/**
 * Route guard of a season's changes, before the body is read: the caller manages the path's season.
 * 404 when there is none (or its organisation is suspended and
 * the caller is not in it), 403 for anyone else, and 403 while its organisation is suspended. A path
 * naming no season is 403 (none can be theirs), except for the site's admin, whom validation answers.
 */
const seasonManagers = createMiddleware<AppEnv & GuardedEnv>(async (c, next) => {
  const id = c.req.param('id');
  const { user } = c.var.auth;
  if (id === undefined || !uuid.safeParse(id).success) {
    if (user.role === 'admin') return next();
    fail(403, 'season.managersOnly');
  }
  const db = c.get('db');
  const season = await findSeason(db, id);
  if (!season) fail(404, 'season.notFound');
  const host = await hostOf(db, season);
  if (user.role !== 'admin') {
    const role = host ? await roleIn(db, host.id, user.id) : null;
    if (host && !isPublic(host) && role === null) fail(404, 'season.notFound');
    if (!organisationPowers(role).manage) fail(403, 'season.managersOnly');
  }
  if (host && !isPublic(host)) fail(403, 'organisation.suspended');
  await next();
});

/** The title of the tournament a join or leave named, from the season answered (or empty, once it left). */
const titleIn = (season: Season, tournamentId: string) => season.tournaments.find((each) => each._id === tournamentId)?.title ?? '';

export const seasonsRoutes = router()
  .openapi(
    publicRead(
      {
        method: 'get',
        path: '/',
        tags,
        summary:
          'Сезони (публічно), спершу новіші: `organisation` — сезони організації (`site` — власні сезони сайту), `game` — однієї гри; ' +
          '`limit` (1–100) і `offset` обирають сторінку, далі — заголовок `Link: <…>; rel="next"`. Кожен — з кількістю турнірів і завершених',
        request: { query: seasonListQuery },
        responses: { 200: jsonResponse(z.array(seasonListItemSchema), 'Сторінка сезонів'), ...errors(400) },
      },
      { shows: () => ['seasons', 'tournaments'] },
    ),
    async (c) => {
      const { organisation, game, limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      const page = await listSeasons(c.get('db'), { organisation, gameId: game, limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  .openapi(
    publicRead(
      {
        method: 'get',
        path: '/{id}',
        tags,
        summary: 'Сезон: назва, гра, організатор, очки за місця, тип учасників і його турніри від найдавнішого (сезон призупиненої організації бачить лише адміністратор сайту)',
        request: { params: idParam },
        responses: { 200: jsonResponse(seasonSchema, 'Сезон'), ...errors(400, 404) },
      },
      { shows: showsSeasons, mine: true },
    ),
    async (c) => {
      const auth = getAuth(c);
      const season = await readSeason(c.get('db'), c.req.valid('param').id, auth ? auth.user : null);
      if (!season) fail(404, 'season.notFound');
      return c.json(season, 200);
    },
  )
  .openapi(
    publicRead(
      {
        method: 'get',
        path: '/{id}/standings',
        tags,
        summary:
          'Таблиця сезону: очки за підсумкові місця в його завершених турнірах (спільне місце «3–4» рахується як 3-тє, місця поза таблицею очок — 0), ' +
          'від найбільшої суми; за рівності вище той, хто має краще найкраще місце, далі — кращий результат в останньому турнірі, де вони різняться, далі — за назвою. ' +
          'Рахується під час читання з поточних місць, тож виправлений результат змінює її одразу',
        request: { params: idParam },
        responses: { 200: jsonResponse(seasonStandingsSchema, 'Таблиця сезону'), ...errors(400, 404) },
      },
      { shows: showsSeasons, mine: true },
    ),
    async (c) => {
      const auth = getAuth(c);
      const standings = await seasonStandings(c.get('db'), c.req.valid('param').id, auth ? auth.user : null);
      if (!standings) fail(404, 'season.notFound');
      return c.json(standings, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/',
        tags,
        summary:
          'Створити сезон: власник або адміністратори організації (`organisation`), або адміністратор сайту (без `organisation` — власний сезон сайту). ' +
          `\`pointsByPlace\` — очки за 1-ше, 2-ге, … місця (1–64 цілі числа від 0 до 10000, не зростають); \`soloOnly\` — гравці чи команди (без нього вирішить перший турнір). Щонайбільше ${MAX_SEASONS} сезонів на організацію`,
        request: { body: jsonBody(seasonInput) },
        responses: { 201: jsonResponse(seasonSaved, 'Сезон створено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      seasonMakers,
    ),
    async (c) => {
      const { organisation, game, ...input } = c.req.valid('json');
      const result = await createSeason(c.get('db'), c.var.auth.user, organisation ?? null, { ...input, gameId: game });
      if (!result.ok) refuse(CREATE_REFUSALS, result.reason);
      return c.json({ message: t('season.created', { name: result.season.name }), season: result.season }, 201);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}',
        tags,
        summary: 'Власник або адміністратори організації сезону (адміністратор сайту — для власного): нова назва й очки за місця; гра й тип учасників — лише поки в сезоні немає турнірів',
        request: { params: idParam, body: jsonBody(seasonUpdate) },
        responses: { 200: jsonResponse(seasonSaved, 'Сезон оновлено'), ...errors(400, 401, 403, 404, 409, 415) },
      },
      seasonManagers,
    ),
    async (c) => {
      const { game, ...input } = c.req.valid('json');
      const result = await updateSeason(c.get('db'), c.req.valid('param').id, { ...input, gameId: game });
      if (!result.ok) refuse(UPDATE_REFUSALS, result.reason);
      return c.json({ message: t('season.updated'), season: result.season }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}',
        tags,
        summary: 'Видалити сезон (його керівники); турніри лишаються, поза сезоном',
        request: { params: idParam },
        responses: { 200: jsonResponse(messageBody, 'Сезон видалено'), ...errors(400, 401, 403, 404) },
      },
      seasonManagers,
    ),
    async (c) => {
      if (!(await deleteSeason(c.get('db'), c.req.valid('param').id))) fail(404, 'season.notFound');
      return c.json({ message: t('season.deleted') }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}/tournaments/{tournamentId}',
        tags,
        summary:
          'Додати турнір до сезону (його керівники): турнір того самого організатора (403), тієї самої гри й того самого типу учасників (422), ' +
          'не з іншого сезону (409); повторне додавання нічого не змінює',
        request: { params: tournamentParam },
        responses: { 200: jsonResponse(seasonSaved, 'Турнір у сезоні'), ...errors(400, 401, 403, 404, 409, 422) },
      },
      seasonManagers,
    ),
    async (c) => {
      const { id, tournamentId } = c.req.valid('param');
      const result = await joinSeason(c.get('db'), id, tournamentId);
      if (!result.ok) refuse(MEMBERSHIP_REFUSALS, result.reason);
      return c.json({ message: t('season.joined', { title: titleIn(result.season, tournamentId) }), season: result.season }, 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'delete',
        path: '/{id}/tournaments/{tournamentId}',
        tags,
        summary: 'Вилучити турнір із сезону (його керівники): його місця більше не рахуються',
        request: { params: tournamentParam },
        responses: { 200: jsonResponse(seasonSaved, 'Турнір вилучено'), ...errors(400, 401, 403, 404) },
      },
      seasonManagers,
    ),
    async (c) => {
      const { id, tournamentId } = c.req.valid('param');
      const result = await leaveSeason(c.get('db'), id, tournamentId);
      if (!result.ok) refuse(MEMBERSHIP_REFUSALS, result.reason);
      return c.json({ message: t('season.left'), season: result.season }, 200);
    },
  );
