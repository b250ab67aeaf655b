import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, type ApiClient } from '../../lib/api/client.ts';
import { getTournament, setWinner } from '../../lib/api/tournaments.ts';
import { winnerTypeOf } from '../../lib/domain/tournament-winner.ts';
import { t } from '../../lib/i18n/index.ts';
import { Crown } from './MatchCard.tsx';

interface Props {
  api: ApiClient;
  tournamentId: string;
  soloOnly: boolean;
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

type Standing = { kind: 'checking' } | { kind: 'open' } | { kind: 'decided'; name: string } | { kind: 'error'; message: string };

/**
 * Once the final is decided, offers the admin exactly its winner as the tournament's winner, in
 * one action (SPEC §4 Winner): one PATCH /winner with `finish`, so the server marks a started
 * tournament finished and saves the winner in one transaction, under the usual winner rules.
 * With `others`, someone else may be chosen, but only after confirming that the bracket says otherwise.
 */
export function ChampionOffer({ api, tournamentId, soloOnly, championId, championName, onWinnerSet, others = [] }: Props) {
  const [standing, setStanding] = useState<Standing>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [choosingOther, setChoosingOther] = useState(false);

  useEffect(() => {
    let live = true;
    getTournament(api, tournamentId)
      .then((detail) => live && setStanding(detail.winner ? { kind: 'decided', name: detail.winner.name } : { kind: 'open' }))
      .catch((error: unknown) => live && setStanding({ kind: 'error', message: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [api, tournamentId, championId]);

  async function declare(id: string, name: string) {
    setBusy(true);
    setResult(null);
    try {
      const saved = await setWinner(api, tournamentId, { winnerType: winnerTypeOf(soloOnly), winnerId: id, finish: true });
      setResult({ tone: 'success', text: saved.message });
      setStanding({ kind: 'decided', name: saved.tournament.winner?.name ?? name });
      onWinnerSet();
    } catch (error) {
      setResult({ tone: 'error', text: errorMessage(error, t('winner.error')) });
    } finally {
      setBusy(false);
    }
  }

  if (standing.kind === 'checking') return null;
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
