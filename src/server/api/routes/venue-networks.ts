import { z } from '@hono/zod-openapi';
import { tournamentVenueSchema, venueDecisionInput, venueNetworkInput, venueNetworkList, venueNetworkSaved } from '../../../lib/api/venue-networks.ts';
import { MAX_VENUE_NETWORKS, VENUE_WINDOW } from '../../../lib/domain/venue-networks.ts';
import { t } from '../../../lib/i18n/index.ts';
import { venueProblem } from '../../env.ts';
import { fail } from '../errors.ts';
import { adminRoute, errors, jsonBody, jsonResponse, organiserRoute, router } from '../openapi.ts';
import {
  askForVenueNetwork,
  decideVenueNetwork,
  tournamentVenue,
  venueNetworksToDecide,
  withdrawVenueNetwork,
  type AskRefusal,
  type DecisionRefusal,
} from '../../services/venues/venue-networks.ts';

const tags = ['Мережі залів'];
const params = z.object({ id: z.uuid() });

/** Each entry as TRUSTED_VENUE_NETWORKS' are checked at start: the same sentence refuses it (server/env.ts). */
const askInput = venueNetworkInput.superRefine((input, ctx) => {
  for (const entry of input.networks) {
    const problem = venueProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['networks'] });
  }
});

const WINDOW = `від ${VENUE_WINDOW.beforeHours} год до початку турніру до ${VENUE_WINDOW.afterHours} год після`;

const ASK_REFUSALS: Record<AskRefusal, [404 | 409 | 422, Parameters<typeof fail>[1]]> = {
  tournamentNotFound: [404, 'tournament.notFound'],
  already: [409, 'venues.already'],
  windowOver: [422, 'venues.windowOver'],
};

const DECISION_REFUSALS: Record<DecisionRefusal, [404 | 409 | 422, Parameters<typeof fail>[1]]> = {
  notFound: [404, 'venues.notFound'],
  decided: [409, 'venues.decided'],
  windowOver: [422, 'venues.windowOver'],
};

/**
 * Mounted at /tournaments: a tournament's venue network (issue 57, decision 035), for its
 * organisers. Approved by the site's admin, clients inside it are counted by no per-address limit
 * in the window around the tournament's date, as inside TRUSTED_VENUE_NETWORKS.
 */
export const tournamentVenueRoutes = router()
  .openapi(
    organiserRoute(
      {
        method: 'get',
        path: '/{id}/venue-network',
        tags,
        summary: `Організатори турніру: їхній останній запит на мережу зали (null, коли відкликано), його вікно (${WINDOW}) і чи можна ще просити`,
        request: { params },
        responses: { 200: jsonResponse(tournamentVenueSchema, 'Мережа зали турніру'), ...errors(400, 401, 403, 404) },
      },
      'tournament',
    ),
    async (c) => {
      const venue = await tournamentVenue(c.get('db'), c.req.valid('param').id);
      if (!venue) fail(404, 'tournament.notFound');
      c.header('Cache-Control', 'no-store');
      return c.json(venue, 200);
    },
  )
  .openapi(
    organiserRoute(
      {
        method: 'post',
        path: '/{id}/venue-network',
        tags,
        summary:
          `Організатор турніру просить мережу зали: networks — до ${MAX_VENUE_NETWORKS} IP-адрес чи мереж CIDR (як TRUSTED_VENUE_NETWORKS: не імена, ` +
          `не ширше IPv4 /8 чи IPv6 /32, без loopback), note — назва зали. Чекає на рішення адміністратора сайту; схвалена діє ${WINDOW}. ` +
          'Уже є запит, що чекає чи схвалений, — 409; турнір минув — 422',
        request: { params, body: jsonBody(askInput) },
        responses: { 201: jsonResponse(venueNetworkSaved, 'Запит надіслано адміністраторові'), ...errors(400, 401, 403, 404, 409, 415, 422) },
      },
      'tournament',
    ),
    async (c) => {
      const done = await askForVenueNetwork(c.get('db'), c.req.valid('param').id, c.req.valid('json'), c.var.auth.user);
      if (!done.ok) fail(...ASK_REFUSALS[done.reason]);
      return c.json({ message: t('venues.requested'), request: done.request }, 201);
    },
  )
  .openapi(
    organiserRoute(
      {
        method: 'delete',
        path: '/{id}/venue-network',
        tags,
        summary:
          'Організатор турніру (чи адміністратор) відкликає запит на мережу зали, що чекає чи схвалений: схвалена мережа перестає діяти. Нема такого — 404',
        request: { params },
        responses: { 200: jsonResponse(venueNetworkSaved, 'Відкликано'), ...errors(400, 401, 403, 404) },
      },
      'tournament',
    ),
    async (c) => {
      const done = await withdrawVenueNetwork(c.get('db'), c.req.valid('param').id, c.var.auth.user);
      if (!done.ok) fail(404, done.reason === 'tournamentNotFound' ? 'tournament.notFound' : 'venues.none');
      return c.json({ message: t('venues.withdrawn'), request: done.request }, 200);
    },
  );

/** Mounted at /venue-networks: the site's admin decides the organisers' requests. */
export const venueNetworkRoutes = router()
  .openapi(
    adminRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Адмін: запити організаторів на мережі залів — спершу ті, що чекають, потім схвалені; лише турнірів, чиє вікно ще не минуло',
      responses: { 200: jsonResponse(venueNetworkList, 'Запити'), ...errors(401, 403) },
    }),
    async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await venueNetworksToDecide(c.get('db')), 200);
    },
  )
  .openapi(
    adminRoute({
      method: 'patch',
      path: '/{id}',
      tags,
      summary:
        'Адмін: схвалити (status: approved) чи відхилити (refused) запит на мережу зали; організаторам — дзвіночок. ' +
        'Уже вирішений чи відкликаний — 409; схвалити запит турніру, що минув, — 422',
      request: { params, body: jsonBody(venueDecisionInput) },
      responses: { 200: jsonResponse(venueNetworkSaved, 'Рішення записано'), ...errors(400, 401, 403, 404, 409, 415, 422) },
    }),
    async (c) => {
      const { status } = c.req.valid('json');
      const done = await decideVenueNetwork(c.get('db'), c.req.valid('param').id, status, c.var.auth.user);
      if (!done.ok) fail(...DECISION_REFUSALS[done.reason]);
      return c.json({ message: t(status === 'approved' ? 'venues.approved' : 'venues.refused', { note: done.request.note }), request: done.request }, 200);
    },
  );
