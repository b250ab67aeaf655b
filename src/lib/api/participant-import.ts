import { z } from 'zod';
import { IMPORT_ROW_STATUSES } from '../domain/participant-import.ts';

/*
 * Importing participants from CSV (issue 60, decision 040): the request and the preview. The calls
 * are in participant-files.ts, apart from these schemas, so the island carries no zod.
 */

/**
 * `POST /api/tournaments/{id}/participants/import`: the file's text and whether only to check it.
 * The size is checked by the route (413), in bytes, after the body limit.
 */
export const participantImportInput = z
  .object({
    csv: z.string().meta({
      description:
        'Текст CSV (UTF-8, до 200 КБ і 1000 рядків; роздільник `;` або `,`; рядок заголовка необовʼязковий). ' +
        'Соло-турнір: нікнейм або email гравця; командний: назва команди. Стовпець — той, чий заголовок «Учасник», «Гравець», «Нікнейм», «Email», «Команда» чи «Назва» (або англійською); без заголовка — перший',
    }),
    dryRun: z
      .boolean()
      .default(true)
      .meta({ description: 'true (типово) — лише перевірити й показати кожен рядок; false — додати всіх, якщо жоден рядок не має проблеми' }),
  })
  .strict();
export type ParticipantImportInput = z.input<typeof participantImportInput>;

export const importRowSchema = z.object({
  /** The row's line in the file, from 1. */
  line: z.number().int(),
  /** What the row named the participant by, as written. */
  value: z.string(),
  status: z.enum(IMPORT_ROW_STATUSES),
  /** `ok`, or the row's problem, in the reader's language. */
  message: z.string(),
  /** The player's nickname or the team's name the row named, when it named one. */
  name: z.string().nullable(),
});
export type ImportRowView = z.infer<typeof importRowSchema>;

export const participantImportAnswer = z.object({
  message: z.string(),
  dryRun: z.boolean(),
  /** How many participants were added (0 for a check, and whenever a row has a problem). */
  added: z.number().int(),
  /** Rows that may be added, and rows with a problem. */
  ok: z.number().int(),
  problems: z.number().int(),
  rows: z.array(importRowSchema),
});
export type ParticipantImportAnswer = z.infer<typeof participantImportAnswer>;
