import { useCallback, useEffect, useRef, useState, type SubmitEvent } from 'react';
import { Modal } from '../../components/Modal.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { EVIDENCE_FILE_BYTES, EVIDENCE_FILES_MAX, EVIDENCE_PER_MATCH_MAX } from '../../lib/api/limits.ts';
import { evidencePicture, listEvidence, uploadEvidence, type Evidence } from '../../lib/api/match-evidence.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { api } from '../../lib/stores/api.ts';
import { notInRoom } from './refresh.ts';

/** The match page's props of `MatchEvidence.tsx`, handed on as they are. */
export interface MatchEvidenceProps {
  matchId: string;
  /** The match's tournament, whose live events make the panel read the pictures again. */
  tournamentId: string;
  /** The two sides' names, for "who added it". */
  names: { a: string; b: string };
}

const MB = EVIDENCE_FILE_BYTES / (1024 * 1024);

/** Why the chosen files cannot go as they are, in the reader's language; null when they can. */
function problemOf(files: readonly File[]): string | null {
  if (files.length > EVIDENCE_FILES_MAX) return t('evidence.tooManyFiles', { max: EVIDENCE_FILES_MAX });
  const large = files.findIndex((file) => file.size > EVIDENCE_FILE_BYTES);
  return large === -1 ? null : t('evidence.fileTooLarge', { n: large + 1, mb: MB });
}

/**
 * The room's screenshots (issue 58): a grid of the pictures, each opened larger on a tap, and the
 * upload form. Pictures are read with the reader's token (an <img> cannot send it) and shown
 * through object URLs. Read again after the reader's own upload and when the match's result or
 * report changes; a reader the API says is not of the room sees nothing.
 */
export default function EvidencePanel({ matchId, tournamentId, names }: MatchEvidenceProps) {
  const [items, setItems] = useState<Evidence[] | null>(null);
  const [max, setMax] = useState(EVIDENCE_PER_MATCH_MAX);
  const [outsider, setOutsider] = useState(false);
  const [urls, setUrls] = useState<Record<string, string>>({});
  const [chosen, setChosen] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [opened, setOpened] = useState<number | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // Object URLs made so far, by evidence id: each picture is fetched once and released on leaving.
  const made = useRef(new Map<string, string>());

  const load = useCallback(
    () =>
      listEvidence(api, matchId).then(
        (answer) => {
          setItems(answer.evidence);
          setMax(answer.max);
          for (const item of answer.evidence) {
            if (made.current.has(item._id)) continue;
            made.current.set(item._id, '');
            evidencePicture(api, matchId, item._id)
              .then((blob) => {
                const url = URL.createObjectURL(blob);
                made.current.set(item._id, url);
                setUrls((all) => ({ ...all, [item._id]: url }));
              })
              .catch(() => made.current.delete(item._id));
          }
        },
        (error: unknown) => {
          if (notInRoom(error)) setOutsider(true);
          else setMessage({ text: errorMessage(error, t('evidence.loadError')), error: true });
        },
      ),
    [matchId],
  );

  useEffect(() => {
    void load();
    const stop = onPageEvent(tournamentId, (event) => {
      const ours = event.matchId === undefined || event.matchId === matchId;
      if (ours && (event.kind === 'evidence' || event.kind === 'report' || event.kind === 'match' || event.kind === 'resync')) void load();
    });
    const urlsMade = made.current;
    return () => {
      stop();
      for (const url of urlsMade.values()) if (url) URL.revokeObjectURL(url);
      urlsMade.clear();
    };
  }, [load, matchId, tournamentId]);

  if (outsider || items === null) return null;

  const whoOf = (item: Evidence) => {
    const name = item.uploader?.username ?? t('evidence.someone');
    return item.slot ? t('evidence.bySide', { name, side: names[item.slot] }) : t('evidence.byOrganiser', { name });
  };
  const at = (item: Evidence) => formatDateTime(item.createdAt, { timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  const room = max - items.length;
  const problem = problemOf(chosen);
  const shown = opened === null ? undefined : items[opened];
  const caption = shown ? t('evidence.picture', { n: (opened ?? 0) + 1, who: whoOf(shown), at: at(shown) }) : '';

  async function send(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (chosen.length === 0 || problem) return;
    setBusy(true);
    setMessage(null);
    try {
      const done = await uploadEvidence(api, matchId, chosen);
      setMessage({ text: done.message, error: false });
      setChosen([]);
      if (input.current) input.current.value = '';
    } catch (error) {
      setMessage({ text: errorMessage(error, t('evidence.error')), error: true });
    } finally {
      setBusy(false);
      await load();
    }
  }

  return (
    <section aria-labelledby="evidence-title" className="card flex flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="evidence-title" className="text-lg font-bold">
          {t('evidence.title')}
        </h2>
        <span className="text-sm text-muted">{t('evidence.count', { count: items.length, max })}</span>
      </div>
      {items.length === 0 ? (
        <p className="text-sm text-muted">{t('evidence.none')}</p>
      ) : (
        <ul className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {items.map((item, i) => (
            <li key={item._id}>
              <button
                type="button"
                className="block aspect-video w-full overflow-hidden rounded-lg border border-line bg-surface-2 focus-visible:outline-2 focus-visible:outline-accent"
                aria-label={t('evidence.open', { n: i + 1, who: whoOf(item) })}
                onClick={() => setOpened(i)}
              >
                {urls[item._id] && <img src={urls[item._id]} alt="" width={item.width} height={item.height} className="size-full object-cover" />}
              </button>
            </li>
          ))}
        </ul>
      )}
      {room > 0 && (
        <form className="flex flex-col gap-2" onSubmit={(event) => void send(event)}>
          <label htmlFor="evidence-files" className="text-sm font-semibold">
            {t('evidence.choose')}
          </label>
          <input
            ref={input}
            id="evidence-files"
            name="files"
            type="file"
            multiple
            accept="image/png,image/jpeg,image/webp,image/gif"
            aria-describedby="evidence-hint"
            className="min-h-12 w-full text-sm file:mr-3 file:min-h-10 file:rounded-lg file:border-0 file:bg-surface-2 file:px-3 file:text-fg"
            disabled={busy}
            onChange={(event) => {
              setMessage(null);
              setChosen(Array.from(event.target.files ?? []));
            }}
          />
          <p id="evidence-hint" className="text-xs text-muted">
            {t('evidence.hint', { files: EVIDENCE_FILES_MAX, mb: MB, max })}
          </p>
          {chosen.length > 0 && !problem && <p className="text-sm">{t('evidence.chosen', { count: chosen.length })}</p>}
          {problem && (
            <p role="alert" className="text-sm text-danger">
              {problem}
            </p>
          )}
          <p>
            <button type="submit" className="btn-primary min-h-12 w-full sm:w-auto" disabled={busy || chosen.length === 0 || problem !== null}>
              {busy ? t('evidence.uploading') : t('evidence.upload')}
            </button>
          </p>
        </form>
      )}
      {message && (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'text-sm text-danger' : 'text-sm text-success'}>
          {message.text}
        </p>
      )}
      <Modal open={Boolean(shown)} title={caption} onClose={() => setOpened(null)} wide>
        {shown && urls[shown._id] && (
          <img src={urls[shown._id]} alt={caption} width={shown.width} height={shown.height} className="h-auto max-h-[75vh] w-full object-contain" />
        )}
        <p>
          <button type="button" className="btn-ghost min-h-12" onClick={() => setOpened(null)}>
            {t('evidence.close')}
          </button>
        </p>
      </Modal>
    </section>
  );
}
