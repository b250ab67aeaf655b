import { z } from '@hono/zod-openapi';
import { matchHistoryItemSchema, matchHistoryQuery, type MatchHistoryOwner } from '../../../lib/api/match-history.ts';
import type { AppContext } from '../context.ts';
import { fail } from '../errors.ts';
import { matchHistory, ownerExists } from '../../services/statistics/match-history.ts';
import { errors, jsonResponse, publicRead, router } from '../openapi.ts';

const tags = ['Статистика'];
const description =
  'від нових до старих; limit (типово 20, до 100), далі — offset=<скільки вже показано> або before=<час ISO 8601>';

async function answer(c: AppContext, owner: MatchHistoryOwner, query: z.infer<typeof matchHistoryQuery>) {
  const db = c.get('db');
  if (!(await ownerExists(db, owner))) fail(404, owner.kind === 'player' ? 'matchHistory.playerNotFound' : 'matchHistory.teamNotFound');
  c.header('Cache-Control', 'public, max-age=10, stale-while-revalidate=60');
  return matchHistory(db, owner, query);
}

/** Public match history of a player or a team (SPEC §3 Match history item); no token needed. */
export const matchHistoryRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/player/{userId}',
      tags,
      summary: `Історія матчів гравця: ${description}`,
      request: { params: z.object({ userId: z.uuid() }), query: matchHistoryQuery },
      responses: { 200: jsonResponse(z.array(matchHistoryItemSchema), 'Матчі'), ...errors(400, 404) },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      const { userId } = c.req.valid('param');
      return c.json(await answer(c, { kind: 'player', id: userId }, c.req.valid('query')), 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/team/{teamId}',
      tags,
      summary: `Історія матчів команди: ${description}`,
      request: { params: z.object({ teamId: z.uuid() }), query: matchHistoryQuery },
      responses: { 200: jsonResponse(z.array(matchHistoryItemSchema), 'Матчі'), ...errors(400, 404) },
    }, { shows: () => ['ratings'] }),
    async (c) => {
      const { teamId } = c.req.valid('param');
      return c.json(await answer(c, { kind: 'team', id: teamId }, c.req.valid('query')), 200);
    },
  );
