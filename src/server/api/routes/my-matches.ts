import { myMatchesSchema } from '../../../lib/api/schedule.ts';
import { myMatches } from '../../services/match-day/my-matches.ts';
import { errors, jsonResponse, router, userRoute } from '../openapi.ts';

/** Mounted at /users/me: the caller's next matches («Мої матчі», issue 22). */
export const myMatchesRoutes = router().openapi(
  userRoute({
    method: 'get',
    path: '/matches',
    tags: ['Кабінет'],
    summary:
      'Мої матчі: наступні й поточні мої та моїх команд (турнір, суперник, час, стан, звіт, чи можу звітувати й відмічатися), ' +
      'спершу готові до гри, далі за часом; і турніри, де зараз відкрите підтвердження участі для мене',
    responses: { 200: jsonResponse(myMatchesSchema, 'Мої матчі'), ...errors(401) },
  }),
  async (c) => c.json(await myMatches(c.get('db'), c.var.auth.user.id), 200),
);
