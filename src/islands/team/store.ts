import { atom } from 'nanostores';
import { getMyTeams, type Team } from '../../lib/api/teams.ts';
import { api } from '../../lib/stores/api.ts';

export type TeamsStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The signed-in user's teams, first the current one (GET /teams/mine). */
export const $teams = atom<Team[]>([]);
export const $teamsStatus = atom<TeamsStatus>('idle');

let generation = 0;

/** Loads the teams again; an older answer arriving late never overwrites a newer one. */
export async function loadTeams(options: { quiet?: boolean } = {}): Promise<void> {
  const mine = ++generation;
  if (!options.quiet || $teamsStatus.get() !== 'ready') $teamsStatus.set('loading');
  try {
    const teams = await getMyTeams(api);
    if (mine !== generation) return;
    $teams.set(teams);
    $teamsStatus.set('ready');
  } catch {
    if (mine !== generation) return;
    // A quiet refresh that fails keeps what is on screen.
    if (!options.quiet || $teamsStatus.get() !== 'ready') $teamsStatus.set('error');
  }
}

/** Puts the server's fresh copy of one team in place (or first, for a new team). */
export function putTeam(team: Team): void {
  const teams = $teams.get();
  $teams.set(teams.some((t) => t._id === team._id) ? teams.map((t) => (t._id === team._id ? team : t)) : [...teams, team]);
}

export function forgetTeams(): void {
  generation++;
  $teams.set([]);
  $teamsStatus.set('idle');
}
