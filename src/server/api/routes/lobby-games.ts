import { z } from '@hono/zod-openapi';
import { ffaLineSchema, lobbyGameInput, lobbySchema } from '../../../lib/api/stages.ts';
import { LOBBY_GAME_STATES } from '../../../lib/domain/stage/free-for-all.ts';
import { enterGame, lobbyGamesOf, lobbyPerson, type LobbyPerson } from '../../services/competition/stages/lobbies.ts';
import { type GuardedVars, pathGuard } from '../context.ts';
import { t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';

const tags = ['Етапи'];
const params = z.object({ id: z.uuid() });
const gameParams = z.object({ id: z.uuid(), n: z.coerce.number().int().min(1).max(20) });

/** The caller plays in the lobby or organises its tournament: 404 for no lobby, 403 for anyone else, before the body. */
async function requireLobbyPerson({ db, auth }: GuardedVars, lobbyId: string): Promise<Extract<LobbyPerson, { ok: true }>> {
  const person = await lobbyPerson(db, lobbyId, auth.user);
  if (!person.ok) fail(person.reason === 'notFound' ? 404 : 403, person.reason === 'notFound' ? 'lobby.notFound' : 'lobby.outsider');
  return person;
}
const lobbyOnly = pathGuard('id', 'lobby', requireLobbyPerson);

/** Mounted at /matches: the games of a free-for-all lobby (issue 59), whose id is its match id. */
export const lobbyGameRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'put',
        path: '/{id}/games/{n}',
        tags,
        summary:
          'Результат гри n у лобі формату «кожен сам за себе»: місце (1…розмір лобі, кожне рівно раз) і вбивства кожного учасника лобі. ' +
          'Організатор турніру вносить гру — вона зараховується (і замінює попередню, поки раунд триває); гравець лобі (капітан команди) пропонує її, ' +
          'і вона чекає, доки організатор її внесе. Остання гра раунду складає лобі наступного раунду з найкращих кожного лобі',
        request: { params: gameParams, body: jsonBody(lobbyGameInput) },
        responses: {
          200: jsonResponse(z.object({ message: z.string(), state: z.enum(LOBBY_GAME_STATES), lobby: lobbySchema }), 'Гру внесено або запропоновано'),
          ...errors(400, 401, 403, 404, 409, 422),
        },
      },
      lobbyOnly,
    ),
    async (c) => {
      const { id, n } = c.req.valid('param');
      const { lines } = c.req.valid('json');
      const entered = await enterGame(c.get('db'), id, n, lines, c.var.auth.user);
      if (!entered.ok) {
        const { reason } = entered;
        if (reason === 'notFound') fail(404, 'lobby.notFound');
        if (reason === 'notInLobby') fail(403, 'lobby.outsider');
        if (reason === 'finished') fail(409, 'stage.finished');
        if (reason === 'noSuchGame') fail(404, 'lobby.noSuchGame', { games: entered.games ?? 1 });
        if (reason === 'roundOver' || reason === 'alreadyEntered') fail(409, `lobby.${reason}`);
        fail(422, `lobby.game.${reason}`);
      }
      return c.json(
        { message: t(entered.state === 'confirmed' ? 'lobby.entered' : 'lobby.proposed', { number: n }), state: entered.state, lobby: entered.lobby },
        200,
      );
    },
  )
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/games',
        tags,
        summary: 'Ігри лобі разом із запропонованими гравцями, що чекають організатора: лише для гравців лобі й організаторів турніру',
        request: { params },
        responses: {
          200: jsonResponse(
            z.array(z.object({ number: z.number().int(), lines: z.array(ffaLineSchema), state: z.enum(LOBBY_GAME_STATES), enteredAt: z.string() })),
            'Ігри',
          ),
          ...errors(400, 401, 403, 404),
        },
      },
      lobbyOnly,
    ),
    async (c) => {
      c.header('Cache-Control', 'private, no-cache');
      return c.json(await lobbyGamesOf(c.get('db'), c.req.valid('param').id), 200);
    },
  );
