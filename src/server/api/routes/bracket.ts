import { z } from '@hono/zod-openapi';
import { bracketCreateInput, bracketSavedSchema, bracketSaveInput, bracketStateSchema, type BracketState } from '../../../lib/api/bracket.ts';
import { defaultLocale, plural, t } from '../../../lib/i18n/index.ts';
import { fail } from '../errors.ts';
import { drawBracket, findTournamentRow, saveBracket } from '../../services/competition/bracket.ts';
import { stagesVersion } from '../../services/competition/stages/store.ts';
import { approvedParticipants } from '../../services/match-day/participants.ts';

import { errors, jsonBody, jsonResponse, oneTournament, organiserRoute, publicRead, router } from '../openapi.ts';

const params = z.object({ id: z.uuid() });
const staleSchema = bracketStateSchema.extend({ message: z.string() });

/** The bracket's ETag: its version, so a poll can tell "unchanged" with a 304. */
const etagOf = (tournamentId: string, version: number) => `"bracket-${tournamentId}-v${version}"`;

/** The version a save was based on: the body's `version`, or an `If-Match` ETag / number. */
function expectedVersion(bodyVersion: number | undefined, ifMatch: string | undefined): number | undefined {
  if (bodyVersion !== undefined) return bodyVersion;
  const match = ifMatch?.match(/(\d+)"?$/);
  return match ? Number(match[1]) : undefined;
}

export const bracketRoutes = router()
  .openapi(
    publicRead({
      method: 'get',
      path: '/{id}/bracket',
      tags: ['Сітки'],
      summary: 'Сітка турніру з версією; з If-None-Match відповідає 304, якщо нічого не змінилось (опитування кожні 5 с)',
      request: { params },
      responses: { 200: jsonResponse(bracketStateSchema, 'Сітка'), 304: { description: 'Не змінилась' }, ...errors(400, 404) },
    }, { shows: oneTournament, mine: true }),
    async (c) => {
      const { id } = c.req.valid('param');
      const db = c.get('db');
      // Public and held, like the stages (decision 023): a save, a result or an approval marks the
      // held copy out of date on every instance, so the polls of a final's viewers are answered from memory.
      // A poll (every 5 s, from every open bracket) that already has this version reads the version alone, not the bracket.
      const ifNoneMatch = c.req.header('if-none-match');
      if (ifNoneMatch !== undefined) {
        const version = await stagesVersion(db, id);
        if (version !== null && ifNoneMatch === etagOf(id, version)) {
          c.header('ETag', ifNoneMatch);
          return c.body(null, 304);
        }
      }
      const row = await findTournamentRow(db, id);
      if (!row) fail(404, 'tournament.notFound');
      const etag = etagOf(row.id, row.bracketVersion);
      c.header('ETag', etag);
      if (ifNoneMatch === etag) return c.body(null, 304);
      const state: BracketState = {
        tournament: row.id,
        bracket: row.bracket,
        version: row.bracketVersion,
        participants: await approvedParticipants(db, row),
        soloOnly: row.soloOnly,
      };
      return c.json(state, 200);
    },
  )
  .openapi(
    organiserRoute({
      method: 'post',
      path: '/{id}/bracket',
      tags: ['Сітки'],
      summary:
        'Організатор турніру (адмін чи його співорганізатор): створити сітку зі схвалених учасників (seeding: order або standard). Створення закриває заявки: турнір, що очікує, ' +
        'у тій самій транзакції стає розпочатим (started); після цього склад учасників не змінюється',
      request: { params, body: jsonBody(bracketCreateInput) },
      responses: { 201: jsonResponse(bracketSavedSchema, 'Сітку створено'), ...errors(400, 401, 403, 404, 409, 422) },
    }, 'tournament'),
    async (c) => {
      const { id } = c.req.valid('param');
      const result = await drawBracket(c.get('db'), id, c.req.valid('json'), c.var.auth.user);
      if (!result.ok) {
        if (result.reason === 'notFound') fail(404, 'tournament.notFound');
        if (result.reason === 'hasResults') fail(409, 'bracket.hasResults');
        if (result.reason === 'otherStages') fail(409, 'stage.bracketOtherStages');
        fail(422, `bracket.${result.reason}`);
      }
      c.header('ETag', etagOf(id, result.version));
      // SPEC §9's «Сітку створено для N учасників!»; the admin confirmed the start before drawing.
      const message = t('bracket.created', { participants: plural(defaultLocale, 'count.participantsOf', result.participants.length) });
      return c.json(
        { message, tournament: id, bracket: result.bracket, version: result.version, participants: result.participants, soloOnly: result.row.soloOnly },
        201,
      );
    },
  )
  .openapi(
    organiserRoute({
      method: 'patch',
      path: '/{id}/bracket',
      tags: ['Сітки'],
      summary: 'Організатор турніру (адмін чи його співорганізатор): зберегти сітку. Перевіряється рушієм сітки (422); збереження на старій версії (version або If-Match) — 409 з новішою сіткою',
      request: { params, body: jsonBody(bracketSaveInput) },
      responses: {
        200: jsonResponse(bracketSavedSchema, 'Збережено'),
        409: jsonResponse(staleSchema, 'Сітку вже змінено: новіша версія в тілі'),
        ...errors(400, 401, 403, 404, 422),
      },
    }, 'tournament'),
    async (c) => {
      const { id } = c.req.valid('param');
      const body = c.req.valid('json');
      const expected = expectedVersion(body.version, c.req.header('if-match'));
      const outcome = await saveBracket(c.get('db'), id, body.bracket, expected, c.var.auth.user);
      if (!outcome.ok) {
        if (outcome.reason === 'notFound') fail(404, 'tournament.notFound');
        if (outcome.reason === 'otherStages') fail(409, 'stage.bracketOtherStages');
        fail(422, `bracket.invalid.${outcome.problem.kind}`, outcome.problem);
      }
      const base = { tournament: id, participants: outcome.participants, soloOnly: outcome.row.soloOnly };
      if (outcome.stale) {
        c.header('ETag', etagOf(id, outcome.row.bracketVersion));
        return c.json({ ...base, message: t('bracket.stale'), bracket: outcome.row.bracket, version: outcome.row.bracketVersion }, 409);
      }
      c.header('ETag', etagOf(id, outcome.version));
      const message = body.bracket.length > 0 ? t('bracket.updated') : t('bracket.cleared');
      return c.json({ ...base, message, bracket: outcome.bracket, version: outcome.version }, 200);
    },
  );
