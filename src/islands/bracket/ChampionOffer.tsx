import { useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage, type ApiClient } from '../../lib/api/client.ts';
import { getTournament, setWinner, updateTournament } from '../../lib/api/tournaments.ts';
import { normalizeStatus } from '../../lib/domain/tournament-status.ts';
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
}

type Standing = { kind: 'checking' } | { kind: 'open' } | { kind: 'decided'; name: string } | { kind: 'error'; message: string };

/**
 * Once the final is decided, offers the admin to make its winner the tournament's winner in one
 * step (SPEC §4 Winner): a tournament not yet finished is first marked finished (PUT), then the
 * winner is saved (PATCH /winner), with the same calls as the tournament's admin tools.
 */
export function ChampionOffer({ api, tournamentId, soloOnly, championId, championName, onWinnerSet }: Props) {
  const [standing, setStanding] = useState<Standing>({ kind: 'checking' });
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);

  useEffect(() => {
    let live = true;
    getTournament(api, tournamentId)
      .then((detail) => live && setStanding(detail.winner ? { kind: 'decided', name: detail.winner.name } : { kind: 'open' }))
      .catch((error: unknown) => live && setStanding({ kind: 'error', message: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [api, tournamentId, championId]);

  async function declare() {
    setBusy(true);
    setResult(null);
    try {
      const detail = await getTournament(api, tournamentId);
      if (detail.winner) {
        setStanding({ kind: 'decided', name: detail.winner.name });
        return;
      }
      if (normalizeStatus(detail.status) !== 'finished') {
        await updateTournament(api, tournamentId, { title: detail.title, date: detail.date, game: detail.game, status: 'finished' });
      }
      const saved = await setWinner(api, tournamentId, { winnerType: winnerTypeOf(soloOnly), winnerId: championId });
      setResult({ tone: 'success', text: saved.message });
      setStanding({ kind: 'decided', name: saved.tournament.winner?.name ?? championName });
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
          <button type="button" className="btn-primary self-start" disabled={busy} onClick={() => void declare()}>
            {t('bracket.championButton', { name: championName })}
          </button>
        </>
      )}
      {result && <Notice tone={result.tone}>{result.text}</Notice>}
    </div>
  );
}
