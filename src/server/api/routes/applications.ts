import { z } from '@hono/zod-openapi';
import {
  adminApplicationSchema,
  applicationInput,
  applicationListQuery,
  applicationSaved,
  applicationStatusInput,
} from '../../../lib/api/applications.ts';
import { TEAM_SIZE, type ApplyRefusal } from '../../../lib/domain/application-rules.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Database } from '../context.ts';
import type { AuditActor } from '../../services/competition/audit.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, messageBody, organiserOrKeyRoute, router, userRoute } from '../openapi.ts';
import { PAGE_MAX_LIMIT } from '../../../lib/api/paging.ts';
import { linkToNext } from '../paging.ts';
import { applyTo, changeStatus, deleteApplication, listApplications } from '../../services/match-day/applications.ts';
import { withdrawApplication, type Withdrawal } from '../../services/match-day/registration.ts';
import { isOrganiser, tournamentOfApplication } from '../../services/competition/staff.ts';


const idParam = z.object({ id: z.uuid() });

const REFUSAL_STATUS: Record<ApplyRefusal, 403 | 409 | 422> = {
  notCaptain: 403,
  bracketDrawn: 409,
  notPending: 409,
  alreadyApplied: 409,
  soloOnly: 422,
  teamOnly: 422,
  noTeam: 422,
  teamSize: 422,
  registrationNotOpen: 409,
  registrationClosed: 409,
  steamRequired: 403,
  teamSteamRequired: 403,
};

const WITHDRAW_STATUS = { notFound: 404, notOwner: 403, started: 409 } as const satisfies Record<Exclude<Withdrawal, { ok: true }>['reason'], number>;

/** Stops the request with the status and message of a broken application rule. */
export function refuseApplication(reason: ApplyRefusal): never {
  fail(REFUSAL_STATUS[reason], `apply.refused.${reason}`, { min: TEAM_SIZE.min, max: TEAM_SIZE.max });
}

async function handleStatusChange(db: Database, id: string, body: z.infer<typeof applicationStatusInput>, actor: AuditActor) {
  const result = await changeStatus(db, id, body, actor);
  if (!result.ok) {
    if (result.reason === 'notFound') fail(404, 'applications.notFound');
    if (result.reason === 'lineupFixed') fail(409, 'applications.refused.lineupFixed');
    if (result.reason === 'full') fail(409, 'applications.refused.full', { max: result.max });
    refuseApplication('alreadyApplied');
  }
  const message = t(body.status === 'approved' ? 'applications.approved' : 'applications.rejected');
  return { message, application: result.application };
}

const statusRoute = (path: string, summary: string) =>
  organiserOrKeyRoute({
    method: 'patch',
    path,
    tags: ['Заявки'],
    summary,
    request: { params: idParam, body: jsonBody(applicationStatusInput) },
    responses: { 200: jsonResponse(applicationSaved, 'Статус змінено, заявника сповіщено'), ...errors(400, 401, 403, 404, 409, 415) },
  }, 'application', 'run');

export const applicationsRoutes = router()
  .openapi(
    userRoute({
      method: 'post',
      path: '/',
      tags: ['Заявки'],
      summary: 'Подати заявку: соло (`tournament`) або від команди (`tournament` і `team`, лише капітан)',
      request: { body: jsonBody(applicationInput) },
      responses: { 201: jsonResponse(applicationSaved, 'Заявку подано'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const { user } = c.var.auth;
      const result = await applyTo(c.get('db'), user.id, c.req.valid('json'));
      if (!result.ok) {
        if (result.reason === 'tournamentNotFound') fail(404, 'tournament.notFound');
        if (result.reason === 'teamNotFound') fail(404, 'apply.teamNotFound');
        refuseApplication(result.reason);
      }
      const message = t(result.waitlisted ? 'apply.waitlisted' : result.team ? 'apply.teamSubmitted' : 'apply.submitted');
      return c.json({ message, application: result.application }, 201);
    },
  )
  .openapi(
    adminRoute({
      method: 'get',
      path: '/',
      tags: ['Заявки'],
      summary:
        'Адмін: заявки, новіші спершу, сторінкою (`limit` 1–100, типово 100; `offset`; далі — `Link: <…>; rel="next"`); можна за статусом чи турніром',
      request: { query: applicationListQuery },
      responses: { 200: jsonResponse(z.array(adminApplicationSchema), 'Заявки'), ...errors(400, 401, 403) },
    }),
    async (c) => {
      c.header('Cache-Control', 'private, no-store');
      const { limit = PAGE_MAX_LIMIT, offset = 0, ...filter } = c.req.valid('query');
      const page = await listApplications(c.get('db'), { ...filter, limit, offset });
      linkToNext(c, { offset, limit, more: page.more });
      return c.json(page.items, 200);
    },
  )
  .openapi(statusRoute('/{id}/status', 'Організатор турніру (адмін чи його співорганізатор): схвалити чи відхилити заявку (коли сітку створено, склад схвалених не змінюється: 409)'), async (c) =>
    c.json(await handleStatusChange(c.var.db, c.req.valid('param').id, c.req.valid('json'), c.var.actor), 200),
  )
  .openapi(statusRoute('/{id}', 'Організатор турніру (адмін чи його співорганізатор): змінити статус заявки (той самий виклик, інший шлях)'), async (c) =>
    c.json(await handleStatusChange(c.var.db, c.req.valid('param').id, c.req.valid('json'), c.var.actor), 200),
  )
  .openapi(
    userRoute({
      method: 'delete',
      path: '/{id}',
      tags: ['Заявки'],
      summary:
        'Видалити заявку. Адмін чи співорганізатор турніру — будь-яку заявку цього турніру (схвалену — лише поки сітку не створено: 409); гравець відкликає власну, капітан — заявку команди, ' +
        'поки турнір не розпочався (інакше 409; чужу — 403). Звільнене місце отримує перша заявка зі списку очікування',
      request: { params: idParam },
      responses: { 200: jsonResponse(messageBody, 'Заявку видалено'), ...errors(400, 401, 403, 404, 409) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { user } = c.var.auth;
      // The tournament's organisers remove any application of it; anyone else withdraws their own.
      const tournamentId = await tournamentOfApplication(c.get('db'), id);
      if (tournamentId && (await isOrganiser(c.get('db'), user, tournamentId))) {
        const result = await deleteApplication(c.get('db'), id, user);
        if (!result.ok) fail(result.reason === 'notFound' ? 404 : 409, result.reason === 'notFound' ? 'applications.notFound' : 'applications.refused.lineupFixed');
        return c.json({ message: t('applications.deleted') }, 200);
      }
      const result = await withdrawApplication(c.get('db'), id, user.id);
      if (!result.ok) fail(WITHDRAW_STATUS[result.reason], result.reason === 'notFound' ? 'applications.notFound' : `applications.refused.${result.reason}`);
      return c.json({ message: t('apply.withdrawn') }, 200);
    },
  );
