import { createRoute, z } from '@hono/zod-openapi';
import { matchSavedSchema, matchSchema, matchStateSchema, matchUpdateInput } from '../../../lib/api/stages.ts';
import { winsNeeded } from '../../../lib/domain/stage/result.ts';
import { defaultLocale, plural, t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { findMatch, updateMatch, type MatchRefusal } from '../../services/stages.ts';
import { publishTournament } from '../../services/live.ts';

import { adminRoute, errors, jsonBody, jsonResponse, router } from '../openapi.ts';

const tags = ['Етапи'];
const params = z.object({ id: z.uuid() });

function refuseMatch(reason: MatchRefusal, bestOf: number): never {
  if (reason === 'notFound') fail(404, 'match.notFound');
  if (reason === 'finished') fail(409, 'stage.finished');
  if (reason === 'notReady' || reason === 'bye' || reason === 'noResult' || reason === 'feedsLater') fail(409, `match.${reason}`);
  if (reason === 'bestOf') fail(422, 'match.result.bestOf', { wins: winsNeeded(bestOf) });
  if (reason === 'tooManyGames') fail(422, 'match.result.tooManyGames', { bestOf });
  fail(422, `match.result.${reason}`);
}

/**
 * One match of a stage (issue 21): anyone reads it; the admin enters, corrects or withdraws its
 * result (the winner follows from the score), forfeits a side, sets its time and comment.
 */
export const matchRoutes = router()
  .openapi(
    createRoute({
      method: 'get',
      path: '/{id}',
      tags,
      summary: 'Матч етапу: учасники, рахунок (і рахунки ігор), переможець, стан, час, коментар, версія',
      request: { params },
      responses: {
        200: jsonResponse(matchStateSchema, 'Матч'),
        ...errors(400, 404),
      },
    }),
    async (c) => {
      const found = await findMatch(c.get('db'), c.req.valid('param').id);
      if (!found) fail(404, 'match.notFound');
      return c.json(found, 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'patch',
      path: '/{id}',
      tags,
      summary:
        'Адмін: внести чи виправити результат (scoreA, scoreB, games для Bo-N, forfeit), скасувати його (reset), змінити час чи коментар. ' +
        'Переможець — з рахунку; нічия лише в круговій і швейцарській. Виправлення скидає матчі, що від нього залежали (preview: true лише показує які). ' +
        'Стара version — 409 з новішим матчем',
      request: { params, body: jsonBody(matchUpdateInput) },
      responses: {
        200: jsonResponse(matchSavedSchema, 'Збережено'),
        409: jsonResponse(z.object({ message: z.string(), match: matchSchema }), 'Матч уже змінено або дія неможлива'),
        ...errors(400, 401, 403, 404, 422),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const saved = await updateMatch(c.get('db'), id, body);
      if (!saved.ok) refuseMatch(saved.reason, saved.bestOf);
      if (saved.stale) return c.json({ message: t('match.stale'), match: saved.match }, 409);
      if (!saved.preview) publishTournament({ tournamentId: saved.tournamentId, kind: 'match', matchId: id });
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
  );
