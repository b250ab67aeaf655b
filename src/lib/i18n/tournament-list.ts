import { scope } from './core.ts';
import { common } from './uk/common.ts';
import { tournamentList } from './uk/tournament-list.ts';

/**
 * The tournament list's texts and the layout's: the game's list (islands/tournaments/TournamentList.tsx),
 * its cards and their status labels, the only island a guest's /games/{id} loads. Loaded like
 * `common.ts`, so that page does not download the rest of the catalog.
 */
const uk = { ...common, ...tournamentList };
export type TournamentListKey = keyof typeof uk;

/** The list's `t`: takes only a TournamentListKey (uk/common.ts and uk/tournament-list.ts). */
export const { t } = await scope<TournamentListKey>(uk, async () => {
  const [english, list] = await Promise.all([import('./en/common.ts'), import('./en/tournament-list.ts')]);
  return { ...english.common, ...list.tournamentList };
});
