import { z } from '@hono/zod-openapi';
import { lobbyStateSchema } from '../../../lib/api/stages.ts';
import { fail } from '../errors.ts';
import { findLobby } from '../../services/competition/stages/lobby-state.ts';
import { shows, tournamentData } from '../../services/live/changes.ts';
import { errors, jsonResponse, publicRead, refuseHidden, router } from '../openapi.ts';

const tags = ['Етапи'];
const params = z.object({ id: z.uuid() });

/**
 * A free-for-all lobby (issue 59): anyone reads it, as a match. Its games are entered under its id
 * as a match's (`PUT /api/matches/{id}/games/{n}`, routes/lobby-games.ts).
 */
export const lobbyRoutes = router().openapi(
  publicRead({
    method: 'get',
    path: '/{id}',
    tags,
    summary:
      'Лобі етапу «кожен сам за себе»: турнір (назва, часовий пояс, стан), етап (назва, кількість ігор, раунд, чи це фінальне лобі, чи його раунд ще триває), ' +
      'таблиця лобі, внесені ігри (місця й вбивства), версія та імена учасників. Однакове для всіх читачів: пропозиції гравців тут не показано',
    request: { params },
    responses: {
      200: jsonResponse(lobbyStateSchema, 'Лобі'),
      ...errors(400, 404),
    },
  }),
  async (c) => {
    const found = await findLobby(c.get('db'), c.req.valid('param').id);
    if (!found) fail(404, 'lobby.notFound');
    await refuseHidden(c.get('db'), c.get('caller'), found.tournament._id, 'lobby.notFound');
    shows(tournamentData(found.tournament._id));
    return c.json(found, 200);
  },
);
