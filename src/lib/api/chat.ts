import { z } from 'zod';
import { CHAT_MESSAGE_MAX, chatMessageProblem } from '../domain/chat.ts';
import { t } from '../i18n/index.ts';
import { getIfChanged, type ApiClient } from './client.ts';

/** The author of a chat message; null once the account is gone. */
export const chatAuthorSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  /** Always set: the upload, or a picture generated from the name. */
  avatar: z.string(),
});

/** SPEC §3 Team chat message. The text is plain text: show it as text, never as HTML. */
export const chatMessageSchema = z.object({
  _id: z.string(),
  message: z.string(),
  createdAt: z.string(),
  userId: chatAuthorSchema.nullable(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** POST /team/{teamId}/chat: 1 to 1000 characters once trimmed. */
export const chatInput = z.object({
  message: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const problem = chatMessageProblem(value);
      if (problem === 'empty') ctx.addIssue({ code: 'custom', message: t('chat.messageEmpty') });
      if (problem === 'tooLong') ctx.addIssue({ code: 'custom', message: t('chat.messageTooLong', { max: CHAT_MESSAGE_MAX }) });
      if (problem === 'invalid') ctx.addIssue({ code: 'custom', message: t('chat.messageInvalid') });
    })
    .prefault(''),
});
export type ChatInput = z.infer<typeof chatInput>;

/** GET /team/{teamId}/chat: `after` is an ISO time or the id of the last message the client has. */
export const chatQuery = z.object({ after: z.string().trim().min(1).max(64).optional() });

export interface ChatPage<M = ChatMessage> {
  /** False when the server answered 304: nothing new since `etag`. */
  changed: boolean;
  messages: M[];
  etag: string | null;
}

/**
 * Reads a chat at `path` (the team's, a match's): the latest messages, or only those after `after`.
 * With the ETag of the previous answer for the same `after`, an unchanged chat costs a bodiless 304.
 */
export async function getChatPage<M>(api: ApiClient, path: string, options: { after?: string | null; etag?: string | null } = {}): Promise<ChatPage<M>> {
  const page = await getIfChanged<M[]>(api, path, {
    etag: options.etag ?? null,
    searchParams: options.after ? { after: options.after } : {},
  });
  return page.changed ? { changed: true, messages: page.body, etag: page.etag } : { changed: false, messages: [], etag: page.etag };
}

/** Reads the team chat (`getChatPage`). */
export const getChat = (api: ApiClient, teamId: string, options: { after?: string | null; etag?: string | null } = {}) =>
  getChatPage<ChatMessage>(api, `team/${teamId}/chat`, options);

export const sendChatMessage = (api: ApiClient, teamId: string, body: ChatInput) =>
  api.post(`team/${teamId}/chat`, { json: body }).json<ChatMessage>();
