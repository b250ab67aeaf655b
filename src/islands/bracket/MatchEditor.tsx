import { useId, useState } from 'react';
import { Crown } from '../../components/Crown.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import type { BracketParticipant } from '../../lib/api/bracket.ts';
import { resetResult, setComment, setResult, type Bracket } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import { participantIndex, participantName } from '../../components/participant-names.ts';
import { clearedResults } from '../../components/bracket/view.ts';

export const COMMENT_MAX = 500;

interface Props {
  bracket: Bracket;
  participants: readonly BracketParticipant[];
  roundIndex: number;
  matchIndex: number;
  label: string;
  open: boolean;
  busy: boolean;
  /** Asks the dialog to close (Cancel). */
  onCancel: () => void;
  /** The dialog has closed (Cancel, Save, Escape or the backdrop). */
  onClose: () => void;
  /** Saves the edited bracket (the modal shows how it went). */
  onSave: (next: Bracket) => void;
}

/**
 * The admin's edit modal for a ready or completed match (SPEC §2): choose-winner toggles, comment,
 * Cancel, Save, Reset result. Changing or resetting a decided match withdraws its winner from
 * later rounds; when that clears later results they are listed first and the admin confirms.
 */
export function MatchEditor({ bracket, participants, roundIndex, matchIndex, label, open, busy, onCancel, onClose, onSave }: Props) {
  const match = bracket[roundIndex]?.matches[matchIndex];
  const [winner, setWinner] = useState<string | null>(match?.winner ?? null);
  const [comment, setCommentText] = useState(match?.comment ?? '');
  const [confirm, setConfirm] = useState<{ lines: string[]; next: Bracket } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const commentId = useId();
  const countId = useId();
  if (!match) return null;
  const names = participantIndex(participants);
  const sides = [match.a, match.b].filter((id): id is string => id !== null);

  /** The bracket after this edit, and whether it withdraws a result that later ones built on. */
  function plan(reset: boolean): { next: Bracket; withdraws: boolean } {
    const text = comment.trim();
    const target = reset ? null : winner;
    if (target === match!.winner) return { next: setComment(bracket, roundIndex, matchIndex, text), withdraws: false };
    if (target === null) return { next: setComment(resetResult(bracket, roundIndex, matchIndex), roundIndex, matchIndex, text), withdraws: true };
    return { next: setResult(bracket, roundIndex, matchIndex, target, text), withdraws: match!.winner !== null };
  }

  function submit(reset: boolean) {
    let planned: ReturnType<typeof plan>;
    try {
      planned = plan(reset);
    } catch {
      // The match changed under the editor (another admin's update arrived): nothing to save.
      setProblem(t('bracket.saveError'));
      return;
    }
    const lines = planned.withdraws ? clearedResults(bracket, participants, roundIndex, matchIndex) : [];
    if (lines.length > 0) setConfirm({ lines, next: planned.next });
    else onSave(planned.next);
  }

  return (
    <Modal open={open} title={label} onClose={onClose}>
      <form
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit(false);
        }}
      >
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-2 text-sm font-medium">{t('bracket.chooseWinner')}</legend>
          <div className="grid gap-2 sm:grid-cols-2">
            {sides.map((id) => {
              const chosen = winner === id;
              return (
                <button
                  key={id}
                  type="button"
                  aria-pressed={chosen}
                  disabled={confirm !== null}
                  onClick={() => setWinner(chosen ? null : id)}
                  className={`btn justify-start border text-left ${chosen ? 'border-accent bg-surface-2 text-accent' : 'border-line hover:bg-surface-2'}`}
                >
                  <span className="min-w-0 flex-1 truncate">{participantName(names, id)}</span>
                  {chosen && <Crown />}
                </button>
              );
            })}
          </div>
        </fieldset>

        <div className="flex flex-col gap-1">
          <label htmlFor={commentId} className="text-sm font-medium">
            {t('bracket.comment')}
          </label>
          <textarea
            id={commentId}
            className="field min-h-20"
            maxLength={COMMENT_MAX}
            value={comment}
            disabled={confirm !== null}
            aria-describedby={countId}
            onChange={(event) => setCommentText(event.target.value.slice(0, COMMENT_MAX))}
          />
          <span id={countId} className="self-end text-xs text-muted">
            {t('bracket.commentCount', { count: comment.length, max: COMMENT_MAX })}
          </span>
        </div>

        {problem && <Notice tone="error">{problem}</Notice>}

        {confirm ? (
          <div role="alert" className="flex flex-col gap-3 rounded-lg border border-warning p-3 text-sm">
            <p className="font-semibold text-warning">{t('bracket.confirmClear')}</p>
            <ul className="list-disc pl-5">
              {confirm.lines.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
            <div className="flex flex-wrap justify-end gap-2">
              <button type="button" className="btn-ghost" onClick={() => setConfirm(null)}>
                {t('bracket.goBack')}
              </button>
              <button type="button" className="btn-primary" disabled={busy} onClick={() => onSave(confirm.next)}>
                {t('bracket.confirmChange')}
              </button>
            </div>
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-2">
            {match.winner && (
              <button type="button" className="btn-ghost text-danger" disabled={busy} onClick={() => submit(true)}>
                {t('bracket.reset')}
              </button>
            )}
            <span className="flex-1" />
            <button type="button" className="btn-ghost" onClick={onCancel}>
              {t('bracket.cancel')}
            </button>
            <button type="submit" className="btn-primary" disabled={busy}>
              {t('bracket.save')}
            </button>
          </div>
        )}
      </form>
    </Modal>
  );
}
