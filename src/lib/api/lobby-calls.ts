/**
 * A free-for-all lobby's calls (issue 59), apart from their schemas in stages.ts: the lobby's
 * islands import these, and a module with zod schemas built at its top would carry zod into the browser.
 */
import type { ApiClient } from './client.ts';
import type { LobbyState, LobbyView } from './stages.ts';

/** One member's line of a lobby's game: where they finished and how many they knocked out. */
export interface LobbyLine {
  participant: string;
  placement: number;
  kills: number;
}

/** A game of a lobby as its players and organisers see it: entered (`confirmed`) or a player's proposal waiting (`proposed`). */
export interface LobbyGameEntry {
  number: number;
  lines: LobbyLine[];
  state: 'confirmed' | 'proposed';
  enteredAt: string;
}

/** One lobby with its tournament, stage, table, games and names (`GET /api/lobbies/{id}`), the same for every reader. */
export const getLobby = (api: ApiClient, lobbyId: string) => api.get(`lobbies/${encodeURIComponent(lobbyId)}`).json<LobbyState>();

/** Enters (an organiser) or proposes (a lobby's player) a free-for-all game. */
export const enterLobbyGame = (api: ApiClient, lobbyId: string, number: number, body: { lines: LobbyLine[] }) =>
  api.put(`matches/${encodeURIComponent(lobbyId)}/games/${number}`, { json: body }).json<{ message: string; state: 'confirmed' | 'proposed'; lobby: LobbyView }>();

/** A lobby's games with the players' proposals, for its players and the tournament's organisers (403 for anyone else). */
export const lobbyGames = (api: ApiClient, lobbyId: string) => api.get(`matches/${encodeURIComponent(lobbyId)}/games`).json<LobbyGameEntry[]>();
