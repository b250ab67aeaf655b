/**
 * The seasons' calls (issue 59), apart from their schemas in seasons.ts: the manage island imports
 * these, and a module with zod schemas built at its top would carry zod into the browser.
 */
import type { ApiClient } from './client.ts';
import { pageParams, readPage } from './paging.ts';
import type { Season, SeasonInput, SeasonListItem, SeasonSaved, SeasonStandings, SeasonUpdate } from './seasons.ts';

const path = (id: string) => `seasons/${encodeURIComponent(id)}`;

export const listSeasons = async (api: ApiClient, query: { organisation?: string; game?: string; limit?: number; offset?: number } = {}) =>
  readPage<SeasonListItem>(
    await api.get('seasons', {
      searchParams: { ...(query.organisation ? { organisation: query.organisation } : {}), ...(query.game ? { game: query.game } : {}), ...pageParams(query) },
    }),
  );
export const getSeason = (api: ApiClient, id: string) => api.get(path(id)).json<Season>();
export const getSeasonStandings = (api: ApiClient, id: string) => api.get(`${path(id)}/standings`).json<SeasonStandings>();
export const createSeason = (api: ApiClient, body: SeasonInput) => api.post('seasons', { json: body }).json<SeasonSaved>();
export const updateSeason = (api: ApiClient, id: string, body: SeasonUpdate) => api.put(path(id), { json: body }).json<SeasonSaved>();
export const deleteSeason = (api: ApiClient, id: string) => api.delete(path(id)).json<{ message: string }>();
export const addSeasonTournament = (api: ApiClient, id: string, tournamentId: string) =>
  api.put(`${path(id)}/tournaments/${encodeURIComponent(tournamentId)}`).json<SeasonSaved>();
export const removeSeasonTournament = (api: ApiClient, id: string, tournamentId: string) =>
  api.delete(`${path(id)}/tournaments/${encodeURIComponent(tournamentId)}`).json<SeasonSaved>();
