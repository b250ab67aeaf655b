import { atom } from 'nanostores';
import { getMyTeams, type Team } from '../../lib/api/teams.ts';
import { CHAT_POLL_MS } from '../../lib/domain/chat.ts';
import { api } from '../../lib/stores/api.ts';
import { $user, loadSession } from '../../lib/stores/session.ts';
import { watchUser } from '../../lib/live/user-events.ts';

export type TeamsStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The signed-in user's teams, first the current one (GET /teams/mine). */
export const $teams = atom<Team[]>([]);
export const $teamsStatus = atom<TeamsStatus>('idle');

let generation = 0;
/** The ETag of the answer `$teams` was last set from: the poll asks "changed since?" with it. */
let heldEtag: string | null = null;

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * Loads the teams again; an older answer arriving late never overwrites a newer one. A quiet
 * refresh of teams on screen costs a bodiless 304 while nothing in them changed.
 */
export async function loadTeams(options: { quiet?: boolean } = {}): Promise<void> {
  const mine = ++generation;
  const holding = $teamsStatus.get() === 'ready';
  if (!options.quiet || !holding) $teamsStatus.set('loading');
  try {
    const answer = await getMyTeams(api, holding ? heldEtag : null);
    if (mine !== generation) return;
    heldEtag = answer.etag;
    if (answer.changed) {
      $teams.set(answer.body);
      // Joined or removed elsewhere: the session's list of teams (the cabinet, the tab's own key) follows.
      const user = $user.get();
      if (user && !sameSet(user.teams, answer.body.map((t) => t._id))) void loadSession();
    }
    $teamsStatus.set('ready');
  } catch {
    if (mine !== generation) return;
    // A quiet refresh that fails keeps what is on screen.
    if (!options.quiet || $teamsStatus.get() !== 'ready') $teamsStatus.set('error');
  }
}

/** Puts the server's fresh copy of one team in place (or first, for a new team). */
export function putTeam(team: Team): void {
  // A load already under way may carry the team as it was before this change: it is dropped.
  generation++;
  const teams = $teams.get();
  $teams.set(teams.some((t) => t._id === team._id) ? teams.map((t) => (t._id === team._id ? team : t)) : [...teams, team]);
}

export function forgetTeams(): void {
  generation++;
  heldEtag = null;
  $teams.set([]);
  $teamsStatus.set('idle');
}

/** What each open chat does on a tick, by its team. */
const tickListeners = new Set<{ teamId: string; listener: () => void }>();

/**
 * Runs `listener` on every tick of the team tab's clock (each chat polls on it) while the user's
 * teams hold `teamId`; returns the unsubscribe.
 */
export function onTeamTick(teamId: string, listener: () => void): () => void {
  const entry = { teamId, listener };
  tickListeners.add(entry);
  return () => tickListeners.delete(entry);
}

/**
 * The team tab's one clock (SPEC §9: the chat is polled every 6 s): on each tick while the page is
 * in view, and at once when it comes back into view, the teams are refreshed (members, invites,
 * a team left or lost), then the chat of every team still held polls: a member just removed does
 * not ask for a chat that is no longer theirs. Returns the stop.
 */
export function watchTeams(): () => void {
  // One tick at a time: a change brings two live events at once (the notice and the team's), and a
  // second load would make the first drop its answer, whose tick then polled chats of teams as they
  // were (a member just removed asked for a chat no longer theirs). A tick asked for meanwhile runs
  // once more after the current one.
  let running = false;
  let again = false;
  const tick = async () => {
    if (document.hidden) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await loadTeams({ quiet: true });
        // Something changed while the teams loaded (a removal, say): read them again before any chat.
        if (again) continue;
        const held = new Set($teams.get().map((t) => t._id));
        for (const { teamId, listener } of tickListeners) if (held.has(teamId)) listener();
      } while (again && !document.hidden);
    } finally {
      running = false;
    }
  };
  const onTick = () => void tick();
  const timer = window.setInterval(onTick, CHAT_POLL_MS);
  document.addEventListener('visibilitychange', onTick);
  // Issue 22: a change of the team (or a notice about it: an invite, an application's answer) shows at once.
  const stopLive = watchUser(onTick, { pollMs: null });
  return () => {
    window.clearInterval(timer);
    stopLive();
    document.removeEventListener('visibilitychange', onTick);
  };
}
