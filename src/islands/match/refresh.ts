import { atom } from 'nanostores';
import { localizeTimes } from '../../components/local-time.ts';
import type { MatchState } from '../../lib/api/stages.ts';
import { formatDateTime } from '../../lib/i18n/format.ts';

/** The match the page shows, as last read: the report island draws its controls from it. */
export const $match = atom<MatchState | null>(null);

const apiBase = import.meta.env.PUBLIC_API_URL ?? '/api';

/**
 * Reads the match anew and redraws the page's server-rendered part (`[data-match-live]`: score,
 * time, report, history) from the page itself, so one renderer draws it. The seam a live event
 * calls (issue 22); the report island calls it after each action. A public read: no client needed.
 */
export async function refresh(matchId = $match.get()?.match._id): Promise<void> {
  if (!matchId) return;
  const [state, html] = await Promise.all([
    fetch(`${apiBase}/matches/${matchId}`, { cache: 'no-store' }).then((r) => (r.ok ? (r.json() as Promise<MatchState>) : null)),
    fetch(`/matches/${matchId}`, { cache: 'no-store' }).then((r) => (r.ok ? r.text() : null)),
  ]).catch(() => [null, null] as const);
  if (state) $match.set(state);
  const shown = document.querySelector('[data-match-live]');
  const fresh = html ? new DOMParser().parseFromString(html, 'text/html').querySelector('[data-match-live]') : null;
  if (!shown || !fresh) return;
  localizeTimes(fresh, (iso, timeZone) => formatDateTime(iso, timeZone ? { timeZone } : {}));
  shown.replaceWith(document.importNode(fresh, true));
}
