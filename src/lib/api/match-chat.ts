/**
 * A match's chat (issue 58): `GET/POST /api/matches/{id}/chat`, for the people of its two sides
 * and the tournament's organisers. The input, its limits and the `after` cursor are the team
 * chat's (chat.ts); a message also says as whom it was written.
 */
import { z } from 'zod';
import { SLOTS } from '../domain/stage/format.ts';
import { chatAuthorSchema, chatMessageSchema, getChatPage, type ChatInput } from './chat.ts';
import type { ApiClient } from './client.ts';

/** As whom a message was written: for side a or b, or as an organiser of neither side. */
export const MATCH_CHAT_ROLES = [...SLOTS, 'organiser'] as const;
export type MatchChatRole = (typeof MATCH_CHAT_ROLES)[number];

/**
 * A message of a match's chat. Its author without an email: the other side and the organisers
 * read it, who are not the author's teammates. The text is plain text: show it as text.
 */
export const matchChatMessageSchema = chatMessageSchema.extend({
  userId: chatAuthorSchema.omit({ email: true }).nullable(),
  as: z.enum(MATCH_CHAT_ROLES),
});
export type MatchChatMessage = z.infer<typeof matchChatMessageSchema>;

/** Reads the match's chat (`getChatPage`): the latest messages, or those after `after`; 304 while unchanged since `etag`. */
export const getMatchChat = (api: ApiClient, matchId: string, options: { after?: string | null; etag?: string | null } = {}) =>
  getChatPage<MatchChatMessage>(api, `matches/${matchId}/chat`, options);

export const sendMatchChatMessage = (api: ApiClient, matchId: string, body: ChatInput) =>
  api.post(`matches/${matchId}/chat`, { json: body }).json<MatchChatMessage>();
