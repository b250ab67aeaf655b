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

/** The time shown beside a message: characters 11 to 16 of its ISO `createdAt`, HH:MM (SPEC §9). */
export const chatTime = (createdAt: string): string => createdAt.slice(11, 16);
