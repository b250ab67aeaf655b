import type { Names } from '../../components/stages/view.ts';
import { enterLobbyGame, lobbyGames } from '../../lib/api/lobby-calls.ts';
import type { LobbyView, StageView } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { api } from '../../lib/stores/api.ts';
import { LobbyGameForm } from './LobbyGameForm.tsx';
import { nextGame } from './lobby-game.ts';
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
  const games = stage.settings.games ?? 1;
  const title = lastRoundIsFinal(stage, lobby) ? t('stages.ffa.final') : t('stages.ffa.lobby', { number: lobby.number });
  return (
    <details className="rounded-card border border-line p-3" data-lobby-form={lobby._id}>
      <summary className="cursor-pointer text-sm font-semibold">
        {title} · {t('stages.ffa.gamesPlayed', { played: lobby.games.length, games })}
      </summary>
      <div className="mt-3">
        <LobbyGameForm
          lobby={lobby}
          numbers={Array.from({ length: games }, (_, i) => i + 1)}
          first={nextGame(lobby, games)}
          linesOf={(game) => lobby.games.find((g) => g.number === game)?.lines}
          names={names}
          title={title}
          submitLabel={(game) => t('stageAdmin.lobby.submit', { number: game })}
          proposal={async (game) => (await lobbyGames(api, lobby._id)).find((g) => g.number === game && g.state === 'proposed')?.lines ?? null}
          busy={busy}
          failed={t('stageAdmin.lobby.error')}
          send={(game, lines) =>
            sync.change(async () => {
              const answer = await enterLobbyGame(api, lobby._id, game, { lines });
              sync.say({ tone: 'success', text: `${title}: ${answer.message}` });
              onChanged();
            })
          }
        />
      </div>
    </details>
  );
}

/** Whether the lobby is the final: its round has no other lobby and is the last one. */
const lastRoundIsFinal = (stage: StageView, lobby: LobbyView) =>
  stage.lobbies.filter((l) => l.round === lobby.round).length === 1 && lobby.round === Math.max(...stage.lobbies.map((l) => l.round));
