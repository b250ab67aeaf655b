import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { HTTPException } from 'hono/http-exception';
import { secureHeaders } from 'hono/secure-headers';
import { t } from '../../lib/i18n/index.ts';
import type { AppEnv, Deps } from './context.ts';
import { httpCaching } from './caching.ts';
import { API_DOCS_CSP, renderApiDocs } from './docs.ts';
import { applicationInvitesRoutes } from './routes/application-invites.ts';
import { applicationsRoutes } from './routes/applications.ts';
import { auth } from './routes/auth.ts';
import { auditRoutes, historyRoutes } from './routes/audit.ts';
import { avatarRoutes } from './routes/avatar.ts';
import { bracketRoutes } from './routes/bracket.ts';
import { matchRoutes } from './routes/matches.ts';
import { matchChatRoutes } from './routes/match-chat.ts';
import { lobbyGameRoutes } from './routes/lobby-games.ts';
import { lobbyRoutes } from './routes/lobbies.ts';
import { matchVetoRoutes } from './routes/match-veto.ts';
import { matchRoomRoutes } from './routes/match-room.ts';
import { matchEvidenceRoutes } from './routes/match-evidence.ts';
import { stageRoutes } from './routes/stages.ts';
import { cabinetRoutes } from './routes/cabinet.ts';
import { calendarFeedRoutes, calendarLinkRoutes, tournamentCalendarRoutes } from './routes/calendar.ts';
import { myMatchesRoutes } from './routes/my-matches.ts';
import { scheduleRoutes } from './routes/schedule.ts';
import { shareCardRoutes } from './routes/share-cards.ts';
import { staffRoutes } from './routes/staff.ts';
import { tournamentFileRoutes } from './routes/tournament-files.ts';
import { gameManagementRoutes } from './routes/game-management.ts';
import { checkInRoutes } from './routes/check-in.ts';
import { controlRoomRoutes, matchCallRoutes } from './routes/control-room.ts';
import { gamesRoutes } from './routes/games.ts';
import { health } from './routes/health.ts';
import { leaderboardsRoutes } from './routes/leaderboards.ts';
import { tournamentEventRoutes, userEventRoutes } from './routes/live.ts';
import { newsRoutes } from './routes/news.ts';
import { myOrganisationsRoutes, organisationsRoutes } from './routes/organisations.ts';
import { organisationIntegrationRoutes } from './routes/organisation-integrations.ts';
import { organisationTelegramRoutes } from './routes/organisation-telegram.ts';
import { organisationWebhookRoutes } from './routes/organisation-webhooks.ts';
import { organisationApiKeyRoutes } from './routes/organisation-api-keys.ts';
import { playerProfileRoutes, teamProfileRoutes } from './routes/profiles.ts';
import { seasonsRoutes } from './routes/seasons.ts';
import { noticeSettingsRoutes } from './routes/notice-settings.ts';
import { pushRoutes } from './routes/push.ts';
import { telegramRoutes } from './routes/telegram.ts';
import { linkedAccountRoutes, signInRoutes } from './routes/sign-in.ts';
import { notificationsRoutes } from './routes/notifications.ts';
import { matchHistoryRoutes } from './routes/match-history.ts';
import { teamChatRoutes } from './routes/team-chat.ts';
import { teamsRoutes } from './routes/teams.ts';
import { tournamentStatsRoutes } from './routes/tournament-stats.ts';
import { tournamentsRoutes } from './routes/tournaments.ts';
import { usersRoutes } from './routes/users.ts';
import { tournamentVenueRoutes, venueNetworkRoutes } from './routes/venue-networks.ts';
import { LimitStoreDown } from '../services/rate-limit.ts';
import { isDiskFull, isOutOfResources } from '../services/db-errors.ts';
import { DISK_FULL_RETRY_AFTER, recordDiskFull, recordWriteSaved } from '../services/disk-full.ts';
import { announcedDuring, kickLetters } from '../services/notices/notices.ts';
import { kickPushes, pushesDuring } from '../services/notices/push-outbox.ts';
import { kickTelegram, telegramDuring } from '../services/telegram/notice-outbox.ts';
import { findSession } from '../services/accounts/sessions.ts';
import { isApiKeySecret } from '../../lib/domain/api-keys.ts';
import { admitApiKey } from './api-key-guards.ts';
import { collectChanges } from '../services/live/changes.ts';
import { localeOf, withLocale } from '../locale.ts';
import { HSTS, servedOverHttps } from '../transport.ts';
import { validationHook } from './validation.ts';
import { publicReadRoute } from './openapi.ts';
import { EVIDENCE_BODY_LIMIT, IMPORT_BODY_LIMIT, isEvidenceUpload, isParticipantImport, isUpload, JSON_BODY_LIMIT, UPLOAD_BODY_LIMIT } from './body-limits.ts';
import { isWrite } from './methods.ts';

const openApiConfig = {
  openapi: '3.1.0',
  info: {
    title: 'Кіберарена API',
    version: '1.0.0',
    description:
      'API платформи кіберспортивних турнірів. Усі помилки — JSON `{ message }` українською. ' +
      'Авторизація — `Authorization: Bearer <токен>`: токен сесії (POST /api/auth/login) або ключ API організації (`ka_…`, створюють її власник і адміністратори на сторінці керування). ' +
      'Ключ діє в публічному API й на турнірах своєї організації: scope read — їхні закриті читання (експорт CSV, пульт, усі заявки), run — ще й проведення (результати, етапи, check-in, заявки); ' +
      'решта маршрутів відповідає ключеві 403, відкликаному чи невідомому — 401, понад 600 запитів за хвилину — 429 з Retry-After.',
  },
};

const DB_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '08000', '08001', '08003', '08006', '53300']);

/** Whether an error means the database cannot be reached (503), not that the request was wrong. */
export function isDatabaseDown(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && DB_DOWN_CODES.has(code)) return true;
    if (typeof message === 'string' && /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Query read timeout|PGlite is closed|pool after calling end/i.test(message)) {
      return true;
    }
  }
  return false;
}

/** Builds the whole API under `/api`. Every outside dependency comes in through `deps`. */
export function createApp(deps: Deps) {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).basePath('/api');

  // What a request changed is told once it ended, so after its transaction committed (services/live/changes.ts).
  app.use('*', async (_c, next) => {
    await collectChanges(next);
  });
  // Messages follow the reader's language choice; API clients without it get Ukrainian.
  app.use('*', (c, next) => withLocale(localeOf(c.req.raw), next));
  app.use('*', async (c, next) => {
    await next();
    // Hono names no charset for JSON; Cyrillic messages need it spelled out.
    if (c.res.headers.get('content-type') === 'application/json') {
      c.res.headers.set('content-type', 'application/json; charset=utf-8');
    }
  });
  const secure = { xFrameOptions: 'DENY', strictTransportSecurity: false } as const;
  const apiHeaders = secureHeaders({ ...secure, crossOriginResourcePolicy: 'same-site' });
  // Share cards are other sites' og:image: a browser showing a shared link's preview loads them cross-site.
  const shareCardHeaders = secureHeaders({ ...secure, crossOriginResourcePolicy: 'cross-origin' });
  app.use('*', (c, next) => (c.req.path.startsWith('/api/og/') ? shareCardHeaders(c, next) : apiHeaders(c, next)));
  app.use('*', async (c, next) => {
    await next();
    if (servedOverHttps(c.req.raw, c.env?.clientAddress, deps)) c.res.headers.set('Strict-Transport-Security', HSTS);
  });
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('db', deps.database.db);
    c.set('caller', null);
    const header = c.req.header('authorization');
    const token = header?.match(/^Bearer\s+(\S{1,200})$/i)?.[1];
    if (token && isApiKeySecret(token)) await admitApiKey(c, token);
    else if (token) {
      const found = await findSession(deps.database.db, token);
      if (found) c.set('caller', { user: found.user, sessionId: found.sessionId, teamIds: found.teamIds });
    }
    await next();
    // A write went through, so writes work again (services/disk-full.ts says why this is health's probe).
    if (isWrite(c.req.method) && c.res.status < 400) recordWriteSaved();
  });
  const tooLarge = (c: Context) => c.json({ message: t('error.tooLarge') }, 413);
  const jsonLimit = bodyLimit({ maxSize: JSON_BODY_LIMIT, onError: tooLarge });
  const uploadLimit = bodyLimit({ maxSize: UPLOAD_BODY_LIMIT, onError: tooLarge });
  const evidenceLimit = bodyLimit({ maxSize: EVIDENCE_BODY_LIMIT, onError: tooLarge });
  const importLimit = bodyLimit({ maxSize: IMPORT_BODY_LIMIT, onError: tooLarge });
  app.use('*', (c, next) =>
    !isUpload(c.req.header('content-type'))
      ? isParticipantImport(c.req.method, c.req.path)
        ? importLimit(c, next)
        : jsonLimit(c, next)
      : isEvidenceUpload(c.req.method, c.req.path)
        ? evidenceLimit(c, next)
        : uploadLimit(c, next),
  );
  app.use('*', httpCaching());
  // Letters of the notices a request announced go out once its transaction has committed (services/notices/notices.ts).
  if (deps.letterKick) {
    app.use('*', async (_c, next) => {
      if (await announcedDuring(next)) kickLetters(deps.database.db, deps);
    });
  }
  // Pushes of the notices a request stored go out once its transaction has committed (services/notices/push-outbox.ts).
  const push = deps.push;
  if (push && deps.pushKick) {
    app.use('*', async (_c, next) => {
      if (await pushesDuring(next)) kickPushes(deps.database.db, push);
    });
  }
  // And its Telegram messages (services/telegram/notice-outbox.ts).
  const telegram = deps.telegram;
  if (telegram && deps.telegramKick) {
    app.use('*', async (_c, next) => {
      if (await telegramDuring(next)) kickTelegram(deps.database.db, telegram);
    });
  }

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Токен сесії або ключ API організації (ka_…); маршрути, що приймають ключ, кажуть про це в описі',
  });

  app.route('/auth', auth);
  app.route('/auth', signInRoutes);
  app.route('/users/me', linkedAccountRoutes);
  app.route('/users/me/notifications', notificationsRoutes);
  app.route('/users/me/events', userEventRoutes);
  app.route('/users/me', noticeSettingsRoutes);
  app.route('/push', pushRoutes);
  app.route('/telegram', telegramRoutes);
  app.route('/users/me', myMatchesRoutes);
  app.route('/users/me', calendarLinkRoutes);
  app.route('/users/me', myOrganisationsRoutes);
  app.route('/calendar', calendarFeedRoutes);
  app.route('/users', usersRoutes);
  app.route('/games', gamesRoutes);
  app.route('/tournaments', tournamentsRoutes);
  app.route('/tournaments', bracketRoutes);
  app.route('/tournaments', stageRoutes);
  app.route('/tournaments', checkInRoutes);
  app.route('/tournaments', controlRoomRoutes);
  app.route('/tournaments', tournamentEventRoutes);
  app.route('/tournaments', scheduleRoutes);
  app.route('/tournaments', staffRoutes);
  app.route('/tournaments', tournamentFileRoutes);
  app.route('/tournaments', tournamentVenueRoutes);
  app.route('/venue-networks', venueNetworkRoutes);
  app.route('/tournaments', historyRoutes);
  app.route('/audit', auditRoutes);
  app.route('/tournaments', tournamentCalendarRoutes);
  app.route('/matches', matchRoutes);
  app.route('/matches', matchCallRoutes);
  app.route('/matches', matchVetoRoutes);
  app.route('/matches', matchRoomRoutes);
  app.route('/matches', matchChatRoutes);
  app.route('/matches', lobbyGameRoutes);
  app.route('/lobbies', lobbyRoutes);
  app.route('/matches', matchEvidenceRoutes);
  app.route('/tournaments', tournamentStatsRoutes);
  app.route('/game-management', gameManagementRoutes);
  app.route('/applications', applicationsRoutes);
  app.route('/applications', applicationInvitesRoutes);
  app.route('/teams', teamsRoutes);
  // After teamsRoutes, so its GET /teams/mine is matched before a profile's /teams/{id}.
  app.route('/teams', teamProfileRoutes);
  app.route('/players', playerProfileRoutes);
  app.route('/team', teamChatRoutes);
  app.route('/organisations', organisationsRoutes);
  app.route('/organisations', organisationIntegrationRoutes);
  app.route('/organisations', organisationTelegramRoutes);
  app.route('/organisations', organisationWebhookRoutes);
  app.route('/organisations', organisationApiKeyRoutes);
  app.route('/seasons', seasonsRoutes);
  app.route('/news', newsRoutes);
  app.route('/stats/matches', matchHistoryRoutes);
  app.route('/stats', leaderboardsRoutes);
  app.route('/cabinet', cabinetRoutes);
  app.route('/avatar', avatarRoutes);
  app.route('/og', shareCardRoutes);
  app.route('/health', health);

  app.use('/openapi.json', publicReadRoute);
  app.doc31('/openapi.json', openApiConfig);
  app.get('/docs', publicReadRoute, (c) => c.html(renderApiDocs(app.getOpenAPI31Document(openApiConfig)), 200, { 'Content-Security-Policy': API_DOCS_CSP }));

  app.notFound((c) => c.json({ message: t('error.notFound') }, 404));
  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      // Hono's own refusals speak English; ours already carry a Ukrainian message.
      const message =
        error.status === 400 && /Malformed JSON/i.test(error.message)
          ? t('validation.malformedJson')
          : error.status === 400 && /Malformed FormData/i.test(error.message)
            ? t('validation.malformedForm')
              : error.status === 415 && error.message === 'Unsupported Media Type'
              ? t('error.unsupportedType')
              : error.message || t('error.server');
      const headers = error.res ? Object.fromEntries(error.res.headers) : undefined;
      return c.json({ message }, error.status, headers);
    }
    if (error instanceof LimitStoreDown) return c.json({ message: t('error.unavailable') }, 503, { 'Retry-After': '5' });
    // Before the outage check: a PGlite stopped by a PANIC for lack of space says both (db/client.ts).
    if (isDiskFull(error)) {
      recordDiskFull();
      // The driver's own words, not drizzle's wrapper, which repeats the query and its values.
      console.error('[api] закінчилося місце на диску:', c.req.method, c.req.path, (((error as Error).cause as Error | undefined) ?? (error as Error)).message);
      return c.json({ message: t('error.storageFull') }, 503, { 'Retry-After': String(DISK_FULL_RETRY_AFTER) });
    }
    if (isOutOfResources(error)) {
      console.error('[api] базі даних забракло ресурсів:', c.req.method, c.req.path, (((error as Error).cause as Error | undefined) ?? (error as Error)).message);
      return c.json({ message: t('error.unavailable') }, 503, { 'Retry-After': '5' });
    }
    if (isDatabaseDown(error)) {
      console.error('[api] база даних недоступна:', (error as Error).message);
      return c.json({ message: t('error.unavailable') }, 503, { 'Retry-After': '5' });
    }
    console.error('[api]', c.req.method, c.req.path, error);
    return c.json({ message: t('error.server') }, 500);
  });

  return app;
}

export type App = ReturnType<typeof createApp>;
