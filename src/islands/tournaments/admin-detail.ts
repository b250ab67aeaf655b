import { getTournament, type TournamentDetail } from '../../lib/api/tournaments.ts';
import { api } from '../../lib/stores/api.ts';

const loads = new Map<string, Promise<TournamentDetail>>();

/**
 * The tournament with every application, as its admin sees it: fetched once for the page's admin
 * islands (the winner control and the applications list), again only when `fresh` is asked.
 */
export function adminDetail(tournamentId: string, fresh = false): Promise<TournamentDetail> {
  let load = fresh ? undefined : loads.get(tournamentId);
  if (!load) {
    load = getTournament(api, tournamentId);
    loads.set(tournamentId, load);
    // A failed load is not kept: the next island to ask tries again.
    load.catch(() => loads.delete(tournamentId));
  }
  return load;
}
