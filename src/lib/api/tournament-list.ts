import type { TournamentListQuery } from '../domain/tournament-list.ts';
import type { ApiClient } from './client.ts';
import { pageParams, readPage, type Page } from './paging.ts';
import type { Tournament } from './tournaments.ts';

// Apart from lib/api/tournaments.ts, whose input checks speak through the whole catalog: the list
// island of a guest's /games/{id} reads through this alone (i18n/tournament-list.ts).

export async function listTournaments(api: ApiClient, query: TournamentListQuery = {}): Promise<Page<Tournament>> {
  const searchParams: Record<string, string> = {};
  if (query.game) searchParams.game = query.game;
  if (query.organisation) searchParams.organisation = query.organisation;
  if (query.soloOnly !== undefined) searchParams.soloOnly = String(query.soloOnly);
  if (query.status) searchParams.status = query.status;
  if (query.from !== undefined) searchParams.from = query.from instanceof Date ? query.from.toISOString() : query.from;
  if (query.sort) searchParams.sort = query.sort;
  return readPage<Tournament>(await api.get('tournaments', { searchParams: { ...searchParams, ...pageParams(query) } }));
}
