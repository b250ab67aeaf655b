import { useId, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, HTTPError } from '../../lib/api/client.ts';
import { downloadExport, exportPath, importParticipants } from '../../lib/api/participant-files.ts';
import type { ParticipantImportAnswer } from '../../lib/api/participant-import.ts';
import { IMPORT_BYTES_MAX, IMPORT_ROWS_MAX } from '../../lib/domain/participant-import.ts';
import { EXPORT_FILES, type ExportFile } from '../../lib/domain/spreadsheet.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { currentLocale, plural, t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

const KB = IMPORT_BYTES_MAX / 1024;

/** The preview the server sent with a refusal (a write with problem rows answers 422 with them), if it did. */
function previewOf(error: unknown): ParticipantImportAnswer | null {
  const data = error instanceof HTTPError ? (error.data as Partial<ParticipantImportAnswer> | undefined) : undefined;
  return data && Array.isArray(data.rows) ? (data as ParticipantImportAnswer) : null;
}

/** Hands a downloaded file to the browser as a download, under the server's name. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has started the download; the address may go once this turn is over.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The organisers' files on a tournament page (issue 60, decision 040): the three CSV exports, and
 * the import of participants — paste or choose a file, «Перевірити» shows each row with its
 * problem, and only a check with no problem offers «Додати N учасників». The server judges again
 * when it writes, and adds all or nothing. Renders nothing for anyone but the tournament's organisers.
 */
export default function ParticipantFiles({ tournamentId, soloOnly, hostId = null }: { tournamentId: string; soloOnly: boolean; hostId?: string | null }) {
  const organises = useCanOrganise(tournamentId, hostId);
  const ids = useId();
  const [csv, setCsv] = useState('');
  const [preview, setPreview] = useState<{ answer: ParticipantImportAnswer; of: string } | null>(null);
  // Said where it happened: by the export links, or under the import's buttons (on a phone the block is long).
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string; at: 'export' | 'import' } | null>(null);
  const [busy, setBusy] = useState<'check' | 'add' | ExportFile | null>(null);
  // The file the text came from, while the text is still what it held.
  const [fromFile, setFromFile] = useState<{ name: string; text: string } | null>(null);

  if (!organises) return null;

  async function download(event: { preventDefault(): void }, file: ExportFile) {
    event.preventDefault();
    setBusy(file);
    setMessage(null);
    try {
      const { blob, name } = await downloadExport(api, tournamentId, file);
      save(blob, name);
    } catch (error) {
      setMessage({ tone: 'error', text: errorMessage(error, t('files.downloadError')), at: 'export' });
    } finally {
      setBusy(null);
    }
  }

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setMessage(null);
    if (file.size > IMPORT_BYTES_MAX) {
      setMessage({ tone: 'error', text: t('files.fileTooLarge', { size: KB }), at: 'import' });
      return;
    }
    try {
      // Line breaks as a text field holds them, so the field's own change events find nothing changed.
      const text = (await file.text()).replace(/\r\n?/g, '\n');
      setCsv(text);
      setFromFile({ name: file.name, text });
      setPreview(null);
    } catch {
      setMessage({ tone: 'error', text: t('files.fileUnreadable'), at: 'import' });
    }
  }

  async function run(dryRun: boolean) {
    if (!csv.trim()) {
      setMessage({ tone: 'error', text: t('files.empty'), at: 'import' });
      return;
    }
    setBusy(dryRun ? 'check' : 'add');
    setMessage(null);
    const sent = csv;
    try {
      const answer = await importParticipants(api, tournamentId, sent, dryRun);
      // Once added, the rows are the page's participants now: the preview has said what it had to.
      setPreview(dryRun ? { answer, of: sent } : null);
      if (!dryRun) {
        setMessage({ tone: 'success', text: answer.message, at: 'import' });
        setCsv('');
        setFromFile(null);
      }
    } catch (error) {
      const rows = previewOf(error);
      if (rows) setPreview({ answer: rows, of: sent });
      else setPreview(null);
      setMessage({ tone: 'error', text: errorMessage(error, t('files.importError')), at: 'import' });
    } finally {
      setBusy(null);
    }
  }

  function onCheck(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(true);
  }

  const answer = preview?.answer ?? null;
  const current = preview !== null && preview.of === csv;
  const addable = answer !== null && current && answer.dryRun && answer.problems === 0 && answer.ok > 0;

  return (
    <section aria-labelledby={`${ids}-title`} className="card flex min-w-0 flex-col gap-4 border-accent" data-participant-files>
      <h2 id={`${ids}-title`} className="text-lg font-bold">
        {t('files.title')}
      </h2>

      <div className="flex flex-col gap-2">
        <h3 className="font-semibold">{t('files.exportTitle')}</h3>
        <p className="text-sm text-muted">{t('files.exportHint')}</p>
        <ul className="flex flex-wrap gap-2">
          {EXPORT_FILES.map((file) => (
            <li key={file}>
              <a
                className="btn-ghost"
                href={`/api/${exportPath(tournamentId, file)}`}
                download
                aria-label={t('files.exportLabel', { name: t(`files.export.${file}`) })}
                aria-busy={busy === file}
                onClick={(event) => void download(event, file)}
                data-export={file}
              >
                <span aria-hidden="true">⤓</span>
                {busy === file ? t('files.downloading') : t(`files.export.${file}`)}
              </a>
            </li>
          ))}
        </ul>
        {message?.at === 'export' && <Notice tone={message.tone}>{message.text}</Notice>}
      </div>

      <form className="flex flex-col gap-3" onSubmit={onCheck} noValidate>
        <div className="flex flex-col gap-1">
          <h3 className="font-semibold">{t('files.importTitle')}</h3>
          <p className="text-sm text-muted" id={`${ids}-hint`}>
            {t(soloOnly ? 'files.importHintSolo' : 'files.importHintTeam')} {t('files.importRule', { rows: IMPORT_ROWS_MAX, size: KB })}
          </p>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${ids}-csv`} className="text-sm font-medium">
            {t('files.csvLabel')}
          </label>
          <textarea
            id={`${ids}-csv`}
            name="csv"
            className="field min-h-32 font-mono text-sm"
            spellCheck={false}
            aria-describedby={`${ids}-hint`}
            placeholder={t(soloOnly ? 'files.placeholderSolo' : 'files.placeholderTeam')}
            value={csv}
            onChange={(event) => setCsv(event.target.value)}
          />
        </div>
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <label className="btn-ghost cursor-pointer focus-within:outline-2 focus-within:outline-accent">
            {t('files.fileLabel')}
            <input type="file" accept=".csv,.txt,text/csv,text/plain" className="sr-only" onChange={(event) => void chooseFile(event)} />
          </label>
          {fromFile?.text === csv && <span className="min-w-0 text-sm wrap-anywhere text-muted">{t('files.fileChosen', { name: fromFile.name })}</span>}
        </div>
        <div className="flex flex-wrap gap-2">
          <button type="submit" className="btn-ghost" disabled={busy !== null}>
            {busy === 'check' ? t('files.checking') : t('files.check')}
          </button>
          {addable && (
            <button type="button" className="btn-primary" disabled={busy !== null} onClick={() => void run(false)} data-import-add>
              {busy === 'add' ? t('files.adding') : plural(currentLocale(), 'count.addParticipants', answer.ok)}
            </button>
          )}
        </div>
        {message?.at === 'import' && <Notice tone={message.tone}>{message.text}</Notice>}
      </form>

      {answer && (
        <div className="flex min-w-0 flex-col gap-2" data-import-preview>
          <h3 className="font-semibold" id={`${ids}-preview`}>
            {t('files.previewTitle')}
          </h3>
          <p className="text-sm" role="status">
            {t('files.previewSummary', { ok: answer.ok, problems: answer.problems })}
          </p>
          {!current && <p className="text-sm text-warning">{t('files.changed')}</p>}
          {answer.problems > 0 && <p className="text-sm text-muted">{t('files.previewBlocked')}</p>}
          <table className="w-full table-fixed text-left text-sm" aria-labelledby={`${ids}-preview`}>
            <thead className="text-muted">
              <tr>
                <th scope="col" className="w-14 py-1 pr-2 font-medium">
                  {t('files.column.line')}
                </th>
                <th scope="col" className="py-1 pr-2 font-medium">
                  {t('files.column.value')}
                </th>
                <th scope="col" className="py-1 font-medium">
                  {t('files.column.status')}
                </th>
              </tr>
            </thead>
            <tbody>
              {answer.rows.map((row) => (
                <tr key={row.line} className="border-t border-line align-top" data-status={row.status}>
                  <td className="py-1 pr-2 tabular-nums">{row.line}</td>
                  <td className="py-1 pr-2 wrap-anywhere">
                    {row.value || '—'}
                    {row.name && row.name !== row.value && <span className="block text-xs text-muted">→ {row.name}</span>}
                  </td>
                  <td className={`py-1 wrap-anywhere ${row.status === 'ok' ? 'text-success' : 'text-danger'}`}>{row.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
