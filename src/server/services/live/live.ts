/**
 * Live updates (issue 22): what changed, told to whoever watches. A service publishes an event
 * after its transaction committed; the SSE routes (`GET /api/tournaments/{id}/events`,
 * `GET /api/users/me/events`, api/routes/live.ts) subscribe. Events name what changed, never what
 * it is now: a viewer reads the new state through the ordinary (cached, authorised) reads.
 *
 * This module is the one owner of the event names and of the transport between instances
 * (decision 015): every event is delivered to this instance's subscribers at once and sent on a
 * link to the others — PostgreSQL `NOTIFY` on the channel `kiberarena_live` by default, Redis
 * pub/sub when REDIS_URL is set. A notification stored in a transaction signals its reader from
 * inside that transaction (`signalUsers`): PostgreSQL (and PGlite) deliver a NOTIFY only when the
 * transaction commits, so a rolled-back notice never rings a bell.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DatabaseHandle, Tx } from '../../db/client.ts';
import { together } from '../../db/together.ts';
import { changed, type DataTag, EVERYTHING, isDataTag, onChanges, tell, tournamentData, whenTold } from './changes.ts';

/**
 * What changed in a tournament. A `call` (a side called the organisers) changes nothing its public
 * pages show; `room` is a match room's check-in or lobby details (issue 58): its people read the room
 * again, with their token, and guests see its history's new line. `evidence` (a screenshot added)
 * is the room's alone, as a `call` is the organisers': the room reads its list again, nothing public changed.
 */
export const TOURNAMENT_EVENTS = ['match', 'report', 'checkIn', 'stage', 'application', 'tournament', 'call', 'veto', 'room', 'evidence'] as const;
export type TournamentEventKind = (typeof TOURNAMENT_EVENTS)[number];

/**
 * What changed for one user: their bell, their team (roster, applications, chat), or the chat of a
 * match whose room they are in (`matchChat`, with its `matchId`: only that room's page reads again).
 */
export const USER_EVENTS = ['notification', 'team', 'matchChat'] as const;
export type UserEventKind = (typeof USER_EVENTS)[number];

export interface TournamentEvent {
  tournamentId: string;
  kind: TournamentEventKind;
  /** The match concerned, for `match`, `report`, `call`, `veto` and `room`. */
  matchId?: string;
  /** The tournament's competition version after the change, when it has one. */
  version?: number;
  /**
   * For `match`: whether the result counted in the statistics (the tournament counts them). False
   * leaves the leaderboards and the home page's top players as they were; absent, they may have changed.
   */
  counted?: boolean;
  /**
   * The event's own id, the same on every instance: a page reads what the event changed at an
   * address naming it (`isRecentChange`), which every viewer of that event shares, from a cache too.
   */
  change?: string;
}

export interface UserEvent {
  userId: string;
  kind: UserEventKind;
  /** The match whose chat got a message, for `matchChat`. */
  matchId?: string;
}

/** The PostgreSQL channel of the events (an identifier: written into LISTEN as is). */
export const LIVE_CHANNEL = 'kiberarena_live';

/**
 * One event on the wire: `n` is unique per event, so an instance skips what it delivered already
 * (its own events coming back, or one arriving on two links). Users travel in lists, so a notice
 * to a whole team is one message. Ids and kinds only: far under NOTIFY's 8000 bytes.
 */
type Wire =
  // `s`: whether a result counted in the statistics (`counted`), 1 or 0.
  | { n: string; t: string; k: TournamentEventKind; m?: string; v?: number; s?: 0 | 1 }
  // `c`: the team whose chat got a message (`teamChatSignal`), for the chats each instance holds.
  | { n: string; u: string[]; k: UserEventKind; c?: string; m?: string }
  // Data another instance changed (services/live/changes.ts): its tags.
  | { n: string; d: DataTag[] };

/** The most tags one change names (a write names a few); more is junk. */
const MAX_TAGS = 16;

/** Users per message: 150 UUIDs with their quotes and commas stay under 6 KB. */
const USERS_PER_MESSAGE = 150;

/** How many recent event ids an instance remembers to skip repeats; events come back within milliseconds. */
const SEEN_LIMIT = 2000;

/** A way to other instances. */
export interface LiveLink {
  send(text: string): Promise<void>;
  close(): Promise<void>;
}

interface Hub {
  local: EventEmitter;
  seen: Set<string>;
  links: Set<LiveLink>;
}

const hub: Hub = (() => {
  const local = new EventEmitter();
  local.setMaxListeners(0);
  return { local, seen: new Set<string>(), links: new Set<LiveLink>() };
})();

/** Remembers an event id; false when it was seen already. */
function firstSight(n: string): boolean {
  if (hub.seen.has(n)) return false;
  hub.seen.add(n);
  if (hub.seen.size > SEEN_LIMIT) hub.seen.delete(hub.seen.values().next().value!);
  return true;
}

/** The last changes of each tournament this instance heard of (`isRecentChange`): a few per tournament, for the most recent tournaments. */
const recentChanges = new Map<string, string[]>();
const RECENT_CHANGES_PER_TOURNAMENT = 8;
const RECENT_TOURNAMENTS = 1000;

function rememberChange(tournamentId: string, change: string): void {
  const known = recentChanges.get(tournamentId) ?? [];
  recentChanges.delete(tournamentId);
  recentChanges.set(tournamentId, [change, ...known].slice(0, RECENT_CHANGES_PER_TOURNAMENT));
  if (recentChanges.size > RECENT_TOURNAMENTS) recentChanges.delete(recentChanges.keys().next().value!);
}

/**
 * Whether `change` is one of the last events of the tournament this instance heard of: an address
 * naming it may be held for everyone (a made-up one is answered, but held by nobody).
 */
export const isRecentChange = (tournamentId: string, change: string): boolean => recentChanges.get(tournamentId.toLowerCase())?.includes(change) ?? false;

function deliver(wire: Wire): void {
  if ('t' in wire) {
    rememberChange(wire.t.toLowerCase(), wire.n);
    const event: TournamentEvent = {
      tournamentId: wire.t,
      kind: wire.k,
      change: wire.n,
      ...(wire.m ? { matchId: wire.m } : {}),
      ...(wire.v !== undefined ? { version: wire.v } : {}),
      ...(wire.s !== undefined ? { counted: wire.s === 1 } : {}),
    };
    // What the event changed was told before it (`publishTournament`), on the same link.
    hub.local.emit(`t:${wire.t}`, event);
  } else if ('u' in wire) {
    // The held chat goes first, as held answers do: a member who reads again on this event gets the message.
    if (wire.c) hub.local.emit('chat', wire.c);
    for (const userId of wire.u) hub.local.emit(`u:${userId}`, { userId, kind: wire.k, ...(wire.m ? { matchId: wire.m } : {}) } satisfies UserEvent);
  } else {
    tell(new Set(wire.d), false);
  }
}

/** Sends an event of this instance to the others, remembered so that it is skipped when it comes back. */
function sendToOthers(wire: Wire): void {
  firstSight(wire.n);
  const text = JSON.stringify(wire);
  for (const link of hub.links) link.send(text).catch((error: unknown) => console.error('[live] подію не передано:', (error as Error).message));
}

function broadcast(wire: Wire): void {
  // The other instances first: their viewers should not wait while this one's are written to.
  sendToOthers(wire);
  deliver(wire);
}

/**
 * The data a tournament event says changed: the tournament; for a result, what results move across
 * the site (`counted` false: the tournament counts no statistics, but its places still show on
 * profiles); for a new stage or the tournament's own details, what lists of tournaments show.
 */
function dataOf(event: TournamentEvent): DataTag[] {
  if (event.kind === 'call' || event.kind === 'evidence') return [];
  const tags: DataTag[] = [tournamentData(event.tournamentId)];
  if (event.kind === 'match') tags.push('ratings');
  if (event.kind === 'stage' || event.kind === 'tournament' || event.kind === 'application' || event.kind === 'checkIn') tags.push('tournaments');
  return tags;
}

/**
 * `write`, which then publishes the tournament event `eventOf` names for its successful result
 * (none for `null`): a service says next to its write what its viewers hear of it.
 */
export function publishing<Args extends unknown[], Result extends { ok: boolean }>(
  write: (...args: Args) => Promise<Result>,
  eventOf: (result: Extract<Result, { ok: true }>, ...args: Args) => TournamentEvent | null,
): (...args: Args) => Promise<Result> {
  return async (...args) => {
    const result = await write(...args);
    if (result.ok) {
      const event = eventOf(result as Extract<Result, { ok: true }>, ...args);
      if (event) publishTournament(event);
    }
    return result;
  };
}

/**
 * Tells every instance's viewers of the tournament what changed, after the request or sweep that
 * made the change ended (so after its commit), and says what data it changed (`dataOf`).
 */
export function publishTournament(event: TournamentEvent): void {
  changed(...dataOf(event));
  const wire: Wire = { n: randomUUID(), t: event.tournamentId, k: event.kind };
  if (event.matchId) wire.m = event.matchId;
  if (event.version !== undefined) wire.v = event.version;
  if (event.counted !== undefined) wire.s = event.counted ? 1 : 0;
  whenTold(() => broadcast(wire));
}

// What this instance changed reaches the others (it was told here already, services/live/changes.ts).
onChanges((tags, here) => {
  if (here && hub.links.size > 0) sendToOthers({ n: randomUUID(), d: [...tags] });
});

/** Tells a user's open pages (on any instance) that their bell or team changed. Call after commit. */
export function publishUser(event: UserEvent): void {
  broadcast({ n: randomUUID(), u: [event.userId], k: event.kind });
}

/** `publishUser` for many users at once (a whole team; a match room's people, with `matchId`). Call after commit. */
export function publishUsers(userIds: readonly string[], kind: UserEventKind, matchId?: string): void {
  for (let i = 0; i < userIds.length; i += USERS_PER_MESSAGE) {
    broadcast({ n: randomUUID(), u: userIds.slice(i, i + USERS_PER_MESSAGE), k: kind, ...(matchId ? { m: matchId } : {}) });
  }
}

/**
 * `signalUsers` as one SQL expression, for the statement that makes the change itself (`insert …
 * returning …, ${usersSignal(…)}`): a chat message is then stored and told in one round trip, with
 * no transaction around it (teams.ts `teamChatSignal`). `userIds` is a JSON array of at most
 * USERS_PER_MESSAGE ids; `chatOf`, the team whose chat got a message (`onTeamChat`).
 */
export function usersSignal(userIds: SQL, kind: UserEventKind, chatOf?: string): SQL {
  const chat = chatOf === undefined ? sql`` : sql`, 'c', ${chatOf}::text`;
  return sql`pg_notify(${LIVE_CHANNEL}, json_build_object('n', ${randomUUID()}::text, 'u', ${userIds}, 'k', ${kind}::text${chat})::text)`;
}

/**
 * Signals users from inside the transaction that stored something for them (a notification):
 * a NOTIFY, which the database delivers to every instance's listener only if the transaction
 * commits. Needs `connectLive` (the listener) to reach anyone. `stored` are the writes that store
 * what the signal tells: they go in the signal's statement (db/together.ts), one round trip for both.
 */
export async function signalUsers(tx: Tx, userIds: readonly string[], kind: UserEventKind = 'notification', stored: readonly SQLWrapper[] = []): Promise<void> {
  await together(tx, stored, userSignals(userIds, kind));
}

/** `signalUsers`' NOTIFYs as one select list, for a caller that sends them with writes of its own (db/together.ts `then`). */
export function userSignals(userIds: readonly string[], kind: UserEventKind): SQL | undefined {
  const unique = [...new Set(userIds)];
  const notifies = [];
  for (let i = 0; i < unique.length; i += USERS_PER_MESSAGE) {
    const wire: Wire = { n: randomUUID(), u: unique.slice(i, i + USERS_PER_MESSAGE), k: kind };
    notifies.push(sql`pg_notify(${LIVE_CHANNEL}, ${JSON.stringify(wire)})`);
  }
  // One statement however many messages, so a large stage's notices cost what a small one's do.
  return notifies.length > 0 ? sql.join(notifies, sql`, `) : undefined;
}

const isUuidLike = (value: unknown): value is string => typeof value === 'string' && value.length <= 64;

/** An event that came over a link: checked (anyone able to NOTIFY could send junk), then delivered once. */
export function receive(text: string): void {
  let wire: Wire;
  try {
    wire = JSON.parse(text) as Wire;
  } catch {
    return;
  }
  if (!wire || typeof wire !== 'object' || !isUuidLike(wire.n)) return;
  if ('t' in wire) {
    if (!isUuidLike(wire.t) || !(TOURNAMENT_EVENTS as readonly string[]).includes(wire.k)) return;
    if ('s' in wire && wire.s !== 0 && wire.s !== 1) return;
  } else if ('u' in wire) {
    if (!Array.isArray(wire.u) || !wire.u.every(isUuidLike) || !(USER_EVENTS as readonly string[]).includes(wire.k)) return;
    if ('c' in wire && !isUuidLike(wire.c)) return;
    if ('m' in wire && !isUuidLike(wire.m)) return;
  } else if (!Array.isArray(wire.d) || wire.d.length > MAX_TAGS || !wire.d.every(isDataTag)) {
    return;
  }
  if (!firstSight(wire.n)) return;
  deliver(wire);
}

export function subscribeTournament(tournamentId: string, listener: (event: TournamentEvent) => void): () => void {
  hub.local.on(`t:${tournamentId}`, listener);
  return () => hub.local.off(`t:${tournamentId}`, listener);
}

export function subscribeUser(userId: string, listener: (event: UserEvent) => void): () => void {
  hub.local.on(`u:${userId}`, listener);
  return () => hub.local.off(`u:${userId}`, listener);
}

/** Hears every message posted to a team chat, on any instance (to forget the chat this instance holds). */
export function onTeamChat(listener: (teamId: string) => void): () => void {
  hub.local.on('chat', listener);
  return () => hub.local.off('chat', listener);
}

/**
 * Hears a link coming back after an outage (events meanwhile may be lost: open pages should read
 * again), and the server shutting down (`closeStreams`: streams end so the process can exit).
 */
export function onLiveSignal(signal: 'resync' | 'shutdown', listener: () => void): () => void {
  hub.local.on(signal, listener);
  return () => hub.local.off(signal, listener);
}

/** Ends every open stream of this process (server shutdown). */
export function closeStreams(): void {
  hub.local.emit('shutdown');
}

/**
 * A link came back after an outage: changes meanwhile may be lost, so everything held may be out of
 * date, and the open streams (and the caller's hooks) read again.
 */
function resync(): void {
  tell(new Set([EVERYTHING]), false);
  hub.local.emit('resync');
}

/** Events in one NOTIFY statement at most (each well under 8000 bytes, so the statement stays small). */
const NOTIFIES_PER_STATEMENT = 50;

/**
 * The link over PostgreSQL NOTIFY. The events published in one turn of the loop go in one
 * statement (`select pg_notify(…), pg_notify(…)`): under load several writes finish in the same
 * turn, and a statement is a round trip and a system call each way. The
 * statements go one after another, so the other instances hear this one's events in the order
 * published, each as a notification of its own.
 */
function notifyLink(database: DatabaseHandle): LiveLink {
  let queued: { text: string; done: () => void; failed: (error: unknown) => void }[] = [];
  /** Sent in turn: on two connections of the pool a later statement could be heard first. */
  let sending = Promise.resolve();
  const send = async (part: typeof queued) => {
    await database.db.execute(sql`select ${sql.join(part.map((q) => sql`pg_notify(${LIVE_CHANNEL}, ${q.text})`), sql`, `)}`).then(
      () => part.forEach((q) => q.done()),
      (error: unknown) => part.forEach((q) => q.failed(error)),
    );
  };
  const flush = () => {
    const batch = queued;
    queued = [];
    for (let i = 0; i < batch.length; i += NOTIFIES_PER_STATEMENT) {
      const part = batch.slice(i, i + NOTIFIES_PER_STATEMENT);
      sending = sending.then(() => send(part));
    }
  };
  return {
    send: (text) =>
      new Promise<void>((done, failed) => {
        if (queued.length === 0) setImmediate(flush);
        queued.push({ text, done, failed });
      }),
    close: async () => {},
  };
}

export interface LiveOptions {
  database: DatabaseHandle;
  /** Redis pub/sub carries the published events (REDIS_URL); otherwise PostgreSQL NOTIFY does. */
  redisUrl?: string | undefined;
}

/**
 * Connects this process to the others: listens on the database channel (it always carries the
 * signals stored notices send from their transactions) and, with `redisUrl`, on Redis, which then
 * carries the published events. Both reconnect by themselves after an outage and then `resync`.
 * Returns the function that disconnects.
 */
export async function connectLive({ database, redisUrl }: LiveOptions): Promise<() => Promise<void>> {
  const stopListening = await database.listen(LIVE_CHANNEL, receive, resync);
  // One process owns an embedded database: its events are delivered here as they are published,
  // and a NOTIFY sent into PGlite would only come back to be skipped. Its listener stays, for the
  // signals notices send from their transactions.
  let link: LiveLink | null = null;
  if (redisUrl && database.kind !== 'pglite') {
    const { redisLink } = await import('./live-redis.ts');
    link = await redisLink(redisUrl, receive, resync);
  } else if (database.kind !== 'pglite') {
    link = notifyLink(database);
  }
  if (link) hub.links.add(link);
  return async () => {
    if (link) hub.links.delete(link);
    await Promise.allSettled([link?.close(), stopListening()]);
  };
}
