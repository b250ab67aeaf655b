/**
 * Which held public answers (server/serving/response-cache.ts) a successful write can make out of date.
 * Most writes may change anything a guest sees — a game's name is on every list — so they drop
 * every answer. The writes that come often while tournaments run touch little: a bracket save
 * changes one tournament, a recorded match its tournament and the ratings. Drawing a bracket
 * (POST) may start the tournament, whose status every list shows, so it drops every answer. Keeping the rest spares
 * the renders exactly when traffic peaks.
 */

/** A team's chat, under /api/ (its messages: `PRIVATE_WRITE`, `CHAT_WRITE`). */
const TEAM_CHAT = 'team/[^/]+/chat';

/** Writes that change nothing a guest can see: chat, sign-in, saved news, read marks, one's notice settings and language. */
const PRIVATE_WRITE = new RegExp(
  `^/api/(${TEAM_CHAT}|auth/(login|logout|register|resend-confirmation)|news/saved(/|$)|users/me/notifications/read|users/me/(notice-settings|locale)$|users/me/calendar/revoke$)`,
);

/**
 * A bracket saved, a match result recorded, a Swiss round paired, a stage's rounds timed (issue 22)
 * or a participant disqualified, for one tournament. (A stage created may start the tournament: it drops every answer.)
 */
const TOURNAMENT_PLAY = /^\/api\/tournaments\/([0-9a-f-]{36})\/(bracket|record-match|disqualify|stages\/[0-9a-f-]{36}\/(?:next-round|schedule))$/i;

/** A check-in or its undoing (issue 22): it shows on that tournament's pages and reads alone. */
const CHECK_IN = /^\/api\/tournaments\/([0-9a-f-]{36})\/check-in$/i;

/** A tournament's co-organiser named or removed (issue 23): only that tournament's page and its staff list show them. */
const STAFF = /^\/api\/tournaments\/([0-9a-f-]{36})\/staff(?:\/[0-9a-f-]{36})?$/i;

/** The pages and reads of one tournament: its page, its bracket page, its embed (issue 23), its API answers. */
const tournamentPaths = (id: string) =>
  `/tournaments/${id}(/|\\?|$)|/tournament/${id}(/|\\?|$)|/embed/tournaments/${id}(/|\\?|$)|/api/tournaments/${id}(/|\\?|$)`;

/** Stage match pages, read by id (a path names no tournament): the page, its embed, the API's answer. */
const MATCH_PAGES = '/api/matches/|/matches/|/embed/matches/';

/**
 * Share cards (issue 23) of matches, tournaments and players: the route reads their data on every
 * request and draws only what changed (services/share-cards.ts), so dropping them all costs reads, not drawings.
 */
const SHARE_CARDS = '/api/og/';

/** What the statistics show: the leaderboards, the stats API and the home page's top players. */
const STATISTICS = '/(\\?|$)|/leaderboards(/|\\?|$)|/api/stats/';

/**
 * The profiles of players and teams (issue 23), pages and reads: their ratings, streaks, match
 * history and achievements, and their places in tournaments, which a stage's results move whether
 * or not the tournament counts statistics.
 */
const PROFILES = '/players/|/teams/|/api/players/|/api/teams/';

/** Ratings, streaks, match history, achievements and places: everything a counted result changes. */
const RATINGS = `${STATISTICS}|${PROFILES}`;

/**
 * A player's report, confirmation or dispute (issue 22), or the organiser's edit of a match (issue
 * 21). Its path names the match, not its tournament; the tournament event the write publishes once
 * it committed names it, and marks that tournament's pages and reads, the matches and the ratings
 * out of date here as on every other instance (`answersChangedByEvent`, runtime.ts). What the path
 * alone tells is the matches' pages and the cards. A report once marked every tournament's pages:
 * under a final's stream of reports, every guest's tournament page was then rendered again.
 */
const MATCH_WRITE = /^\/api\/matches\/[0-9a-f-]{36}(\/(report|confirm|dispute))?$/i;
const MATCH_WRITTEN = new RegExp(`^(${MATCH_PAGES}|${SHARE_CARDS})`);

/** A team chat's message. */
const CHAT_WRITE = new RegExp(`^/api/${TEAM_CHAT}(/|$)`);

/** The team whose chat a successful write to `writePath` posted to, if it did: that chat is no longer as held (services/held-chats.ts). */
export function chatPostedTo(writePath: string): string | undefined {
  return CHAT_WRITE.test(writePath) ? writePath.split('/')[3] : undefined;
}

/**
 * Whether a successful write to `writePath` may have changed a session or a user, so the sessions
 * the process holds must be forgotten (services/sessions.ts, decision 026). Every write may, but
 * the ones match day sends most: a chat message, a player's report, a saved bracket, a recorded
 * match, a check-in. A sign-out, a new password, a role, a profile: all forget.
 */
export function sessionsChangedBy(writePath: string): boolean {
  return ![CHAT_WRITE, MATCH_WRITE, TOURNAMENT_PLAY, CHECK_IN].some((kind) => kind.test(writePath));
}

/** For the method and path of a successful write: whether a held answer of `path` must be dropped. */
export function answersChangedBy(writePath: string, method: string): (path: string) => boolean {
  if (PRIVATE_WRITE.test(writePath)) return () => false;
  if (MATCH_WRITE.test(writePath)) return (path) => MATCH_WRITTEN.test(path);
  const oneTournament = CHECK_IN.exec(writePath) ?? STAFF.exec(writePath);
  if (oneTournament) {
    const changed = new RegExp(`^(${tournamentPaths((oneTournament[1] ?? '').toLowerCase())})`);
    return (path) => changed.test(path);
  }
  const play = TOURNAMENT_PLAY.exec(writePath);
  if (!play || (play[2] === 'bracket' && method.toUpperCase() !== 'PATCH')) return () => true;
  const [, id = '', action] = play;
  // The sitemap's dates come from tournaments too. A bracket save writes stage matches (read one
  // by one at /api/matches/{id}) and counts their results in the ratings, as a recorded match does;
  // a disqualification's forfeits, a new Swiss round and a schedule change matches, not ratings.
  const rated = action === 'record-match' || action === 'bracket';
  const matches = action === 'record-match' ? '' : `|${MATCH_PAGES}`;
  const changed = new RegExp(`^(${tournamentPaths(id.toLowerCase())}|/sitemap\\.xml|${SHARE_CARDS}${matches}${rated ? `|${RATINGS}` : ''})`);
  return (path) => changed.test(path);
}

/**
 * Whether the other instances must be told of a successful write (`publishWrite` in
 * services/live.ts), to mark their held answers as this one marks its own and forget the sessions
 * it may have changed. Not a write no guest sees, and not one whose route publishes a tournament
 * event that marks there at least what it marks here (`answersChangedByEvent`): a match's, a
 * tournament's play, a check-in, a co-organiser. A private write that may change a session (a
 * sign-out, a language) is told too, so no instance honours a session it held after it (decision 026).
 * Every other write (news, games, profiles, a tournament's details…) is told.
 */
export function othersMustHear(writePath: string): boolean {
  if (PRIVATE_WRITE.test(writePath)) return sessionsChangedBy(writePath);
  return ![MATCH_WRITE, TOURNAMENT_PLAY, CHECK_IN, STAFF].some((kind) => kind.test(writePath));
}

/**
 * For a live event of another instance's write (services/live.ts): the held answers of this
 * instance it made out of date, the same ones that write empties where it happened. A new stage
 * may start the tournament and a status change shows on every list, so both drop everything.
 */
export function answersChangedByEvent(tournamentId: string, kind: string, counted?: boolean): (path: string) => boolean {
  if (kind === 'stage' || kind === 'tournament') return () => true;
  // A result (entered, or a report confirmed: both told as `match`) moves places on the profiles,
  // and the ratings too unless the tournament counts no statistics (`counted` false); a report
  // waiting or disputed changes neither.
  const rated = kind !== 'match' ? '' : counted === false ? `|${PROFILES}` : `|${RATINGS}`;
  const changed = new RegExp(`^(${tournamentPaths(tournamentId.toLowerCase())}|/sitemap\\.xml|${MATCH_PAGES}|${SHARE_CARDS}${rated})`);
  return (path) => changed.test(path);
}
