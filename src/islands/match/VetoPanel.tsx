import { useState } from 'react';
import { refreshRegions, regionsAddress } from '../../components/live-regions.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { moveVeto, type VetoMoveInput, type VetoView } from '../../lib/api/veto.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';

interface Props {
  matchId: string;
  /** The veto, awaiting a move from the reader's side. */
  veto: VetoView;
  onMoved: (veto: VetoView) => void;
}

/**
 * The move the veto awaits from the reader's side (issue 58), as big buttons a thumb can hit: the
 * starter's choice of Team A or B, a map to ban or pick (those still in the pool), or the starting
 * side on the map just chosen. The server's refusal (a move raced by the opponent) is shown as said.
 */
export default function VetoPanel({ matchId, veto, onMoved }: Props) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const next = veto.next!;
  const lastMap = veto.maps.at(-1)?.map ?? '';

  async function send(body: VetoMoveInput) {
    setBusy(true);
    setProblem(null);
    try {
      const answer = await moveVeto(api, matchId, body);
      onMoved(answer.veto);
      await refreshRegions(regionsAddress(`/matches/${matchId}/live`, { kind: 'action' }));
    } catch (error) {
      setProblem(errorMessage(error, t('veto.error')));
    } finally {
      setBusy(false);
    }
  }

  const choices: { label: string; body: VetoMoveInput }[] =
    next.action === 'roles'
      ? [
          { label: t('veto.teamA'), body: { action: 'roles', role: 'A' } },
          { label: t('veto.teamB'), body: { action: 'roles', role: 'B' } },
        ]
      : next.action === 'side'
        ? veto.sides.map((side, i) => ({ label: t('veto.sideThis', { side }), body: { action: 'side', side: i as 0 | 1 } }))
        : veto.remaining.map((map) => ({
            label: t(next.action === 'ban' ? 'veto.banThis' : 'veto.pickThis', { map }),
            body: { action: next.action as 'ban' | 'pick', map },
          }));
  const prompt =
    next.action === 'roles'
      ? t('veto.chooseRole')
      : next.action === 'side'
        ? t('veto.chooseSide', { map: lastMap })
        : t(next.action === 'ban' ? 'veto.banMap' : 'veto.pickMap');

  return (
    <section aria-labelledby="veto-turn" className="card flex flex-col gap-3 border-primary">
      <h2 id="veto-turn" className="text-lg font-bold">
        {t('veto.yourTurn')}
      </h2>
      <p className="text-sm">{prompt}</p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
        {choices.map(({ label, body }) => (
          <button
            key={label}
            type="button"
            className={next.action === 'ban' ? 'btn-ghost min-h-12' : 'btn-primary min-h-12'}
            disabled={busy}
            onClick={() => void send(body)}
          >
            {label}
          </button>
        ))}
      </div>
      <div aria-live="polite" className="text-sm text-danger empty:hidden">
        {problem}
      </div>
    </section>
  );
}
