import { z } from '@hono/zod-openapi';
import { checkInExtended, checkInExtendInput, checkInInput, checkInSaved } from '../../../lib/api/check-in.ts';
import { t } from '../../../lib/i18n/index.ts';
import type { Auth, Database } from '../context.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, organiserOrKeyRoute, router, userRoute } from '../openapi.ts';
import { extendCheckIn, setCheckIn, type CheckInExtension, type CheckInRefusal } from '../../services/match-day/registration.ts';
import { isOrganiser } from '../../services/competition/staff.ts';

const tags = ['Заявки'];
const params = z.object({ id: z.uuid() });

const REFUSALS: Record<CheckInRefusal, [404 | 403 | 409, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'tournament.notFound'],
  applicationNotFound: [404, 'applications.notFound'],
  disabled: [409, 'checkIn.refused.disabled'],
  notParticipant: [403, 'checkIn.refused.notParticipant'],
  notEligible: [409, 'checkIn.refused.notEligible'],
  drawn: [409, 'checkIn.refused.drawn'],
  notOpen: [409, 'checkIn.refused.notOpen'],
  closed: [409, 'checkIn.refused.closed'],
  appliedAgain: [409, 'checkIn.refused.appliedAgain'],
  full: [409, 'checkIn.refused.full'],
};

const EXTEND_REFUSALS: Record<Extract<CheckInExtension, { ok: false }>['reason'], [404 | 409 | 422, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'tournament.notFound'],
  disabled: [409, 'checkIn.refused.disabled'],
  drawn: [409, 'checkIn.refused.drawn'],
  alreadyClosed: [409, 'checkIn.extend.refused.alreadyClosed'],
  notLater: [422, 'checkIn.extend.refused.notLater'],
  afterStart: [422, 'checkIn.extend.refused.afterStart'],
};

/** Whether the caller checks someone else in as the tournament's organiser (an admin, or its staff: decision 016). */
const overrides = async (db: Database, user: Auth['user'], tournamentId: string, body: { applicationId?: string | undefined }) =>
  body.applicationId !== undefined && (await isOrganiser(db, user, tournamentId));

const checkInRoute = (method: 'post' | 'delete', summary: string) =>
  userRoute({
    method,
    path: '/{id}/check-in',
    tags,
    summary,
    request: { params, body: { ...jsonBody(checkInInput), required: false } },
    responses: { 200: jsonResponse(checkInSaved, 'Стан підтвердження участі'), ...errors(400, 401, 403, 404, 409, 415) },
  });

/**
 * Check-in (issue 22, decision 014): the approved or waitlisted player, or the captain for the
 * team, confirms they will play while the window is open; an admin may check anyone in or out
 * (`applicationId`) until the competition is drawn.
 */
export const checkInRoutes = router()
  .openapi(
    checkInRoute(
      'post',
      'Підтвердити участь (check-in): схвалений гравець чи гравець зі списку очікування, за команду — капітан, поки вікно відкрите (інакше 409). ' +
        'Організатор турніру (адмін чи співорганізатор) із `applicationId` — за будь-кого, доки сітку не створено',
    ),
    async (c) => {
      const { user } = c.var.auth;
      const body = c.req.valid('json') ?? {};
      const { id } = c.req.valid('param');
      const result = await setCheckIn(c.var.db, id, { userId: user.id, isAdmin: await overrides(c.var.db, user, id, body) }, { ...body, checkedIn: true });
      if (!result.ok) fail(...REFUSALS[result.reason]);
      return c.json({ message: t('checkIn.done'), application: result.application }, 200);
    },
  )
  .openapi(
    checkInRoute('delete', 'Скасувати підтвердження участі, поки вікно відкрите; організатор турніру із `applicationId` — за будь-кого, доки сітку не створено'),
    async (c) => {
      const { user } = c.var.auth;
      const body = c.req.valid('json') ?? {};
      const { id } = c.req.valid('param');
      const result = await setCheckIn(c.var.db, id, { userId: user.id, isAdmin: await overrides(c.var.db, user, id, body) }, { ...body, checkedIn: false });
      if (!result.ok) fail(...REFUSALS[result.reason]);
      return c.json({ message: t('checkIn.undone'), application: result.application }, 200);
    },
  )
  .openapi(
    organiserOrKeyRoute(
      {
        method: 'patch',
        path: '/{id}/check-in',
        tags,
        summary:
          'Організатор турніру подовжує реєстрацію присутності: новий час закриття (closesAt) — пізніше за поточний і за теперішній, не пізніше за початок; ' +
          'після закриття (коли вже вибули ті, хто не відмітився) — 409: таких повертають по одному (POST з applicationId)',
        request: { params, body: jsonBody(checkInExtendInput) },
        responses: { 200: jsonResponse(checkInExtended, 'Подовжено'), ...errors(400, 401, 403, 404, 409, 415, 422) },
      },
      'tournament',
      'run',
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const result = await extendCheckIn(c.var.db, id, new Date(c.req.valid('json').closesAt), c.var.actor);
      if (!result.ok) fail(...EXTEND_REFUSALS[result.reason]);
      return c.json({ message: t('checkIn.extended'), closesAt: result.closesAt }, 200);
    },
  );
