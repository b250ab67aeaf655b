import { createHash } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import type { ShareCardKind } from '../../../lib/domain/share-card.ts';
import { displayRating, rankOf, rankTitleKey } from '../../../lib/domain/rank.ts';
import { scoreText } from '../../../lib/domain/match-report.ts';
import { statusLabelKey } from '../../../lib/domain/tournament-status.ts';
import { formatDate, formatDateTime, formatNumber } from '../../../lib/i18n/format.ts';
import { plural, translate, type Locale } from '../../../lib/i18n/index.ts';
import type { Tx } from '../../db/client.ts';
import { games, playerGameStats, users } from '../../db/schema/index.ts';
import { findNews } from './news.ts';
import { drawShareCard, SHARE_CARD_DRAWING, type ShareCardContent } from './share-card-picture.ts';
import { findMatch } from '../competition/stages/match-state.ts';
import { findLobby } from '../competition/stages/lobby-state.ts';
import { teamsOf } from '../teams/teams.ts';
import { getTournament, shownToPublic } from '../competition/tournaments.ts';
import { readOrganisation } from '../organisations/organisations.ts';


/** Why a card cannot be drawn: the catalog key of the 404 for each kind. */
export const SHARE_CARD_MISSING = {
  tournament: 'tournament.notFound',
  match: 'matchPage.notFound',
  news: 'news.notFound',
  player: 'matchHistory.playerNotFound',
  organisation: 'organisation.notFound',
} as const satisfies Record<ShareCardKind, string>;

type Words = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) => string;

async function tournamentCard(db: Tx, id: string, say: Words, locale: Locale): Promise<Omit<ShareCardContent, 'site'> | null> {
  const tournament = await getTournament(db, id);
  if (!tournament || !(await shownToPublic(db, id))) return null;
  return {
    kind: 'tournament',
    label: say('share.kind.tournament'),
    eyebrow: tournament.gameName,
    title: tournament.title,
    versus: null,
    highlight: tournament.winner?.name ? say('share.champion', { name: tournament.winner.name }) : say(statusLabelKey(tournament.status)),
    details: [formatDate(tournament.date, { locale })],
  };
}

async function matchCard(db: Tx, id: string, say: Words, locale: Locale): Promise<Omit<ShareCardContent, 'site'> | null> {
  const found = await findMatch(db, id);
  // A free-for-all lobby's id is the match id its games are entered under: its card is a match's.
  if (!found) return lobbyCard(db, id, say, locale);
  if (!(await shownToPublic(db, found.tournament._id))) return null;
  const { match, participants, tournament } = found;
  const names = new Map(participants.map((p) => [p._id, p.name]));
  const side = (participant: string | null) =>
    participant ? (names.get(participant) ?? say('bracket.unknownParticipant')) : match.bye ? say('bracket.bye') : say('matchPage.tbd');
  const when = match.completedAt ?? match.scheduledAt;
  return {
    kind: 'match',
    label: say('share.kind.match'),
    eyebrow: tournament.title,
    title: '',
    versus: { a: side(match.a), b: side(match.b), score: scoreText(match) },
    highlight: say(`bracket.state.${match.status}`),
    details: when ? [formatDateTime(when, { locale })] : [],
  };
}

/** How many of a lobby's table its card lists: its leaders. */
const LOBBY_CARD_ROWS = 3;

/** A free-for-all lobby (issue 59): its tournament, «Лобі 2 · Раунд 1» or the final, how far its games are, and the top of its table. */
async function lobbyCard(db: Tx, id: string, say: Words, locale: Locale): Promise<Omit<ShareCardContent, 'site'> | null> {
  const found = await findLobby(db, id);
  if (!found || !(await shownToPublic(db, found.tournament._id))) return null;
  const { lobby, stage, participants } = found;
  const names = new Map(participants.map((p) => [p._id, p.name]));
  const played = lobby.games.length;
  return {
    kind: 'match',
    label: say('share.kind.lobby'),
    eyebrow: found.tournament.title,
    title: stage.final ? say('stages.ffa.final') : say('stages.ffa.lobbyInRound', { number: lobby.number, round: stage.round }),
    versus: null,
    highlight: lobby.complete ? say('stages.ffa.done') : say('stages.ffa.gamesPlayed', { played, games: stage.games }),
    // Before a game the order is the seeds', not a standing: the card names nobody's place.
    details:
      played === 0
        ? []
        : lobby.table.slice(0, LOBBY_CARD_ROWS).map((row) =>
            say('share.lobbyRow', { rank: row.rank, name: names.get(row.participant) ?? say('bracket.unknownParticipant'), points: formatNumber(row.points, { locale }) }),
          ),
  };
}

async function newsCard(db: Tx, id: string, say: Words, locale: Locale): Promise<Omit<ShareCardContent, 'site'> | null> {
  const item = await findNews(db, id);
  if (!item) return null;
  return { kind: 'news', label: say('share.kind.news'), eyebrow: null, title: item.title, versus: null, highlight: formatDate(item.date, { locale }), details: [] };
}

async function playerCard(db: Tx, id: string, say: Words): Promise<Omit<ShareCardContent, 'site'> | null> {
  const [user] = await db.select({ username: users.username }).from(users).where(eq(users.id, id));
  if (!user) return null;
  const [[best], teams] = await Promise.all([
    db
      .select({ rating: playerGameStats.rating, game: games.name })
      .from(playerGameStats)
      .innerJoin(games, eq(games.id, playerGameStats.gameId))
      .where(eq(playerGameStats.userId, id))
      .orderBy(desc(playerGameStats.rating), desc(playerGameStats.matchesPlayed))
      .limit(1),
    teamsOf(db, id),
  ]);
  const rating = best ? say('share.bestRating', { rating: displayRating(best.rating), rank: say(rankTitleKey(rankOf(best.rating))) }) : say('share.noRating');
  return {
    kind: 'player',
    label: say('share.kind.player'),
    eyebrow: best ? say('share.ratingGame', { game: best.game }) : null,
    title: user.username,
    versus: null,
    highlight: rating,
    details: [teams.length > 0 ? say('share.teams', { names: teams.map((team) => team.name).join(', ') }) : say('share.noTeams')],
  };
}

async function organisationCard(db: Tx, id: string, say: Words, locale: Locale): Promise<Omit<ShareCardContent, 'site'> | null> {
  const organisation = await readOrganisation(db, id, null);
  if (!organisation) return null;
  return {
    kind: 'organisation',
    label: say('share.kind.organisation'),
    eyebrow: organisation.verified ? say('share.organisationVerified') : null,
    title: organisation.name,
    versus: null,
    highlight: plural(locale, 'count.followers', organisation.followers),
    details: organisation.description ? [organisation.description.split('\n')[0]!.slice(0, 120)] : [],
  };
}

/** What the card of `kind` `id` says in `locale`, or null when there is no such thing. */
export async function shareCardContent(db: Tx, kind: ShareCardKind, id: string, locale: Locale, site: string): Promise<ShareCardContent | null> {
  const say: Words = (key, params) => translate(locale, key, params);
  const content =
    kind === 'tournament'
      ? await tournamentCard(db, id, say, locale)
      : kind === 'match'
        ? await matchCard(db, id, say, locale)
        : kind === 'news'
          ? await newsCard(db, id, say, locale)
          : kind === 'organisation'
            ? await organisationCard(db, id, say, locale)
            : await playerCard(db, id, say);
  return content && { ...content, site };
}

/** A digest of everything a card draws (and of the drawing's own version): equal digests, equal pictures. */
export const shareCardDigest = (content: ShareCardContent): string =>
  createHash('sha256').update(`${SHARE_CARD_DRAWING}\n${JSON.stringify(content)}`).digest('base64url').slice(0, 27);

/** How many pictures are held at most, and how many bytes in all (a card is 140–180 KB). */
export const MAX_HELD_CARDS = 100;
export const MAX_HELD_CARD_BYTES = 16 * 1024 * 1024;

/**
 * Drawn cards by key (kind, id, language, digest), least recently used first, and the drawings
 * under way. A card is CPU work (0.1–1 s on two busy cores, the first of a process ≈2–3 s while the layout
 * engine and fonts load): a burst of crawlers asking for one new card draws it once, and a card
 * in steady demand is drawn once per change of what it says.
 */
const held = new Map<string, Uint8Array<ArrayBuffer>>();
const drawing = new Map<string, Promise<Uint8Array<ArrayBuffer>>>();
/** The key held for each card and language, so a card whose words changed lets its old picture go at once. */
const current = new Map<string, string>();
let heldBytes = 0;
let drawn = 0;

function forget(key: string): void {
  const bytes = held.get(key);
  if (!bytes) return;
  heldBytes -= bytes.byteLength;
  held.delete(key);
}

function hold(card: string, key: string, png: Uint8Array<ArrayBuffer>): void {
  const previous = current.get(card);
  if (previous && previous !== key) forget(previous);
  current.set(card, key);
  forget(key);
  held.set(key, png);
  heldBytes += png.byteLength;
  for (const oldest of held.keys()) {
    if (held.size <= MAX_HELD_CARDS && heldBytes <= MAX_HELD_CARD_BYTES) break;
    forget(oldest);
  }
  // `current` only names what may still be held; it is trimmed with it.
  if (current.size > MAX_HELD_CARDS * 2) for (const [name, value] of current) if (!held.has(value)) current.delete(name);
}

/**
 * Drawings run one at a time, in order of arrival, and at most MAX_WAITING_DRAWINGS wait: a card
 * is 0.1–1 s of CPU, mostly on the event loop, and ids are public, so a flood of distinct cards
 * would otherwise stall every other request. Past the queue the caller is refused (ShareCardsBusy).
 */
export const MAX_WAITING_DRAWINGS = 8;
let running = false;
const waiting: (() => void)[] = [];

/** The drawing queue is full: answered 503 with Retry-After, and nothing is held. */
export class ShareCardsBusy extends Error {
  constructor() {
    super('share card drawings queue full');
    this.name = 'ShareCardsBusy';
  }
}

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running) {
    if (waiting.length >= MAX_WAITING_DRAWINGS) throw new ShareCardsBusy();
    // The finishing drawing hands its turn straight to the next in line.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  running = true;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running = false;
  }
}

/**
 * The PNG of a card already held or being drawn (shared), without drawing anything: undefined
 * when asking for it would cost a drawing (what the route's rate limit counts).
 */
export function readyShareCardPicture(kind: ShareCardKind, id: string, locale: Locale, digest: string): Promise<Uint8Array<ArrayBuffer>> | undefined {
  const key = `${kind}/${id}/${locale}/${digest}`;
  const found = held.get(key);
  if (found) {
    // Used again: to the back of the least-recently-used order.
    held.delete(key);
    held.set(key, found);
    return Promise.resolve(found);
  }
  return drawing.get(key);
}

/**
 * The PNG of a card whose content is `content` (its digest `digest`): held, being drawn (shared),
 * or drawn in its turn and held. Throws ShareCardsBusy when too many drawings already wait.
 */
export async function shareCardPicture(kind: ShareCardKind, id: string, locale: Locale, content: ShareCardContent, digest: string): Promise<Uint8Array<ArrayBuffer>> {
  const ready = readyShareCardPicture(kind, id, locale, digest);
  if (ready) return ready;
  const card = `${kind}/${id}/${locale}`;
  const key = `${card}/${digest}`;
  // Refused before it is registered: a refused card leaves nothing behind.
  if (running && waiting.length >= MAX_WAITING_DRAWINGS) throw new ShareCardsBusy();
  const pending = inTurn(async () => {
    drawn++;
    const png = await drawShareCard(content);
    hold(card, key, png);
    return png;
  });
  drawing.set(key, pending);
  void pending.finally(() => drawing.delete(key)).catch(() => {});
  return pending;
}

/** What the picture cache holds and how many cards were drawn, for tests. */
export const shareCardStats = () => ({ drawn, held: held.size, bytes: heldBytes, drawing: drawing.size, waiting: waiting.length });
