import { onSession } from '../../lib/stores/signed-in.ts';
import type * as Mark from './applied-cards-mark.ts';

/**
 * Once someone is signed in, marks the cards of server-rendered lists (TournamentCardList.astro)
 * whose tournament they already applied to. A guest downloads nothing more: no React, no API
 * client, as with the bell (issue 24).
 */
export function markAppliedCards(): void {
  const lists = [...document.querySelectorAll<HTMLElement>('[data-applied-labels]')];
  if (lists.length === 0) return;
  let marking: Promise<typeof Mark> | undefined;
  onSession((user) => {
    if (!user) return;
    marking ??= import('./applied-cards-mark.ts');
    void marking.then(({ markApplied }) => markApplied(lists));
  });
}
