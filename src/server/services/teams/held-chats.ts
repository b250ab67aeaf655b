// The newest message of each team chat, held between polls (issue 24). Only the store lives here,
// with no database: a message posted forgets its chat (services/teams/chat.ts, and its signal on every
// instance). The chat route reads and holds.
//
// An open team page polls its chat every few seconds, asking for what came after the newest message
// it has; nearly always nothing did. Held, that answer needs no statement, so the polls of a quiet
// chat never reach the database (decision 027).

/** Chats held at most: past it the one held longest goes. */
const HELD_CHATS_MAX = 10_000;

interface Store {
  /** Team id (lower case) → id of its newest message. */
  newest: Map<string, string>;
  /** Team id → the `generation` at which its chat was last forgotten, for the most recently forgotten ones. */
  forgotten: Map<string, number>;
  /** Forgotten at or before this for a team `forgotten` no longer names (evicted, or everything forgotten). */
  floor: number;
  /** Moved by every forgetting. */
  generation: number;
}

const store: Store = { newest: new Map(), forgotten: new Map(), floor: 0, generation: 0 };

/** The newest message of `teamId`'s chat, if it is held. */
export const heldNewest = (teamId: string): string | undefined => store.newest.get(teamId.toLowerCase());

/** A mark to take before reading a chat and give to `holdNewest` after it. */
export const chatReadBegins = (): number => store.generation;

/**
 * Holds `newestId` as `teamId`'s newest message, unless that chat was forgotten since the read
 * that found it `began`: a message posted meanwhile may be newer than what the read saw.
 */
export function holdNewest(teamId: string, newestId: string, began: number): void {
  const team = teamId.toLowerCase();
  if ((store.forgotten.get(team) ?? store.floor) > began) return;
  store.newest.delete(team);
  if (store.newest.size >= HELD_CHATS_MAX) store.newest.delete(store.newest.keys().next().value!);
  store.newest.set(team, newestId);
}

/** Forgets `teamId`'s chat: a message was posted to it, here or on another instance. */
export function forgetChat(teamId: string): void {
  const team = teamId.toLowerCase();
  store.generation += 1;
  store.newest.delete(team);
  store.forgotten.delete(team);
  if (store.forgotten.size >= HELD_CHATS_MAX) {
    const [oldest, at] = store.forgotten.entries().next().value!;
    store.forgotten.delete(oldest);
    store.floor = Math.max(store.floor, at);
  }
  store.forgotten.set(team, store.generation);
}

/** Forgets every chat held: the link to the other instances was lost, so a message may have gone untold. */
export function forgetChats(): void {
  store.generation += 1;
  store.floor = store.generation;
  store.newest.clear();
  store.forgotten.clear();
}
