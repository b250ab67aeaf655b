import { myMatchesSchema } from '../../../lib/api/schedule.ts';
import { myApplicationsSchema } from '../../../lib/api/my-applications.ts';
import { organisedTournamentsSchema } from '../../../lib/api/tournaments.ts';
import { organisedBy } from '../../services/competition/organising.ts';
import { myApplications, myMatches } from '../../services/match-day/my-matches.ts';
import { errors, jsonResponse, router, userRoute } from '../openapi.ts';

/**
 * Mounted at /users/me: the caller's next matches («Мої матчі», issue 22), the tournaments they organise
 * («Мої турніри», issue 57) and those they applied to (issue 57).
 */
export const myMatchesRoutes = router()
  .openapi(
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
  )
  .openapi(
    userRoute({
      method: 'get',
      path: '/tournaments',
      tags: ['Кабінет'],
      summary:
        'Мої турніри: ті, що я організовую — як співорганізатор чи як людина організації, що їх проводить (адміністратор сайту — ще й турніри самого сайту); ' +
        'спершу поточні й майбутні (найближчі першими), далі завершені; до 50',
      responses: { 200: jsonResponse(organisedTournamentsSchema, 'Мої турніри'), ...errors(401) },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json({ tournaments: await organisedBy(c.get('db'), c.var.auth.user) }, 200);
    },
  )
  .openapi(
    userRoute({
      method: 'get',
      path: '/applications',
      tags: ['Кабінет'],
      summary: 'Мої заявки: турніри, ще не завершені, де в мене чи в моєї команди є жива заявка (на розгляді, схвалена, у листі очікування)',
      responses: { 200: jsonResponse(myApplicationsSchema, 'Мої заявки'), ...errors(401) },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      return c.json(await myApplications(c.get('db'), c.var.auth.user.id), 200);
    },
  );
