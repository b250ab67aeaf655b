import { useId, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import type { Names } from '../../components/stages/view.ts';
import { participantName } from '../../components/participant-names.ts';
import { errorMessage } from '../../lib/api/client.ts';
import { enterLobbyGame, lobbyGames, type LobbyView, type StageView } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { lobbyGameBody, lobbyGameRows, nextGame, type LobbyGameRow } from './lobby-game.ts';
import type { StagesSync } from './sync.ts';

interface Props {
  sync: StagesSync;
  stage: StageView;
  names: Names;
  busy: boolean;
  onChanged: () => void;
}

/**
 * A free-for-all stage's games for its organisers (issue 59): each lobby of the round being played,
 * its next game's placement and kills for every member (as a player proposed them, when one did),
 * entered with one button. The server's message goes to the modal's notice line; the round's last
 * game makes the next round's lobbies, and the board is read again.
 */
export function LobbyGames({ sync, stage, names, busy, onChanged }: Props) {
  const lastRound = Math.max(0, ...stage.lobbies.map((l) => l.round));
  const open = stage.lobbies.filter((l) => l.round === lastRound && !l.complete);
  if (stage.complete || open.length === 0) return null;
  return (
    <div className="flex flex-col gap-2" data-lobby-games>
      {open.map((lobby) => (
        <LobbyGame key={`${lobby._id}-${lobby.version}`} sync={sync} stage={stage} lobby={lobby} names={names} busy={busy} onChanged={onChanged} />
      ))}
    </div>
  );
}

function LobbyGame({ sync, stage, lobby, names, busy, onChanged }: Props & { lobby: LobbyView }) {
  const id = useId();
  const games = stage.settings.games ?? 1;
  const [number, setNumber] = useState(() => nextGame(lobby, games));
  const [rows, setRows] = useState<LobbyGameRow[]>(() => lobbyGameRows(lobby, lobby.games.find((g) => g.number === number)?.lines));
  const [problem, setProblem] = useState<string | null>(null);
  const [proposal, setProposal] = useState<string | null>(null);
  const title = lastRoundIsFinal(stage, lobby) ? t('stages.ffa.final') : t('stages.ffa.lobby', { number: lobby.number });

  function pick(game: number) {
    setNumber(game);
    setRows(lobbyGameRows(lobby, lobby.games.find((g) => g.number === game)?.lines));
    setProposal(null);
  }

  async function takeProposal() {
    setProblem(null);
    try {
      const found = (await lobbyGames(api, lobby._id)).find((g) => g.number === number && g.state === 'proposed');
      if (!found) {
        setProposal(t('stageAdmin.lobby.noProposal'));
        return;
      }
      setRows(lobbyGameRows(lobby, found.lines));
      setProposal(t('stageAdmin.lobby.proposalTaken'));
    } catch (error) {
      setProblem(errorMessage(error, t('stageAdmin.lobby.error')));
    }
  }

  async function submit() {
    setProblem(null);
    const body = lobbyGameBody(rows);
    if (!body.ok) {
      setProblem(body.message);
      return;
    }
    await sync.change(async () => {
      try {
        const answer = await enterLobbyGame(api, lobby._id, number, { lines: body.lines });
        sync.say({ tone: 'success', text: `${title}: ${answer.message}` });
        onChanged();
      } catch (error) {
        setProblem(errorMessage(error, t('stageAdmin.lobby.error')));
      }
    });
  }

  const update = (index: number, field: 'placement' | 'kills', value: string) =>
    setRows((all) => all.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  return (
    <details className="rounded-card border border-line p-3" data-lobby-form={lobby._id}>
      <summary className="cursor-pointer text-sm font-semibold">
        {title} · {t('stages.ffa.gamesPlayed', { played: lobby.games.length, games })}
      </summary>
      <form
        className="mt-3 flex flex-col gap-3 text-sm"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="flex flex-wrap items-end gap-3">
          <div className="flex flex-col gap-1 font-medium">
            <label htmlFor={`${id}-game`}>{t('stageAdmin.lobby.game')}</label>
            <select id={`${id}-game`} className="field min-h-11" value={number} onChange={(event) => pick(Number(event.target.value))}>
              {Array.from({ length: games }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {t('stageAdmin.lobby.gameOption', { number: n })}
                  {lobby.games.some((g) => g.number === n) ? ` · ${t('stageAdmin.lobby.entered')}` : ''}
                </option>
              ))}
            </select>
          </div>
          <button type="button" className="btn-ghost min-h-11" onClick={() => void takeProposal()}>
            {t('stageAdmin.lobby.takeProposal')}
          </button>
        </div>
        {proposal && <p className="text-muted">{proposal}</p>}
        <table className="w-full border-collapse">
          <caption className="sr-only">{t('stageAdmin.lobby.caption', { lobby: title, number })}</caption>
          <thead>
            <tr className="border-b border-line text-left text-xs text-muted uppercase">
              <th scope="col" className="py-2 pr-2 font-semibold">
                {t('stages.col.name')}
              </th>
              <th scope="col" className="w-18 px-1 py-2 font-semibold sm:w-24">
                {t('stageAdmin.lobby.placement')}
              </th>
              <th scope="col" className="w-18 py-2 pl-1 font-semibold sm:w-24">
                {t('stages.ffa.kills')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => {
              const name = participantName(names, row.participant);
              return (
                <tr key={row.participant} className="border-b border-line/60 last:border-b-0">
                  <th scope="row" className="max-w-0 truncate py-1.5 pr-2 text-left font-semibold" title={name}>
                    {name}
                  </th>
                  <td className="px-1 py-1.5">
                    <select
                      className="field min-h-11 w-full"
                      aria-label={t('stageAdmin.lobby.placementOf', { name })}
                      value={row.placement}
                      onChange={(event) => update(index, 'placement', event.target.value)}
                    >
                      {rows.map((_, place) => (
                        <option key={place} value={place + 1}>
                          {place + 1}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="py-1.5 pl-1">
                    <input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      className="field min-h-11 w-full"
                      aria-label={t('stageAdmin.lobby.killsOf', { name })}
                      value={row.kills}
                      onChange={(event) => update(index, 'kills', event.target.value)}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <button type="submit" className="btn-primary min-h-11 self-start" disabled={busy}>
          {t('stageAdmin.lobby.submit', { number })}
        </button>
        {problem && <Notice tone="error">{problem}</Notice>}
      </form>
    </details>
  );
}

/** Whether the lobby is the final: its round has no other lobby and is the last one. */
const lastRoundIsFinal = (stage: StageView, lobby: LobbyView) =>
  stage.lobbies.filter((l) => l.round === lobby.round).length === 1 && lobby.round === Math.max(...stage.lobbies.map((l) => l.round));
