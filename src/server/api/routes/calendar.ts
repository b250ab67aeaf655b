import { createRoute, z } from '@hono/zod-openapi';
import { calendarLinkSchema } from '../../../lib/api/schedule.ts';
import { currentLocale, t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { calendarToken, personalCalendar, revokeCalendarToken, tokenOfFile, tournamentCalendar } from '../../services/competition/calendar.ts';
import { errors, jsonResponse, oneTournament, publicRead, router, userRoute } from '../openapi.ts';

/** The iCalendar answer of a feed: text in UTF-8 (Cyrillic names). */
const CALENDAR_TYPE = 'text/calendar; charset=utf-8';
const calendarResponse = (description: string) => ({ description, content: { 'text/calendar': { schema: z.string() } } });

const feedUrl = (siteUrl: string, token: string) => `${siteUrl}/api/calendar/${token}.ics`;

/**
 * A player's personal calendar feed (issue 22), read by calendar apps without a session: the
 * secret address is the key, so a token nobody holds (never issued, revoked) is a plain 404.
 */
export const calendarFeedRoutes = router().openapi(
  createRoute({
    method: 'get',
    path: '/{file}',
    tags: ['Кабінет'],
    summary: 'Мій календар (iCalendar) за секретною адресою /api/calendar/{token}.ics: мої турніри, їх підтвердження участі й мої та моїх команд матчі',
    request: { params: z.object({ file: z.string().max(200) }) },
    responses: { 200: calendarResponse('Календар'), ...errors(404) },
  }),
  async (c) => {
    const token = tokenOfFile(c.req.valid('param').file);
    const ics = token ? await personalCalendar(c.get('db'), token, c.get('deps').siteUrl) : null;
    if (ics === null) fail(404, 'calendar.notFound');
    // The address is a secret: never kept by a shared cache, nor sent on as a referrer.
    return c.body(ics, 200, { 'Content-Type': CALENDAR_TYPE, 'Cache-Control': 'private, no-cache', 'Referrer-Policy': 'no-referrer' });
  },
);

/** Mounted at /users/me: the address of the caller's calendar feed. */
export const calendarLinkRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/calendar',
      tags: ['Кабінет'],
      summary: 'Секретна адреса мого календаря (створюється під час першого запиту)',
      responses: { 200: jsonResponse(calendarLinkSchema, 'Адреса'), ...errors(401) },
    }),
    async (c) => c.json({ url: feedUrl(c.get('deps').siteUrl, await calendarToken(c.get('db'), c.var.auth.user.id)) }, 200),
  )
  .openapi(
    userRoute({
      method: 'post',
      path: '/calendar/revoke',
      tags: ['Кабінет'],
      summary: 'Замінити секретну адресу календаря: стара більше не відкривається (404)',
      responses: { 200: jsonResponse(calendarLinkSchema.extend({ message: z.string() }), 'Нова адреса'), ...errors(401) },
    }),
    async (c) => {
      const token = await revokeCalendarToken(c.get('db'), c.var.auth.user.id);
      return c.json({ message: t('calendar.revoked'), url: feedUrl(c.get('deps').siteUrl, token) }, 200);
    },
  );

/** Mounted at /tournaments: a tournament's public calendar. */
export const tournamentCalendarRoutes = router().openapi(
  publicRead({
    method: 'get',
    path: '/{id}/calendar.ics',
    tags: ['Турніри'],
    summary: 'Календар турніру (iCalendar, RFC 5545): початок, вікно підтвердження участі й заплановані матчі, час у зоні Europe/Kyiv',
    request: { params: z.object({ id: z.uuid() }) },
    responses: { 200: calendarResponse('Календар'), ...errors(400, 404) },
  }, { shows: oneTournament }),
  async (c) => {
    const ics = await tournamentCalendar(c.get('db'), c.req.valid('param').id, currentLocale(), c.get('deps').siteUrl);
    if (ics === null) fail(404, 'tournament.notFound');
    return c.body(ics, 200, { 'Content-Type': CALENDAR_TYPE });
  },
);
