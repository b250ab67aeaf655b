import { useEffect, useState } from 'react';
import { Crown } from './Crown.tsx';
import { Notice } from './Notice.tsx';
import { errorMessage, type ApiClient } from '../lib/api/client.ts';
import { getTournament, setWinner, type TournamentDetail } from '../lib/api/tournaments.ts';
import { participantIdsOf } from '../lib/domain/participant.ts';
import { winnerRefusal, winnerTypeOf } from '../lib/domain/tournament-winner.ts';
import { t } from '../lib/i18n/index.ts';

interface Props {
  api: ApiClient;
  tournamentId: string;
  /** The tournament as the admin sees it, when the caller has it already; otherwise it is fetched. */
  detail?: TournamentDetail | undefined;
  championId: string;
  championName: string;
  /** Called once the tournament's winner is saved (the page behind shows it after a reload). */
  onWinnerSet: () => void;
  /**
   * The other approved participants the admin may declare instead (the tournament page's winner
   * block offers them, after a confirmation); none in the bracket modal.
   */
  others?: readonly { id: string; name: string }[];
}

type Standing = { kind: 'checking' } | { kind: 'open' } | { kind: 'closed' } | { kind: 'decided'; name: string } | { kind: 'error'; message: string };

/** Whether the champion may be declared now, by the same rule as the server's (`winnerRefusal` with `finish`). */
function standingOf(detail: TournamentDetail, championId: string): Standing {
  if (detail.winner) return { kind: 'decided', name: detail.winner.name };
  const facts = { tournament: { status: detail.status, soloOnly: detail.soloOnly, hasWinner: false }, participants: participantIdsOf(detail.applications, detail.soloOnly) };
  const refusal = winnerRefusal(facts, { type: winnerTypeOf(detail.soloOnly), id: championId }, { finish: true });
  return refusal === null ? { kind: 'open' } : { kind: 'closed' };
}

/**
 * Once the final is decided, offers the admin exactly its winner as the tournament's winner, in
 * one action (SPEC §4 Winner): one PATCH /winner with `finish`, so the server marks a started
 * tournament finished and saves the winner in one transaction, under the usual winner rules,
 * which the offer checks first (`winnerRefusal`): it is not made when the server would refuse.
 * With `others`, someone else may be chosen, but only after confirming that the bracket says
 * otherwise. Shared by the bracket modal and the tournament page's winner block.
 */
export function ChampionOffer({ api, tournamentId, detail, championId, championName, onWinnerSet, others = [] }: Props) {
  const [fetched, setFetched] = useState<TournamentDetail | { error: string } | null>(null);
  const [declared, setDeclared] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [choosingOther, setChoosingOther] = useState(false);

  useEffect(() => {
    if (detail) return;
    let live = true;
    getTournament(api, tournamentId)
      .then((fresh) => live && setFetched(fresh))
      .catch((error: unknown) => live && setFetched({ error: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [api, tournamentId, championId, detail]);

  const current = detail ?? (fetched && !('error' in fetched) ? fetched : null);
  const standing: Standing =
    declared !== null
      ? { kind: 'decided', name: declared }
      : current
        ? standingOf(current, championId)
        : fetched && 'error' in fetched
          ? { kind: 'error', message: fetched.error }
          : { kind: 'checking' };

  async function declare(id: string, name: string) {
    if (!current) return;
    setBusy(true);
    setResult(null);
    try {
      const saved = await setWinner(api, tournamentId, { winnerType: winnerTypeOf(current.soloOnly), winnerId: id, finish: true });
      setResult({ tone: 'success', text: saved.message });
      setDeclared(saved.tournament.winner?.name ?? name);
      onWinnerSet();
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error, t('winner.error')) });
    } finally {
      setBusy(false);
    }
  }

  if (standing.kind === 'checking' || standing.kind === 'closed') return null;
  return (
    <div className="flex flex-col gap-2 rounded-card border border-accent p-3 text-sm">
      {standing.kind === 'error' && <Notice tone="error">{standing.message}</Notice>}
      {standing.kind === 'decided' && (
        <p className="flex items-center gap-2 font-semibold text-accent">
          <Crown /> {t('bracket.championSet', { name: standing.name })}
        </p>
      )}
      {standing.kind === 'open' && (
        <>
          <p>{t('bracket.championOffer', { name: championName })}</p>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" className="btn-primary" disabled={busy} onClick={() => void declare(championId, championName)}>
              {t('bracket.championButton', { name: championName })}
            </button>
            {others.length > 0 && !choosingOther && (
              <button
                type="button"
                className="btn-ghost"
                disabled={busy}
                onClick={() => {
                  if (window.confirm(t('winner.confirmOther', { name: championName }))) setChoosingOther(true);
                }}
              >
                {t('winner.chooseOther')}
              </button>
            )}
          </div>
          {choosingOther && (
            <WinnerChooser candidates={others} busy={busy} onChoose={(picked) => void declare(picked.id, picked.name)} />
          )}
        </>
      )}
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
    </div>
  );
}

/**
 * A select of participants and «Зберегти переможця»; the choice is confirmed first, since a
 * winner cannot be changed later.
 */
export function WinnerChooser({ candidates, busy, onChoose }: { candidates: readonly { id: string; name: string }[]; busy: boolean; onChoose: (picked: { id: string; name: string }) => void }) {
  const [choice, setChoice] = useState('');
  const picked = candidates.find((c) => c.id === choice);
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(event) => {
        event.preventDefault();
        if (picked && window.confirm(t('winner.confirm', { name: picked.name }))) onChoose(picked);
      }}
    >
      <label className="flex flex-1 flex-col gap-1 font-medium">
        {t('winner.title')}
        <select className="field" value={choice} onChange={(e) => setChoice(e.target.value)} required>
          <option value="">{t('winner.placeholder')}</option>
          {candidates.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn-primary" disabled={busy || !picked}>
        {t('winner.save')}
      </button>
    </form>
  );
}
