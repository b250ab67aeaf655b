import { useEffect, useState } from 'react';
import { ChampionOffer, WinnerChooser } from '../../components/ChampionOffer.tsx';
import { Notice } from '../../components/Notice.tsx';
import { errorMessage } from '../../lib/api/client.ts';
import { getStandings } from '../../lib/api/stages.ts';
import { setWinner, type TournamentDetail } from '../../lib/api/tournaments.ts';
import { champion } from '../../lib/domain/bracket.ts';
import { applicantName, approvedOf } from '../../lib/domain/participant.ts';
import { isFinished, normalizeStatus } from '../../lib/domain/tournament-status.ts';
import { winnerRefusal, winnerTypeOf } from '../../lib/domain/tournament-winner.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { useCanOrganise } from '../../lib/hooks/organiser.ts';
import { adminDetail } from './admin-detail.ts';

/** The approved participants a winner may be chosen from: players for solo, teams for team tournaments. */
export function winnerCandidates(detail: TournamentDetail): { id: string; name: string }[] {
  return approvedOf(detail.applications, detail.soloOnly).map((a) => ({ id: detail.soloOnly ? a.user._id : a.team!._id, name: applicantName(a) }));
}

/**
 * The organisers' choose-winner control (an admin, or the tournament's staff: decision 016), right
 * under the tournament's winner block (SPEC §2, §4 Winner). When the bracket (or the competition's
 * places, issue 21) has a champion it offers exactly that champion, in one action that also
 * finishes the tournament; anyone else only after a confirmation. Without a champion, a finished
 * tournament's winner is chosen from the approved participants. Nothing for anyone else.
 */
export default function WinnerControl({ tournamentId, hostId = null }: { tournamentId: string; hostId?: string | null }) {
  // Until hydrated, render what the server did (nothing), so hydration always matches.
  const organises = useCanOrganise(tournamentId, hostId);
  const [detail, setDetail] = useState<TournamentDetail | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [stageChampion, setStageChampion] = useState<string | null>(null);

  useEffect(() => {
    if (!organises) return;
    let live = true;
    adminDetail(tournamentId)
      .then(async (fresh) => {
        // A competition of stages (issue 21) names its champion once every stage is over: the one alone in first place.
        const places = normalizeStatus(fresh.status) === 'pending' || fresh.winner ? null : await getStandings(api, tournamentId).catch(() => null);
        if (!live) return;
        setStageChampion(places?.final ? (places.placements.find((p) => p.from === 1 && p.to === 1)?.participant ?? null) : null);
        setDetail(fresh);
      })
      .catch((error: unknown) => live && setMessage({ tone: 'error', text: errorMessage(error, t('tournament.loadError')) }));
    return () => {
      live = false;
    };
  }, [organises, tournamentId]);

  if (!organises) return null;
  if (!detail) return message ? <Notice tone="error">{message.text}</Notice> : null;
  if (detail.winner) return null;

  const candidates = winnerCandidates(detail);
  const facts = { tournament: { status: detail.status, soloOnly: detail.soloOnly, hasWinner: false }, participants: candidates.map((c) => c.id) };
  const championId = champion(detail.bracket) ?? stageChampion;
  const championCandidate = candidates.find((c) => c.id === championId);
  // The page shows the new winner and status as HTML: reload it once the winner is saved.
  const reload = () => window.location.reload();

  if (championCandidate && winnerRefusal(facts, undefined, { finish: true }) === null) {
    return (
      <ChampionOffer
        api={api}
        tournamentId={tournamentId}
        detail={detail}
        championId={championCandidate.id}
        championName={championCandidate.name}
        others={candidates.filter((c) => c.id !== championCandidate.id)}
        onWinnerSet={reload}
      />
    );
  }

  const refusal = winnerRefusal(facts);
  if (isFinished(detail.status) && refusal === 'noParticipants') return <Notice tone="error">{t('applications.warnNoParticipants')}</Notice>;
  if (refusal !== null) return null;

  async function save(picked: { id: string; name: string }) {
    setBusy(true);
    setMessage(null);
    try {
      await setWinner(api, tournamentId, { winnerType: winnerTypeOf(detail!.soloOnly), winnerId: picked.id });
      reload();
    } catch (error) {
      setMessage({ tone: 'error', text: errorMessage(error, t('winner.error')) });
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2 rounded-card border border-accent p-3 text-sm">
      <WinnerChooser candidates={candidates} busy={busy} onChoose={(picked) => void save(picked)} />
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </div>
  );
}
