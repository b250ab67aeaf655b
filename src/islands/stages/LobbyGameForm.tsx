import { useId, useState } from 'react';
import { Notice } from '../../components/Notice.tsx';
import type { Names } from '../../components/stages/view.ts';
import { participantName } from '../../components/participant-names.ts';
import { errorMessage } from '../../lib/api/client.ts';
import type { LobbyLine } from '../../lib/api/lobby-calls.ts';
import type { LobbyView } from '../../lib/api/stages.ts';
import { t } from '../../lib/i18n/index.ts';
import { lobbyGameBody, lobbyGameRows, type LobbyGameRow } from './lobby-game.ts';

export interface LobbyGameFormProps {
  lobby: Pick<LobbyView, 'members' | 'games'>;
  /** The games to choose from, and the one the form opens with. */
  numbers: readonly number[];
  first: number;
  /** The lines a game opens with: as entered, or as a player proposed them; none, each member in seed order. */
  linesOf: (game: number) => readonly LobbyLine[] | undefined;
  names: Names;
  /** «Лобі 2»: the rows' caption for screen readers. */
  title: string;
  /** The submit button's words for a game: «Внести гру 2», «Запропонувати гру 2». */
  submitLabel: (game: number) => string;
  /** A line under the game's choice for the game chosen: a proposal waiting or sent. */
  note?: (game: number) => string | null;
  /** An organiser's form: a button puts the players' proposal for the game chosen into the rows (null: none). */
  proposal?: (game: number) => Promise<readonly LobbyLine[] | null>;
  busy: boolean;
  /** Sends the game; what it throws is shown under the form in the reader's language. */
  send: (game: number, lines: LobbyLine[]) => Promise<void>;
  /** What the form says when sending failed without the server's words. */
  failed: string;
}

/**
 * A free-for-all game's rows (issue 59): the game, then every member's placement and kills, sent
 * with one button. The organisers' modal (LobbyGames.tsx) enters a game with it, the lobby's page
 * (LobbyRoomPanel.tsx) enters or proposes one. Keyed by its parent on the lobby's version, so a
 * game entered or proposed opens it again on the next game.
 */
export function LobbyGameForm({ lobby, numbers, first, linesOf, names, title, submitLabel, note, proposal, busy, send, failed }: LobbyGameFormProps) {
  const id = useId();
  const [number, setNumber] = useState(first);
  const [rows, setRows] = useState<LobbyGameRow[]>(() => lobbyGameRows(lobby, linesOf(first)));
  const [problem, setProblem] = useState<string | null>(null);
  const [taken, setTaken] = useState<string | null>(null);

  function pick(game: number) {
    setNumber(game);
    setRows(lobbyGameRows(lobby, linesOf(game)));
    setTaken(null);
  }

  async function takeProposal() {
    if (!proposal) return;
    setProblem(null);
    try {
      const lines = await proposal(number);
      if (!lines) {
        setTaken(t('stageAdmin.lobby.noProposal'));
        return;
      }
      setRows(lobbyGameRows(lobby, lines));
      setTaken(t('stageAdmin.lobby.proposalTaken'));
    } catch (error) {
      setProblem(errorMessage(error, failed));
    }
  }

  async function submit() {
    setProblem(null);
    const body = lobbyGameBody(rows);
    if (!body.ok) {
      setProblem(body.message);
      return;
    }
    try {
      await send(number, body.lines);
    } catch (error) {
      setProblem(errorMessage(error, failed));
    }
  }

  const update = (index: number, field: 'placement' | 'kills', value: string) =>
    setRows((all) => all.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  const said = note?.(number) ?? null;
  return (
    <form
      className="flex flex-col gap-3 text-sm"
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
            {numbers.map((n) => (
              <option key={n} value={n}>
                {t('stageAdmin.lobby.gameOption', { number: n })}
                {lobby.games.some((g) => g.number === n) ? ` · ${t('stageAdmin.lobby.entered')}` : ''}
              </option>
            ))}
          </select>
        </div>
        {proposal && (
          <button type="button" className="btn-ghost min-h-11" onClick={() => void takeProposal()}>
            {t('stageAdmin.lobby.takeProposal')}
          </button>
        )}
      </div>
      {said && (
        <p className="text-muted" role="status" data-lobby-note>
          {said}
        </p>
      )}
      {taken && <p className="text-muted">{taken}</p>}
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
        {submitLabel(number)}
      </button>
      {problem && <Notice tone="error">{problem}</Notice>}
    </form>
  );
}
