import { createHash } from 'node:crypto';
import { z } from '@hono/zod-openapi';
import {
  earnedAchievementSchema,
  leaderboardQuery,
  playerEntrySchema,
  statsGameSchema,
  teamEntrySchema,
} from '../../../lib/api/leaderboards.ts';
import { PAGE_MAX_LIMIT, pageQuery } from '../../../lib/api/paging.ts';
import { tournamentStatsSchema } from '../../../lib/api/tournament-stats.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { AppContext, Database } from '../context.ts';
import { fail } from '../errors.ts';
import { matchesEtag } from '../../services/teams/chat.ts';
import { gameExists, listStatsGames, playerAchievements, playerLeaderboard, removeEntry, teamLeaderboard } from '../../services/statistics/leaderboards.ts';
import { ownerExists } from '../../services/statistics/match-history.ts';
import { listTournamentStats } from '../../services/statistics/tournament-stats.ts';
import { adminRoute, errors, jsonResponse, messageBody, publicRead, router } from '../openapi.ts';
import { linkToNext } from '../paging.ts';

const tags = ['Статистика'];
const gameParam = z.object({ gameId: z.uuid() });
const sortNote = 'sort: rating_desc (типово), rating_asc, wins_desc, winrate_desc; limit: типово 50, до 100';

/** Leaderboards change only when a match is recorded or a row removed: browsers may keep them briefly and revalidate by ETag. */
const PUBLIC_CACHE = 'public, max-age=10, stale-while-revalidate=30';

/**
 * Answers a leaderboard with its ETag: a digest of the JSON sent, so it changes exactly when the
 * answer does, or 304 when the caller already holds it. The JSON is made once and hashed once: the
 * `httpCaching` middleware keeps an ETag a route set and does not digest the body again.
 */
function answer(c: AppContext, body: unknown) {
  const json = JSON.stringify(body);
  const etag = `"lb-${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;
  c.header('ETag', etag);
  c.header('Cache-Control', PUBLIC_CACHE);
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
  return c.body(json, 200, { 'Content-Type': 'application/json' });
}

/** 404 for an unknown game. A game with rows exists (its rows reference it), so only an empty board costs the lookup. */
async function requireGame(db: Database, gameId: string, entries: readonly unknown[]): Promise<void> {
  if (entries.length === 0 && !(await gameExists(db, gameId))) fail(404, 'games.notFound');
}

/**
 * Leaderboards and results under /api/stats (SPEC §7 Stats and leaderboards): public per-game
 * leaderboards of players and teams, admin removal of a row, the games that have statistics, the
 * tournaments' statistics switches for the admin panel, and a player's earned achievements.
 */
export const leaderboardsRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/games',
      tags,
      summary: 'Ігри, для яких налаштовано статистику (вибір гри на сторінці топів)',
      responses: { 200: jsonResponse(z.array(statsGameSchema), 'Ігри за назвою') },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      c.header('Cache-Control', PUBLIC_CACHE);
      return c.json(await listStatsGames(c.get('db')), 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/leaderboard/game/{gameId}',
      tags,
      summary: `Топ гравців гри (публічно, ETag); ${sortNote}`,
      request: { params: gameParam, query: leaderboardQuery },
      responses: { 200: jsonResponse(z.array(playerEntrySchema), 'Рядки топа'), 304: { description: 'Не змінився' }, ...errors(400, 404) },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      const { gameId } = c.req.valid('param');
      const db = c.get('db');
      const entries = await playerLeaderboard(db, gameId, c.req.valid('query'));
      await requireGame(db, gameId, entries);
      return answer(c, entries);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/leaderboard/teams/game/{gameId}',
      tags,
      summary: `Топ команд гри (публічно, ETag); ${sortNote}`,
      request: { params: gameParam, query: leaderboardQuery },
      responses: { 200: jsonResponse(z.array(teamEntrySchema), 'Рядки топа'), 304: { description: 'Не змінився' }, ...errors(400, 404) },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      const { gameId } = c.req.valid('param');
      const db = c.get('db');
      const entries = await teamLeaderboard(db, gameId, c.req.valid('query'));
      await requireGame(db, gameId, entries);
      return answer(c, entries);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/player/{userId}/game/{gameId}',
      tags,
      summary: 'Прибрати гравця з топа гри (адмін): його статистика в грі обнуляється, матчі й досягнення лишаються',
      request: { params: z.object({ userId: z.uuid(), gameId: z.uuid() }) },
      responses: { 200: jsonResponse(messageBody, 'Видалено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { userId, gameId } = c.req.valid('param');
      if (!(await removeEntry(c.get('db'), 'user', userId, gameId))) fail(404, 'stats.playerNotInTop');
      return c.json({ message: t('stats.playerRemoved') }, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'delete',
      path: '/team/{teamId}/game/{gameId}',
      tags,
      summary: 'Прибрати команду з топа гри (адмін)',
      request: { params: z.object({ teamId: z.uuid(), gameId: z.uuid() }) },
      responses: { 200: jsonResponse(messageBody, 'Видалено'), ...errors(400, 401, 403, 404) },
    }),
    async (c) => {
      const { teamId, gameId } = c.req.valid('param');
      if (!(await removeEntry(c.get('db'), 'team', teamId, gameId))) fail(404, 'stats.teamNotInTop');
      return c.json({ message: t('stats.teamRemoved') }, 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/achievements/player/{userId}',
      tags,
      summary: 'Досягнення гравця (публічно): власні й здобуті його командами, спершу новіші',
      request: { params: z.object({ userId: z.uuid() }) },
      responses: { 200: jsonResponse(z.array(earnedAchievementSchema), 'Досягнення'), ...errors(400, 404) },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      const { userId } = c.req.valid('param');
      const db = c.get('db');
      if (!(await ownerExists(db, { kind: 'player', id: userId }))) fail(404, 'matchHistory.playerNotFound');
      c.header('Cache-Control', 'public, max-age=0, must-revalidate');
      return c.json(await playerAchievements(db, userId), 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'get',
      path: '/tournaments',
      tags,
      summary:
        'Турніри зі станом статистики та чи налаштовано статистику їхньої гри (адмін), сторінкою (`limit` 1–100, типово 100; `offset`; ' +
        'далі — `Link: <…>; rel="next"`)',
      request: { query: z.object(pageQuery) },
      responses: { 200: jsonResponse(z.array(tournamentStatsSchema), 'Турніри, спершу новіші'), ...errors(400, 401, 403) },
    }),
    async (c) => {
      const { limit = PAGE_MAX_LIMIT, offset = 0 } = c.req.valid('query');
      c.header('Cache-Control', 'private, no-store');
      const page = await listTournamentStats(c.get('db'), { limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  );
