/**
 * A tournament's files (issue 60, decision 040): the calls, apart from their schemas in
 * participant-import.ts, so the organisers' island carries no zod into the browser.
 */
import type { ExportFile } from '../domain/spreadsheet.ts';
import type { ApiClient } from './client.ts';
import type { ParticipantImportAnswer } from './participant-import.ts';

const tournamentPath = (id: string) => `tournaments/${encodeURIComponent(id)}`;

/** Where one export is, under the API's base: a link's address (the download itself needs the token, `downloadExport`). */
export const exportPath = (tournamentId: string, file: ExportFile): string => `${tournamentPath(tournamentId)}/export/${file}`;

/** The name `Content-Disposition` gives a file: its UTF-8 `filename*`, else the ASCII `filename`, else `fallback`. */
export function attachmentName(header: string | null, fallback: string): string {
  const encoded = header?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A broken encoding: the plain name below.
    }
  }
  return header?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/** One export read with the reader's token: the file and the name the server gave it. */
export async function downloadExport(api: ApiClient, tournamentId: string, file: ExportFile): Promise<{ blob: Blob; name: string }> {
  const response = await api.get(exportPath(tournamentId, file));
  return { blob: await response.blob(), name: attachmentName(response.headers.get('content-disposition'), file) };
}

/** Checks a file's rows (`dryRun`), or adds every row's participant when none has a problem. A 422 carries the rows too. */
export const importParticipants = (api: ApiClient, tournamentId: string, csv: string, dryRun: boolean) =>
  api.post(`${tournamentPath(tournamentId)}/participants/import`, { json: { csv, dryRun } }).json<ParticipantImportAnswer>();
