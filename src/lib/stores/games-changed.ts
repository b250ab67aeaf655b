import { atom } from 'nanostores';

/**
 * Bumped by the games panel after every add, edit or delete, so other admin islands on the page
 * (the tournament form's game lists) fetch the games again.
 */
export const $gamesVersion = atom(0);

export const announceGamesChanged = () => $gamesVersion.set($gamesVersion.get() + 1);
