import { HTTPError, type ApiClient } from '../../lib/api/client.ts';
import { getLobby } from '../../lib/api/lobby-calls.ts';
import { getMatch } from '../../lib/api/match-reports.ts';
import type { LobbyState, MatchState } from '../../lib/api/stages.ts';

/** What `/matches/{id}` shows: a two-sided match, or a free-for-all lobby (issue 59), whose id is the match id its games are entered under. */
export type MatchPageData = { kind: 'match'; state: MatchState } | { kind: 'lobby'; state: LobbyState };

/** The match of that id, else the lobby of that id; the lobby's 404 when it is neither. */
export async function loadMatchPage(api: ApiClient, id: string): Promise<MatchPageData> {
  try {
    return { kind: 'match', state: await getMatch(api, id) };
  } catch (error) {
    if (!(error instanceof HTTPError && error.response.status === 404)) throw error;
    return { kind: 'lobby', state: await getLobby(api, id) };
  }
}
