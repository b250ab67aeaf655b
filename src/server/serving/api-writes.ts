// What a successful write through the API does besides its answer (decision 019): src/middleware.ts
// calls it after every API write that succeeded.
import { isWriteMethod, publishWrite, type WriteMethod } from '../services/live.ts';
import { isApiPath } from './refusals.ts';
import { publicAnswers, WROTE_COOKIE, WROTE_COOKIE_SECONDS } from './response-cache.ts';
import { answersChangedBy, chatPostedTo, othersMustHear, sessionsChangedBy } from './write-effects.ts';
import { forgetChat } from '../services/held-chats.ts';
import { forgetHeldSessions } from '../services/held-sessions.ts';

/** A request that may change what the API holds: any method but a read, to /api. */
export const isApiWrite = (method: string | undefined, path: string): method is WriteMethod => isWriteMethod(method) && isApiPath(path);

/** Set by a successful write: its writer's next pages skip copies the write made out of date, and show what was just written. */
export const WROTE_SET_COOKIE = `${WROTE_COOKIE}=1; Max-Age=${WROTE_COOKIE_SECONDS}; Path=/; SameSite=Lax; HttpOnly`;

/**
 * Forgets what this process holds that a successful write to `path` may have changed: every session
 * if it may have changed one (decision 026), and the chat it posted to. The other instances hear of
 * the first from `publishWrite` and of the second from the message's own signal (services/live.ts
 * `onTeamChat`).
 */
export function forgetHeldBy(path: string): void {
  if (sessionsChangedBy(path)) forgetHeldSessions();
  const chat = chatPostedTo(path);
  if (chat) forgetChat(chat);
}

/**
 * After a successful write to `path` (no query): this instance's held answers it made out of date
 * are marked, the sessions held forgotten if it may have changed one, and the other instances are told to mark theirs, so a held answer may live long
 * (PUBLIC_ANSWER_TTL_MS). The writer's cookie is the caller's to set, on the answer it sends.
 */
export function afterApiWrite(path: string, method: WriteMethod): void {
  publicAnswers.markStale(answersChangedBy(path, method));
  forgetHeldBy(path);
  if (othersMustHear(path)) publishWrite(path, method);
}
