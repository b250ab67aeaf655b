import { atom } from 'nanostores';
import { HTTPError } from '../../lib/api/client.ts';
import type { MatchState } from '../../lib/api/stages.ts';
import { refreshRegions, regionsAddress } from '../../components/live-regions.ts';

/** The match the page shows, as last read: the report island draws its controls from it. */
export const $match = atom<MatchState | null>(null);

/** The server's answer that the reader has no place in the match's room (or there is no room): the room's panels stay away. */
export const notInRoom = (error: unknown) => error instanceof HTTPError && [401, 403, 404].includes(error.response.status);

/** Whether the match waits for its sides to check in (the room says so): its report form waits too. */
export const $checkInPending = atom(false);

const apiBase = import.meta.env.PUBLIC_API_URL ?? '/api';

/**
 * Reads the match anew for the report island. After an action of the reader's own (`redraw`), the
 * page's live part is redrawn from its regions too, as a live event redraws it for everyone else
 * (islands/live). A public read: no client needed; the action's writer asks past held copies.
 */
export async function refresh(matchId = $match.get()?.match._id, redraw = false): Promise<void> {
  if (!matchId) return;
  const [state] = await Promise.all([
    fetch(`${apiBase}/matches/${matchId}`, { cache: 'no-cache' })
      .then((r) => (r.ok ? (r.json() as Promise<MatchState>) : null))
      .catch(() => null),
    redraw ? refreshRegions(regionsAddress(`/matches/${matchId}/live`, { kind: 'action' })) : undefined,
  ]);
  if (state) $match.set(state);
}
