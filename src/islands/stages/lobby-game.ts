import type { LobbyView } from '../../lib/api/stages.ts';
import { FFA_LIMITS } from '../../lib/domain/stage/format.ts';
import { t } from '../../lib/i18n/index.ts';

/** One member's row of the game form: as typed. */
export interface LobbyGameRow {
  participant: string;
  placement: string;
  kills: string;
}

/** The form's rows for a lobby's game: from lines entered or proposed before, else each member in seed order, placed as listed. */
export function lobbyGameRows(lobby: Pick<LobbyView, 'members'>, lines?: readonly { participant: string; placement: number; kills: number }[]): LobbyGameRow[] {
  const known = new Map((lines ?? []).map((l) => [l.participant, l]));
  return lobby.members.map((participant, i) => {
    const line = known.get(participant);
    return { participant, placement: String(line?.placement ?? i + 1), kills: String(line?.kills ?? 0) };
  });
}

/** The next game to enter: the first not entered, else the last. */
export const nextGame = (lobby: Pick<LobbyView, 'games'>, games: number): number => {
  const entered = new Set(lobby.games.map((g) => g.number));
  return Array.from({ length: games }, (_, i) => i + 1).find((n) => !entered.has(n)) ?? games;
};

/**
 * The body of `PUT /api/matches/{id}/games/{n}` from the rows, or the first problem in the reader's
 * language: placements 1…n each once, kills whole numbers up to the API's limit.
 */
export function lobbyGameBody(
  rows: readonly LobbyGameRow[],
): { ok: true; lines: { participant: string; placement: number; kills: number }[] } | { ok: false; message: string } {
  const lines = rows.map((row) => ({ participant: row.participant, placement: Number(row.placement), kills: row.kills.trim() === '' ? 0 : Number(row.kills) }));
  if (lines.some((l) => !Number.isInteger(l.kills) || l.kills < 0 || l.kills > FFA_LIMITS.kills))
    return { ok: false, message: t('stageAdmin.lobby.killsInvalid', { max: FFA_LIMITS.kills }) };
  const places = lines.map((l) => l.placement).sort((x, y) => x - y);
  if (!places.every((p, i) => p === i + 1)) return { ok: false, message: t('lobby.game.placements') };
  return { ok: true, lines };
}
