import { z } from '@hono/zod-openapi';
import { stageScheduledSchema, stageScheduleInput } from '../../../lib/api/schedule.ts';
import { MAX_YEAR } from '../../../lib/domain/moments.ts';
import { currentLocale, plural, t, type MessageParams } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { scheduleStage, type StageScheduleRefusal } from '../../services/competition/schedule.ts';
import { errors, jsonBody, jsonResponse, organiserOrKeyRoute, router } from '../openapi.ts';

const stageParams = z.object({ id: z.uuid(), stageId: z.uuid() });

const refusals: Record<StageScheduleRefusal, [400 | 404 | 409 | 422, Parameters<typeof fail>[1], MessageParams?]> = {
  notFound: [404, 'tournament.notFound'],
  stageNotFound: [404, 'stage.notFound'],
  finished: [409, 'stage.finished'],
  minutesNeeded: [422, 'schedule.minutesNeeded'],
  roundNotFound: [404, 'schedule.roundNotFound'],
  nothingLeft: [409, 'schedule.nothingLeft'],
  // A computed time is checked as a typed date is: out of the years kept, the request is bad.
  pastLastYear: [400, 'schedule.pastLastYear', { max: MAX_YEAR }],
};

/**
 * Match day schedules (issue 22): the admin times a stage's rounds. One match's time is
 * `PATCH /api/matches/{id}` (routes/matches.ts); calendars are routes/calendar.ts.
 */
export const scheduleRoutes = router().openapi(
  organiserOrKeyRoute({
    method: 'post',
    path: '/{id}/stages/{stageId}/schedule',
    tags: ['Етапи'],
    summary:
      'Організатор турніру (адмін чи його співорганізатор): призначити час матчам етапу, ще не зіграним: усім турам — start + номер туру в порядку гри × roundMinutes ' +
      '(подвійна сітка: тур нижньої сітки — на слот пізніше за тур верхньої, що його живить; гранд-фінал — після обох фіналів), ' +
      'або одному туру (round, side, group) — на start',
    request: { params: stageParams, body: jsonBody(stageScheduleInput) },
    responses: {
      200: jsonResponse(stageScheduledSchema, 'Час призначено'),
      ...errors(400, 401, 403, 404, 409, 422),
    },
  }, 'tournament', 'run'),
  async (c) => {
    const { id, stageId } = c.req.valid('param');
    const done = await scheduleStage(c.get('db'), id, stageId, c.req.valid('json'));
    if (!done.ok) fail(...refusals[done.reason]);
    return c.json(
      { message: t('schedule.saved', { count: plural(currentLocale(), 'count.scheduledMatches', done.matches.length) }), matches: done.matches },
      200,
    );
  },
);
