import { z } from '@hono/zod-openapi';
import { stageCreateInput, stageSchema, stagesStateSchema, standingsSchema } from '../../../lib/api/stages.ts';
import { MAX_ROUND_ROBIN_GROUP, MAX_STAGE_PARTICIPANTS } from '../../../lib/domain/stage/format.ts';
import { defaultLocale, plural, t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { createStage, pairNextRound, type StageRefusal } from '../../services/competition/stages/commands.ts';
import { disqualify } from '../../services/competition/stages/disqualify.ts';
import { tournamentStandings } from '../../services/competition/stages/standings.ts';
import { stagesVersion } from '../../services/competition/stages/store.ts';
import { stagesState } from '../../services/competition/stages/views.ts';

import { errors, jsonBody, jsonResponse, oneTournament, organiserOrKeyRoute, publicRead, router } from '../openapi.ts';

const tags = ['Етапи'];
const params = z.object({ id: z.uuid() });
const stageParams = z.object({ id: z.uuid(), stageId: z.uuid() });

/** The stages' ETag: the tournament's competition version, shared with the bracket poll. */
const etagOf = (tournamentId: string, version: number) => `"stages-${tournamentId}-v${version}"`;

function refuseStage(reason: StageRefusal, counts: { participants?: number | undefined; groups?: number | undefined; advance?: number | undefined }): never {
  const answers = {
    notFound: [404, 'tournament.notFound'],
    finished: [409, 'stage.finished'],
    noParticipants: [422, 'bracket.noParticipants'],
    needTwo: [422, 'bracket.needTwo'],
    manualParticipants: [422, 'stage.manualParticipants'],
    fromNotFound: [404, 'stage.fromNotFound'],
    fromNotComplete: [409, 'stage.fromNotComplete'],
    advanceTooFew: [422, 'stage.advanceTooFew'],
    thirdPlaceNeedsFour: [422, 'stage.thirdPlaceNeedsFour'],
  } as const;
  if (reason === 'tooMany') fail(422, 'stage.tooMany', { max: MAX_STAGE_PARTICIPANTS });
  if (reason === 'groupTooLarge') fail(422, 'stage.groupTooLarge', { max: MAX_ROUND_ROBIN_GROUP });
  if (reason === 'ffaAdvanceNeeded' || reason === 'ffaAdvanceTooLarge') {
    fail(422, reason === 'ffaAdvanceNeeded' ? 'stage.ffaAdvanceNeeded' : 'stage.ffaAdvanceTooLarge', { participants: plural(defaultLocale, 'count.participants', counts.participants ?? 0) });
  }
  if (reason === 'advanceBeyondQualified') fail(422, 'stage.advanceBeyondQualified', { advance: counts.advance ?? 0 });
  if (reason === 'gslGroups') {
    fail(422, 'stage.gslGroups', { participants: plural(defaultLocale, 'count.participants', counts.participants ?? 0), groups: counts.groups ?? 1 });
  }
  const [status, key] = answers[reason];
  fail(status, key);
}

/**
 * A tournament's competition (issue 21, decision 013): its stages with groups, matches, tables and
 * places; the admin creates stages, pairs Swiss rounds and disqualifies. Results are entered per
 * match (`routes/matches.ts`).
 */
export const stageRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/stages',
      tags,
      summary: 'Етапи турніру: групи, матчі, таблиці й місця; з If-None-Match відповідає 304, якщо нічого не змінилось',
      request: { params },
      responses: {
        200: jsonResponse(stagesStateSchema, 'Етапи'),
        304: { description: 'Не змінились' },
        ...errors(400, 404),
      },
    }, { shows: oneTournament, mine: true }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.get('db');
      // The version alone answers an unchanged poll without reading the stages.
      const version = await stagesVersion(db, id);
      if (version === null) fail(404, 'tournament.notFound');
      const etag = etagOf(id, version);
      c.header('ETag', etag);
      // Public and held (a 256-player stage is costly to build): a write drops the held copy, and
      // a poll with the ETag costs one indexed read.
      if (c.req.header('if-none-match') === etag) return c.body(null, 304);
      const state = await stagesState(db, id);
      if (!state) fail(404, 'tournament.notFound');
      c.header('ETag', etagOf(id, state.version));
      return c.json(state, 200);
    },
  )
  .openapi(
    organiserOrKeyRoute({
      method: 'post',
      path: '/{id}/stages',
      tags,
      summary:
        'Організатор турніру (адмін чи його співорганізатор): створити етап (single_elimination, double_elimination, round_robin, swiss, gsl) зі схвалених учасників або з найкращих ' +
        'попереднього етапу. Швейцарська система з порогами (settings.winsToAdvance і lossesToEliminate, як на мейджорах CS2): тур 1 — посів k проти k + n/2, далі за рекордом і складністю (Бухгольц Valve), ' +
        'вирішальні матчі — settings.decidingBestOf; settings.autoPair складає наступний тур одразу. gsl — групи по 3–4 (settings.groups): стартові матчі, матч переможців, матч на виліт, вирішальний. ' +
        'З попереднього етапу — from: top advance кожної групи, перехресний посів (зі швейцарської з порогами — лише ті, хто пройшов, за рекордом і складністю). Посів order, standard, rating, manual (participants — порядок). ' +
        'Перший етап закриває заявки: турнір, що очікує, стає розпочатим',
      request: { params, body: jsonBody(stageCreateInput) },
      responses: {
        201: jsonResponse(z.object({ message: z.string(), stage: stageSchema }), 'Етап створено'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }, 'tournament', 'run'),
    async (c) => {
      const { id } = c.req.valid('param');
      const input = c.req.valid('json');
      const created = await createStage(c.get('db'), id, input, c.var.actor);
      if (!created.ok) refuseStage(created.reason, { ...created, advance: input.from?.advance });
      const count = created.stage.seeds.filter((s) => s !== null).length;
      // «By rating» says when it could not be: nobody rated falls back to the order of applications entirely.
      const fallback =
        created.unrated === undefined || created.unrated === 0
          ? ''
          : `. ${created.unrated >= count ? t('stage.nobodyRated') : t('stage.someUnrated', { count: plural(defaultLocale, 'count.participants', created.unrated) })}`;
      return c.json(
        {
          message:
            t('stage.created', {
              participants: plural(defaultLocale, 'count.participants', count),
            }) + fallback,
          stage: created.stage,
        },
        201,
      );
    },
  )
  .openapi(
    organiserOrKeyRoute({
      method: 'post',
      path: '/{id}/stages/{stageId}/next-round',
      tags,
      summary:
        'Організатор турніру (адмін чи його співорганізатор): скласти наступний тур швейцарської системи — за очками, далі за рейтингом, без повторних зустрічей, поки це можливо ' +
        '(з порогами — за правилами Valve: у кожній групі рекорду найвищий посів проти найнижчого доступного, у турах 4–5 — таблиця пріоритетів); лише коли поточний тур завершено',
      request: { params: stageParams },
      responses: {
        200: jsonResponse(z.object({ message: z.string(), stage: stageSchema }), 'Тур складено'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }, 'tournament', 'run'),
    async (c) => {
      const { id, stageId } = c.req.valid('param');
      const next = await pairNextRound(c.get('db'), id, stageId);
      if (!next.ok) {
        if (next.reason === 'tournamentNotFound') fail(404, 'tournament.notFound');
        if (next.reason === 'notFound') fail(404, 'stage.notFound');
        if (next.reason === 'finished') fail(409, 'stage.finished');
        fail(next.reason === 'notSwiss' ? 422 : 409, `stage.${next.reason}`);
      }
      return c.json(
        {
          message: t('stage.nextRound', { round: next.round }),
          stage: next.stage,
        },
        200,
      );
    },
  )
  .openapi(
    organiserOrKeyRoute({
      method: 'post',
      path: '/{id}/disqualify',
      tags,
      summary:
        'Організатор турніру (адмін чи його співорганізатор): дискваліфікувати учасника — кожен його ще не зіграний матч зараховується суперникові (зараз і коли прийде черга); зіграні результати лишаються',
      request: {
        params,
        body: jsonBody(z.object({ participant: z.uuid() }).strict()),
      },
      responses: {
        200: jsonResponse(z.object({ message: z.string(), stages: z.array(stageSchema) }), 'Дискваліфіковано'),
        ...errors(400, 401, 403, 404, 409, 422),
      },
    }, 'tournament', 'run'),
    async (c) => {
      const { id } = c.req.valid('param');
      const done = await disqualify(c.get('db'), id, c.req.valid('json').participant, c.var.actor);
      if (!done.ok) {
        if (done.reason === 'notFound') fail(404, 'tournament.notFound');
        if (done.reason === 'finished') fail(409, 'stage.finished');
        fail(done.reason === 'already' ? 409 : 422, done.reason === 'already' ? 'stage.alreadyDisqualified' : 'stage.notParticipant');
      }
      return c.json({ message: t('stage.disqualified'), stages: done.stages }, 200);
    },
  )
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/standings',
      tags,
      summary: 'Підсумкові місця турніру за всіма етапами (1, 2, 3–4, 5–8…); поки етапи тривають — відомі на цей час',
      request: { params },
      responses: {
        200: jsonResponse(standingsSchema, 'Місця'),
        ...errors(400, 404),
      },
    }, { shows: oneTournament }),
    async (c) => {
      const { id } = c.req.valid('param');
      const standings = await tournamentStandings(c.get('db'), id);
      if (!standings) fail(404, 'tournament.notFound');
      return c.json({ tournament: id, ...standings }, 200);
    },
  );
