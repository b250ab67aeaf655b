import { useEffect, useId, useState } from 'react';
import { TextAreaField } from '../../components/Field.tsx';
import { GameScoreRows } from '../../components/GameScoreRows.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import type { Names } from '../../components/stages/view.ts';
import { errorMessage, HTTPError } from '../../lib/api/client.ts';
import { getMatchComment, updateMatch, type MatchUpdateInput, type StageMatchView, type StageView } from '../../lib/api/stages.ts';
import { winsNeeded } from '../../lib/domain/stage/result.ts';
import { zoneMark } from '../../lib/i18n/zone-mark.ts';
import { pageTimeZone } from '../../lib/i18n/format.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { gamesScore, matchBody, matchForm, withComment, type MatchForm } from './form.ts';
import { nameIn, type MatchRow } from './sections.ts';
import type { StagesSync } from './sync.ts';

/** The API's limit of a match comment (`matchUpdateInput`). */
const COMMENT_MAX = 500;

interface Props {
  sync: StagesSync;
  row: MatchRow;
  stage: StageView;
  names: Names;
  /** Every match's label in the stage, to name the ones a correction resets. */
  labels: Map<string, string>;
  open: boolean;
  onCancel: () => void;
  onClose: () => void;
  onSaved: (message: string) => void;
}

const isStale = (data: unknown): data is { message: string; match: StageMatchView } =>
  typeof data === 'object' && data !== null && 'match' in data && 'message' in data && typeof data.message === 'string';

/**
 * Entering, correcting or withdrawing one match's result (issue 21): scores (or each game's of a
 * best-of-N, which make the match score), a forfeit, the time (Kyiv) and a comment, which everyone
 * sees or only the tournament's organisers (issue 57): the stages it opens from are the public read,
 * so the comment is read for the organiser when the form opens (`GET /api/matches/{id}/comment`)
 * and sent only once read. The result is judged by the server's rule before it is sent. A correction of a completed match is previewed
 * first: when it would reset later matches they are listed and the admin confirms. A stale
 * version (another admin saved first) shows the server's message and the newer match.
 */
export function MatchResultEditor({ sync, row, stage, names, labels, open, onCancel, onClose, onSaved }: Props) {
  const bestOf = row.match.bestOf;
  const [base, setBase] = useState<StageMatchView>(row.match);
  const [form, setForm] = useState<MatchForm>(() => matchForm(row.match, bestOf));
  const [problem, setProblem] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<{ body: MatchUpdateInput; lines: string[] } | null>(null);
  const [sending, setSending] = useState(false);
  const [commentProblem, setCommentProblem] = useState(false);
  const id = useId();
  const matchId = row.match._id;
  const unread = !form.commentRead;

  useEffect(() => {
    if (!unread) return;
    let current = true;
    getMatchComment(api, matchId).then(
      (read) => current && setForm((now) => (now.commentRead ? now : withComment(now, read))),
      () => current && setCommentProblem(true),
    );
    return () => {
      current = false;
    };
  }, [matchId, unread]);
  const set = (changes: Partial<MatchForm>) => {
    setForm((current) => ({ ...current, ...changes }));
    setProblem(null);
  };
  const nameA = base.a ? nameIn(names, base.a) : t('bracket.tbd');
  const nameB = base.b ? nameIn(names, base.b) : t('bracket.tbd');
  const fromGames = gamesScore(form);
  const completed = base.status === 'completed';

  /** Sends one PATCH; null when refused (the reason is shown, a stale version replaced by the newer match). */
  async function send(body: MatchUpdateInput) {
    return sync.change(async () => {
      try {
        return await updateMatch(api, base._id, body);
      } catch (error) {
        if (error instanceof HTTPError && error.response.status === 409 && isStale(error.data)) {
          setBase(error.data.match);
          setForm(matchForm(error.data.match, bestOf));
        }
        setConfirm(null);
        setProblem(errorMessage(error, t('stageAdmin.saveError')));
        return null;
      }
    });
  }

  /** «Фінал, матч 1: Oksana — Petro» for a match a correction would reset, as it stands now. */
  function describe(match: StageMatchView): string {
    const now = stage.matches.find((m) => m._id === match._id) ?? match;
    const side = (participant: string | null) => (participant ? nameIn(names, participant) : t('bracket.tbd'));
    return t('stageAdmin.resetLine', { match: labels.get(match._id) ?? '', a: side(now.a), b: side(now.b) });
  }

  async function commit(body: MatchUpdateInput) {
    const saved = await send(body);
    setSending(false);
    if (saved) onSaved(saved.message);
  }

  async function submit(withdraw: boolean) {
    setProblem(null);
    const built = withdraw
      ? ({ ok: true, body: { version: base.version, reset: true }, result: true } as const)
      : matchBody(form, base, { format: stage.format, settings: stage.settings, bestOf });
    if (!built.ok) return setProblem(built.message);
    setSending(true);
    if (completed && built.result) {
      const preview = await send({ ...built.body, preview: true });
      if (!preview) return setSending(false);
      if (preview.reset.length > 0) {
        setSending(false);
        return setConfirm({ body: built.body, lines: preview.reset.map(describe) });
      }
    }
    await commit(built.body);
  }

  const score = (slot: 'a' | 'b', name: string) => (
    <div className="flex min-w-0 flex-col justify-end gap-1 text-sm font-medium">
      <label htmlFor={`${id}-score-${slot}`} className="break-words">
        {t('stageAdmin.scoreOf', { name })}
      </label>
      <input
        id={`${id}-score-${slot}`}
        type="number"
        inputMode="numeric"
        min={0}
        max={9999}
        className="field min-h-11 text-lg tabular-nums read-only:opacity-70"
        value={fromGames ? String(fromGames[slot]) : slot === 'a' ? form.scoreA : form.scoreB}
        readOnly={fromGames !== null || form.forfeit !== null}
        disabled={confirm !== null}
        onChange={(event) => set(slot === 'a' ? { scoreA: event.target.value } : { scoreB: event.target.value })}
      />
    </div>
  );

  return (
    <Modal open={open} title={row.label} onClose={onClose}>
      <form
        className="flex flex-col gap-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit(false);
        }}
      >
        {bestOf > 1 && <p className="text-sm text-muted">{t('stages.bestOf', { wins: winsNeeded(bestOf), bestOf })}</p>}
        <div className="grid grid-cols-2 gap-3">
          {score('a', nameA)}
          {score('b', nameB)}
        </div>

        {bestOf > 1 && (
          <fieldset className="flex flex-col gap-2 rounded-lg border border-line p-3" disabled={confirm !== null || form.forfeit !== null}>
            <legend className="px-1 text-sm font-semibold">{t('stageAdmin.games')}</legend>
            <p className="text-xs text-muted">{t('stageAdmin.gamesHint')}</p>
            <div aria-hidden="true" className="grid grid-cols-[4rem_1fr_1fr] gap-2 text-xs font-semibold text-muted">
              <span />
              <span className="truncate">{nameA}</span>
              <span className="truncate">{nameB}</span>
            </div>
            <GameScoreRows
              games={form.games}
              rowLabel={(number) => t('stageAdmin.game', { number })}
              fieldLabel={(number, slot) => t('stageAdmin.gameScoreOf', { number, name: slot === 'a' ? nameA : nameB })}
              onChange={(games) => set({ games })}
            />
          </fieldset>
        )}

        <fieldset className="flex flex-col gap-1 text-sm" disabled={confirm !== null}>
          <legend className="mb-1 font-medium">{t('stageAdmin.forfeit')}</legend>
          {([null, 'a', 'b'] as const).map((slot) => (
            <label key={slot ?? 'none'} className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-2 hover:bg-surface-2">
              <input
                type="radio"
                name={`${id}-forfeit`}
                checked={form.forfeit === slot}
                onChange={() => set({ forfeit: slot })}
                className="size-4 shrink-0 accent-primary"
              />
              <span>{slot === null ? t('stageAdmin.noForfeit') : t('stages.forfeit', { name: slot === 'a' ? nameA : nameB })}</span>
            </label>
          ))}
        </fieldset>

        <div className="flex flex-col gap-1 text-sm font-medium">
          <label htmlFor={`${id}-time`}>{t('stageAdmin.scheduledAt', { zone: zoneMark(pageTimeZone()) })}</label>
          <input
            id={`${id}-time`}
            type="datetime-local"
            className="field min-h-11"
            value={form.scheduled}
            disabled={confirm !== null}
            onChange={(event) => set({ scheduled: event.target.value })}
          />
        </div>

        <div className="flex flex-col gap-1">
          <TextAreaField
            label={form.commentPublic ? t('stageAdmin.comment') : `${t('stageAdmin.comment')} (${t('stageAdmin.commentPrivateMark')})`}
            id={`${id}-comment`}
            limit={COMMENT_MAX}
            className="min-h-20"
            value={form.comment}
            placeholder={unread && !commentProblem ? t('stageAdmin.commentLoading') : undefined}
            disabled={confirm !== null || unread}
            onChange={(event) => set({ comment: event.target.value })}
          />
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={form.commentPublic}
              disabled={confirm !== null || unread}
              aria-describedby={`${id}-comment-public-hint`}
              onChange={(event) => set({ commentPublic: event.target.checked })}
              className="size-4 shrink-0 accent-primary"
            />
            <span>{t('stageAdmin.commentPublic')}</span>
          </label>
          <p id={`${id}-comment-public-hint`} className="text-xs text-muted">
            {t('stageAdmin.commentPublicHint')}
          </p>
          {commentProblem && <Notice tone="error">{t('stageAdmin.commentReadError')}</Notice>}
        </div>

        {problem && <Notice tone="error">{problem}</Notice>}

        {confirm ? (
          <div role="alert" className="flex flex-col gap-3 rounded-lg border border-warning p-3 text-sm">
            <p className="font-semibold text-warning">{t('stageAdmin.willReset')}</p>
            <ul className="list-disc pl-5">
              {confirm.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-ghost min-h-11" onClick={() => setConfirm(null)}>
                {t('stageAdmin.cancel')}
              </button>
              <button
                type="button"
                className="btn-primary min-h-11"
                disabled={sending}
                onClick={() => {
                  setSending(true);
                  void commit(confirm.body);
                }}
              >
                {t('stageAdmin.confirm')}
              </button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            {completed && (
              <button type="button" className="btn-ghost min-h-11 text-danger" disabled={sending} onClick={() => void submit(true)}>
                {t('stageAdmin.withdraw')}
              </button>
            )}
            <span className="ml-auto flex gap-2">
              <button type="button" className="btn-ghost min-h-11" onClick={onCancel}>
                {t('stageAdmin.cancel')}
              </button>
              <button type="submit" className="btn-primary min-h-11" disabled={sending}>
                {t('stageAdmin.save')}
              </button>
            </span>
          </div>
        )}
      </form>
    </Modal>
  );
}
