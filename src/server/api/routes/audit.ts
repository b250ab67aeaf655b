import { z } from '@hono/zod-openapi';
import { adminAuditEntrySchema, auditEntrySchema, auditQuery, historyQuery } from '../../../lib/api/audit.ts';
import { HISTORY_PAGE } from '../../../lib/api/audit-query.ts';
import { AUDIT_KINDS } from '../../../lib/domain/organisers.ts';
import { getAuth } from '../context.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonResponse, oneTournament, publicRead, router } from '../openapi.ts';
import { linkToNextBefore } from '../paging.ts';
import { auditLogPage, tournamentHistory } from '../../services/competition/audit.ts';
import { isOrganiser } from '../../services/competition/staff.ts';

const tags = ['Журнал змін'];
const paging = `новіші спершу; limit 1–100 (типово ${HISTORY_PAGE}); далі — before=<_id останнього показаного запису> (його дає заголовок Link: <…>; rel="next")`;

/**
 * The audit log (issue 23), read only: no route changes or deletes an entry (and the database
 * refuses it). A tournament's history is public; its organisers also see who made each change.
 */
export const historyRoutes = router().openapi(
  publicRead({
    method: 'get',
    path: '/{id}/history',
    tags,
    summary:
      `Історія змін турніру: рішення щодо заявок, check-in організатором, етапи, результати, технічні поразки, дискваліфікації, спори, переможець, організатори; ${paging}. ` +
      'Організатори турніру й адміни бачать також, хто змінив (actor; null — сервер сам), гості — що й коли',
    request: { params: z.object({ id: z.uuid() }), query: historyQuery },
    responses: { 200: jsonResponse(z.array(auditEntrySchema), 'Записи'), ...errors(400, 404) },
  }, { shows: oneTournament, mine: true }),
  async (c) => {
    const { id } = c.req.valid('param');
    const { limit = HISTORY_PAGE, before } = c.req.valid('query');
    const db = c.get('db');
    const auth = getAuth(c);
    const who = auth !== null && (await isOrganiser(db, auth.user, id));
    const page = await tournamentHistory(db, id, { limit, before }, who);
    if (!page) fail(404, 'tournament.notFound');
    // A guest's answer is the same for every guest; an organiser's names people and is never stored.
    linkToNextBefore(c, { last: page.items.at(-1)?._id, more: page.more });
    return c.json(page.items, 200);
  },
);

export const auditRoutes = router().openapi(
  adminRoute({
    method: 'get',
    path: '/',
    tags,
    summary:
      `Адмін: увесь журнал змін — хто, коли, що, до → після; фільтри tournament, kind (${AUDIT_KINDS.join(', ')}), actor (id користувача), ` +
      `from і to (ISO 8601; from включно, to — ні); ${paging}`,
    request: { query: auditQuery },
    responses: { 200: jsonResponse(z.array(adminAuditEntrySchema), 'Записи'), ...errors(400, 401, 403) },
  }),
  async (c) => {
    const { limit = HISTORY_PAGE, before, tournament, kind, actor, from, to } = c.req.valid('query');
    c.header('Cache-Control', 'private, no-store');
    const page = await auditLogPage(c.get('db'), {
      limit,
      before,
      tournamentId: tournament,
      kind,
      actorId: actor,
      from: from === undefined ? undefined : new Date(from),
      to: to === undefined ? undefined : new Date(to),
    });
    linkToNextBefore(c, { last: page.items.at(-1)?._id, more: page.more });
    return c.json(page.items, 200);
  },
);
