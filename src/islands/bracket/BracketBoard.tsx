import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { ChampionOffer } from '../../components/ChampionOffer.tsx';
import { Notice } from '../../components/Notice.tsx';
import { champion, progress, setResult, type Bracket } from '../../lib/domain/bracket.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { BracketDrawing } from '../../components/bracket/BracketDrawing.tsx';
import { CreateBracket } from './CreateBracket.tsx';
import { MatchCard } from '../../components/bracket/MatchCard.tsx';
import { MatchEditor } from './MatchEditor.tsx';
import { ProgressBar } from '../../components/bracket/ProgressBar.tsx';
import type { BracketSync } from './sync.ts';
import { participantIndex, participantName } from '../../components/participant-names.ts';
import { bracketView, hasPlayedResults } from '../../components/bracket/view.ts';

interface Props {
  sync: BracketSync;
  tournamentId: string;
  isAdmin: boolean;
  /** The tournament still takes applications: drawing the bracket starts it (the admin confirms first). */
  pending: boolean;
  /** Called once the draw started the tournament or its winner was saved: the page behind shows both as HTML. */
  onTournamentChanged: () => void;
}

/** SPEC §9: status messages stay 3000 ms; errors and news of another admin's change stay until the next action. */
const SUCCESS_MS = 3000;

/**
 * The bracket modal's content (SPEC §2 Bracket modal): progress, the bracket drawn as a tree as on
 * the bracket page (BracketDrawing), and for an admin the create form, quick «{name} переміг»
 * buttons on the cards and the edit modal. Polls while shown.
 */
export function BracketBoard({ sync, tournamentId, isAdmin, pending, onTournamentChanged }: Props) {
  const { status, data, busy, notice } = useStore(sync.$state);
  const [editing, setEditing] = useState<{ round: number; match: number } | null>(null);
  // The editor closes as a native dialog first (focus goes back where it was), then unmounts.
  const [editorOpen, setEditorOpen] = useState(false);
  // After a quick result its buttons are gone: focus moves to the match's edit button instead.
  const [focusMatch, setFocusMatch] = useState<string | null>(null);
  const headingPrefix = useId();
  // The draw has started the tournament since the page was rendered.
  const [started, setStarted] = useState(false);

  useEffect(() => sync.watch(), [sync]);
  useEffect(() => {
    if (notice?.tone !== 'success') return;
    const timer = setTimeout(() => sync.dismiss(), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [notice, sync]);

  if (status === 'loading' && !data) return <p className="text-sm text-muted">{t('bracket.loading')}</p>;
  if (!data) return <Notice tone="error">{t('bracket.loadError')}</Notice>;

  const bracket = data.bracket;
  const rounds = bracketView(bracket, data.participants);
  const names = participantIndex(data.participants);
  const winner = champion(bracket);
  const save = (next: Bracket) => {
    setEditorOpen(false);
    void sync.save(next);
  };
  const edit = (round: number, match: number) => {
    setEditing({ round, match });
    setEditorOpen(true);
  };
  const editingMatch = editing ? rounds[editing.round]?.matches[editing.match] : undefined;

  return (
    <div className="flex flex-col gap-4">
      <a href={`/tournament/${tournamentId}/bracket`} className="-mt-2 self-start text-sm">
        {t('bracket.openPage')} <span aria-hidden="true">→</span>
      </a>
      <div aria-live="polite" className="empty:hidden">
        {notice && <Notice tone={notice.tone}>{notice.text}</Notice>}
      </div>

      {bracket.length > 0 && <ProgressBar {...progress(bracket)} />}

      {isAdmin && winner && (
        <ChampionOffer
          api={api}
          tournamentId={tournamentId}
          championId={winner}
          championName={participantName(names, winner)}
          onWinnerSet={onTournamentChanged}
        />
      )}

      {bracket.length === 0 && <p className="rounded-card border border-dashed border-line p-4 text-center text-muted">{t('bracket.empty')}</p>}

      {isAdmin && (
        <CreateBracket
          participants={data.participants.length}
          hasBracket={bracket.length > 0}
          hasResults={hasPlayedResults(bracket)}
          startsTournament={pending && !started}
          busy={busy}
          onCreate={async (seeding, replace) => {
            const outcome = await sync.create(seeding, replace);
            if (outcome === 'created' && pending) {
              setStarted(true);
              onTournamentChanged();
            }
            return outcome;
          }}
        />
      )}

      {rounds.length > 0 && (
        <BracketDrawing
          rounds={rounds}
          idPrefix={headingPrefix}
          headingLevel={3}
          renderMatch={(match) => {
            const open = isAdmin && match.editable ? () => edit(match.roundIndex, match.index) : undefined;
            const key = `${match.roundIndex}-${match.index}`;
            return (
              <MatchCard match={match} onClick={open} className="w-full">
                {isAdmin && match.editable && (
                  // The card opens the editor on a click; these buttons are the keyboard's way, and the quick results.
                  <div className="mt-2 flex flex-wrap gap-1.5" onClick={(event) => event.stopPropagation()}>
                    {match.state === 'ready' &&
                      match.sides.map((side) =>
                        side.id ? (
                          <button
                            key={side.id}
                            type="button"
                            className="btn-ghost px-2.5 py-1 text-xs aria-disabled:cursor-not-allowed aria-disabled:opacity-60"
                            // Not `disabled` while a save is under way: that would throw the keyboard's focus away.
                            aria-disabled={busy}
                            onClick={() => {
                              if (busy) return;
                              setFocusMatch(key);
                              save(setResult(bracket, match.roundIndex, match.index, side.id!, bracket[match.roundIndex]?.matches[match.index]?.comment ?? ''));
                            }}
                          >
                            {t('bracket.quickWin', { name: side.name })}
                          </button>
                        ) : null,
                      )}
                    <button
                      type="button"
                      className="btn-ghost px-2.5 py-1 text-xs"
                      aria-label={t('bracket.editMatch', { match: match.label })}
                      onClick={open}
                      ref={(button) => {
                        if (button && focusMatch === key) {
                          button.focus();
                          setFocusMatch(null);
                        }
                      }}
                    >
                      ✎ <span aria-hidden="true">{t('bracket.edit')}</span>
                    </button>
                  </div>
                )}
              </MatchCard>
            );
          }}
        />
      )}

      {editing && editingMatch && (
        <MatchEditor
          key={`${editing.round}-${editing.match}`}
          bracket={bracket}
          participants={data.participants}
          roundIndex={editing.round}
          matchIndex={editing.match}
          label={editingMatch.label}
          open={editorOpen}
          busy={busy}
          onCancel={() => setEditorOpen(false)}
          onClose={() => {
            setEditorOpen(false);
            setEditing(null);
          }}
          onSave={save}
        />
      )}
    </div>
  );
}
