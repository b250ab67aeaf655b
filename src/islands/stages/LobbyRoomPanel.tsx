import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import { refreshRegions, regionsAddress } from '../../components/live-regions.ts';
import { participantIndex } from '../../components/participant-names.ts';
import { HTTPError } from '../../lib/api/client.ts';
import { enterLobbyGame, getLobby, lobbyGames, type LobbyGameEntry, type LobbyLine } from '../../lib/api/lobby-calls.ts';
import type { LobbyState } from '../../lib/api/stages.ts';
import { canOrganise } from '../../lib/domain/organisers.ts';
import { isFinished } from '../../lib/domain/tournament-status.ts';
import { t } from '../../lib/i18n/index.ts';
import { onPageEvent } from '../../lib/live/events.ts';
import { api } from '../../lib/stores/api.ts';
import { $user } from '../../lib/stores/session.ts';
import { LobbyGameForm } from './LobbyGameForm.tsx';
import { nextGame } from './lobby-game.ts';

/** The server's answer that the reader is not of the lobby (or there is no lobby): the panel stays away. */
const notOfLobby = (error: unknown) => error instanceof HTTPError && [401, 403, 404].includes(error.response.status);

/**
 * The lobby page's form (issue 59) for its players and its tournament's organisers, told apart as
 * the server tells them: the lobby's games with the proposals waiting (`GET /api/matches/{id}/games`)
 * answer only them. An organiser enters a game (a proposal waiting can be put into the rows); a
 * player proposes one and sees it wait for the organisers. Read again on every event of the
 * tournament the page hears, and after the reader's own action.
 */
export default function LobbyRoomPanel({ initial }: { initial: LobbyState }) {
  const user = useStore($user);
  const [state, setState] = useState(initial);
  const [entries, setEntries] = useState<LobbyGameEntry[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lobbyId = initial.lobby._id;
  const tournamentId = initial.tournament._id;

  // Bumped to read the lobby again: after the reader's own action.
  const [reads, setReads] = useState(0);
  const read = useCallback(() => setReads((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    const load = (withLobby: boolean) =>
      Promise.all([lobbyGames(api, lobbyId), withLobby ? getLobby(api, lobbyId) : null])
        .then(([games, lobby]) => {
          if (!live) return;
          setEntries(games);
          if (lobby) setState(lobby);
        })
        .catch((error: unknown) => {
          if (!live) return;
          if (notOfLobby(error)) setEntries(null);
          else setProblem(t('lobbyPage.loadError'));
        });
    // The page's own copy is as fresh as its HTML at first; after an action or an event, read it again.
    void load(reads > 0);
    const stop = onPageEvent(tournamentId, () => void load(true));
    return () => {
      live = false;
      stop();
    };
  }, [lobbyId, tournamentId, reads]);

  if (!entries) return problem ? <p className="text-sm text-danger">{problem}</p> : null;
  const { lobby, stage } = state;
  const organiser = canOrganise(user, tournamentId, state.tournament.organisation);
  // Nothing left to enter: the round went on without it, or the tournament is over; a player has nothing to propose once every game counts.
  if (!stage.current || isFinished(state.tournament.status) || (!organiser && lobby.complete)) return null;

  const games = stage.games;
  const all = Array.from({ length: games }, (_, i) => i + 1);
  const entered = new Set(lobby.games.map((g) => g.number));
  const proposed = (game: number) => entries.find((e) => e.number === game && e.state === 'proposed')?.lines;
  const title = stage.final ? t('stages.ffa.final') : t('stages.ffa.lobby', { number: lobby.number });
  // The form opens again on the next game after a game entered or proposed (a proposal does not change the public lobby).
  const version = `${lobby.version}:${entries.map((e) => `${e.number}${e.state}${e.enteredAt}`).join(',')}`;

  async function send(game: number, lines: LobbyLine[]) {
    setBusy(true);
    setSaid(null);
    try {
      const answer = await enterLobbyGame(api, lobbyId, game, { lines });
      setSaid(answer.message);
      // An entered game changes the page for everyone: the reader sees it at once, as a live event shows it to the others.
      if (answer.state === 'confirmed') void refreshRegions(regionsAddress(`/matches/${lobbyId}/live`, { kind: 'action' }));
      read();
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="lobby-form-title" className="card flex flex-col gap-3" data-lobby-room={organiser ? 'organiser' : 'player'}>
      <h2 id="lobby-form-title" className="text-lg font-bold">
        {organiser ? t('lobbyPage.enter') : t('lobbyPage.propose')}
      </h2>
      {!organiser && <p className="text-sm text-muted">{t('lobbyPage.proposeHint')}</p>}
      {said && <Notice tone="success">{said}</Notice>}
      <LobbyGameForm
        key={version}
        lobby={lobby}
        numbers={organiser ? all : all.filter((n) => !entered.has(n))}
        first={nextGame(lobby, games)}
        linesOf={(game) => (organiser ? lobby.games.find((g) => g.number === game)?.lines : (proposed(game) ?? lobby.games.find((g) => g.number === game)?.lines))}
        names={participantIndex(state.participants)}
        title={title}
        submitLabel={(game) => (organiser ? t('stageAdmin.lobby.submit', { number: game }) : t('lobbyPage.proposeSubmit', { number: game }))}
        note={(game) => (proposed(game) ? t(organiser ? 'lobbyPage.proposalWaiting' : 'lobbyPage.pending', { number: game }) : null)}
        proposal={organiser ? async (game) => (await lobbyGames(api, lobbyId)).find((e) => e.number === game && e.state === 'proposed')?.lines ?? null : undefined}
        busy={busy}
        failed={organiser ? t('stageAdmin.lobby.error') : t('lobbyPage.proposeError')}
        send={send}
      />
    </section>
  );
}
