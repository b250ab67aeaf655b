import { z } from '@hono/zod-openapi';
import { participantImportAnswer, participantImportInput, type ImportRowView, type ParticipantImportAnswer } from '../../../lib/api/participant-import.ts';
import { TEAM_SIZE } from '../../../lib/domain/application-rules.ts';
import { IMPORT_BYTES_MAX, IMPORT_ROWS_MAX, type ImportVerdict } from '../../../lib/domain/participant-import.ts';
import { EXPORT_FILES } from '../../../lib/domain/spreadsheet.ts';
import { t } from '../../../lib/i18n/index.ts';
import { NOT_STORED } from '../caching.ts';
import { fail } from '../errors.ts';
import { errors, jsonBody, jsonResponse, messageBody, organiserOrKeyRoute, organiserRoute, router } from '../openapi.ts';
import { exportFile, type ExportedFile } from '../../services/competition/tournament-export.ts';
import { importParticipants, type ImportResult } from '../../services/match-day/participant-import.ts';

/*
 * A tournament's files for its organisers (issue 60, decision 040): three CSV exports behind one
 * route (`{file}`: they share the guard, the headers and the naming, and a fourth is one more name
 * in EXPORT_FILES) and the import of participants, checked first and written all or nothing.
 */

const tags = ['Турніри'];

/** RFC 8187's encoding of a file name: percent-encoded UTF-8, with the characters it keeps for itself encoded too. */
const rfc8187 = (value: string): string => encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** RFC 6266: the readable name for today's browsers (`filename*`), an ASCII one for the rest. */
const attachment = (file: ExportedFile): string => `attachment; filename="${file.asciiName}"; filename*=UTF-8''${rfc8187(file.name)}`;

/** A row as the preview shows it: its status and, in the reader's language, what it means. */
function rowView(verdict: ImportVerdict, placesLeft: number): ImportRowView {
  const params: Record<string, string | number> = {
    line: verdict.duplicateOf ?? '',
    status: verdict.candidate?.live ? t(`applications.state.${verdict.candidate.live}`) : '',
    members: verdict.candidate?.members ?? 0,
    min: TEAM_SIZE.min,
    max: TEAM_SIZE.max,
    free: Number.isFinite(placesLeft) ? placesLeft : '',
  };
  // A value past any name's length is shown cut: the answer never echoes a whole file in one cell.
  const value = verdict.value.length > 300 ? `${verdict.value.slice(0, 300)}…` : verdict.value;
  return { line: verdict.line, value, status: verdict.status, message: t(`import.problem.${verdict.status}`, params), name: verdict.candidate?.name ?? null };
}

function answerOf(result: ImportResult, dryRun: boolean): ParticipantImportAnswer {
  const ok = result.verdicts.filter((v) => v.status === 'ok').length;
  const problems = result.verdicts.length - ok;
  const message =
    result.added > 0
      ? t('import.added', { count: result.added })
      : !dryRun && problems > 0
        ? t('import.nothingAdded', { problems })
        : t('import.checked', { rows: result.verdicts.length });
  return { message, dryRun, added: result.added, ok, problems, rows: result.verdicts.map((v) => rowView(v, result.placesLeft)) };
}

export const tournamentFileRoutes = router()
  .openapi(
    organiserOrKeyRoute(
      {
        method: 'get',
        path: '/{id}/export/{file}',
        tags,
        summary:
          'Організатори турніру: CSV для Excel (UTF-8 з BOM, роздільник «;», рядки CRLF), заголовки мовою читача, час — у зоні турніру. ' +
          '`participants.csv` — усі заявки (гравець або команда, капітан і гравці, статус, посів у першому етапі, коли подано й відмічено); ' +
          '`matches.csv` — матчі всіх етапів і лобі (етап, раунд, матч, сторони, рахунок, переможець, статус, час); `places.csv` — підсумкові місця. ' +
          'Email учасників не експортуються. Клітинки, що починаються з = + - @, табуляції чи CR, мають апостроф на початку',
        request: { params: z.object({ id: z.uuid(), file: z.enum(EXPORT_FILES) }) },
        responses: { 200: { description: 'Файл CSV', content: { 'text/csv': { schema: z.string() } } }, ...errors(400, 401, 403, 404) },
      },
      'tournament',
      'read',
    ),
    async (c) => {
      const { id, file } = c.req.valid('param');
      const exported = await exportFile(c.get('db'), id, file);
      if (!exported) fail(404, 'tournament.notFound');
      return c.body(exported.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': attachment(exported),
        'Cache-Control': NOT_STORED,
      });
    },
  )
  .openapi(
    organiserRoute(
      {
        method: 'post',
        path: '/{id}/participants/import',
        tags,
        summary:
          `Організатори турніру: імпорт учасників із CSV (до ${IMPORT_ROWS_MAX} рядків і ${IMPORT_BYTES_MAX / 1024} КБ: інакше 413). ` +
          'Кожен рядок — гравець (нікнейм або email; email — лише в турнірах сайту й перевірених організацій) чи команда (назва). ' +
          'Відповідь — кожен рядок зі станом: ok або проблема (порожньо, не знайдено, повтор, уже має заявку, розмір команди, понад ліміт місць). ' +
          '`dryRun: true` (типово) нічого не змінює (200). `dryRun: false`: якщо хоч один рядок має проблему — нічого не додано (422 з тими ж рядками); ' +
          'інакше всі стають учасниками (заявки схвалено) в одній транзакції, з записом у журналі змін і сповіщенням кожному (201). ' +
          'Вікно реєстрації не діє; сітку вже створено або турнір не очікує — 409',
        request: { params: z.object({ id: z.uuid() }), body: jsonBody(participantImportInput) },
        responses: {
          200: jsonResponse(participantImportAnswer, 'Перевірено, нічого не змінено'),
          201: jsonResponse(participantImportAnswer, 'Учасників додано'),
          422: jsonResponse(
            z.union([participantImportAnswer, messageBody]),
            'Є рядки з проблемами (нічого не додано), або у файлі немає рядків чи його не прочитати',
          ),
          ...errors(400, 401, 403, 404, 409, 413, 415),
        },
      },
      'tournament',
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { csv, dryRun } = c.req.valid('json');
      if (Buffer.byteLength(csv, 'utf8') > IMPORT_BYTES_MAX) fail(413, 'import.tooLarge', { size: IMPORT_BYTES_MAX / 1024 });
      const result = await importParticipants(c.get('db'), id, csv, { dryRun, actor: c.var.auth.user });
      if (!result.ok) {
        if (result.reason === 'notFound') fail(404, 'tournament.notFound');
        if (result.reason === 'closed') fail(409, 'import.closed', { reason: t(`apply.refused.${result.why}`) });
        if (result.reason === 'unreadable') fail(422, 'import.unreadable', { line: result.line });
        if (result.reason === 'noRows') fail(422, 'import.noRows');
        if (result.reason === 'tooManyRows') fail(413, 'import.tooManyRows', { max: IMPORT_ROWS_MAX, rows: result.rows });
        fail(409, 'import.race');
      }
      const answer = answerOf(result, dryRun);
      if (dryRun) return c.json(answer, 200);
      return result.added > 0 ? c.json(answer, 201) : c.json(answer, 422);
    },
  );
