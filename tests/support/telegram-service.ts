import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Telegram's Bot API on loopback (issue 60): `/bot<token>/<method>` as grammY calls
 * it. It answers getMe (as @arena_test_bot), setWebhook and deleteWebhook, records every call
 * (sendMessage's chat, text and buttons), knows the chats it is told of for getChat and
 * getChatMember, and answers the next sendMessage calls as queued: an error of Telegram's (429 with
 * `retry_after`, 403 blocked, 5xx) or `hang` for one that never answers. `down()` makes it refuse
 * every call as a server that is off would. Updates go the other way: tests POST them to the app's
 * webhook (`update` builds one).
 */
export const BOT_TOKEN = '123456789:TEST-stand-in-token-for-the-telegram-bot';
export const BOT = {
  id: 123456789,
  is_bot: true,
  first_name: 'Кіберарена',
  username: 'arena_test_bot',
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
};

export type TelegramAnswer = { error_code: number; description: string; retry_after?: number } | 'hang';

export interface TelegramCall {
  method: string;
  body: Record<string, unknown>;
  at: number;
  /** Answered with an error (a queued answer): not a message Telegram took. */
  failed?: boolean;
}

export interface SentMessage {
  chatId: string;
  text: string;
  /** The inline buttons' labels and addresses. */
  buttons: { text: string; url: string }[];
  at: number;
}

export interface TelegramStandIn {
  apiRoot: string;
  calls: TelegramCall[];
  /** sendMessage calls Telegram took. */
  sent(): SentMessage[];
  /** How the next sendMessage calls are answered, in order. */
  answer(...answers: TelegramAnswer[]): void;
  /** A chat getChat finds; `botStatus` is what getChatMember says of the bot there. */
  chat(chat: { id: number; username?: string; type?: 'channel' | 'supergroup'; botStatus: 'administrator' | 'member' | 'left'; canPost?: boolean }): void;
  /** Refuses every call (a server that is off) until `up()`. */
  down(): void;
  up(): void;
  close(): Promise<void>;
}

let updateId = 1000;

/** An update of a private message `text` from the Telegram user `chatId`, as Telegram posts it to the webhook. */
export function update(chatId: number, text: string, from: { username?: string; first_name?: string } = {}) {
  updateId += 1;
  const entities = text.startsWith('/') ? [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }] : undefined;
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: 'private', first_name: from.first_name ?? 'Гравець' },
      from: { id: chatId, is_bot: false, first_name: from.first_name ?? 'Гравець', ...(from.username ? { username: from.username } : {}) },
      text,
      ...(entities ? { entities } : {}),
    },
  };
}

export async function startTelegramService(): Promise<TelegramStandIn> {
  const calls: TelegramCall[] = [];
  const queued: TelegramAnswer[] = [];
  const hanging = new Set<ServerResponse>();
  const chats = new Map<string, { id: number; username?: string; type: string; botStatus: string; canPost: boolean }>();
  let off = false;
  let messageId = 1;
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (off) {
        res.destroy();
        return;
      }
      const match = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '');
      if (!match || match[1] !== BOT_TOKEN) return reply(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      const method = match[2]!;
      const text = Buffer.concat(chunks).toString('utf8');
      const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
      const findChat = (key: unknown) => chats.get(String(key)) ?? [...chats.values()].find((c) => `@${c.username}` === key);
      switch (method) {
        case 'getMe':
          calls.push({ method, body, at: Date.now() });
          return reply(res, 200, { ok: true, result: BOT });
        case 'setWebhook':
        case 'deleteWebhook':
          calls.push({ method, body, at: Date.now() });
          return reply(res, 200, { ok: true, result: true });
        case 'getChat': {
          calls.push({ method, body, at: Date.now() });
          const found = findChat(body.chat_id);
          if (!found) return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
          return reply(res, 200, {
            ok: true,
            result: { id: found.id, type: found.type, title: 'Канал', ...(found.username ? { username: found.username } : {}) },
          });
        }
        case 'getChatMember': {
          calls.push({ method, body, at: Date.now() });
          const found = findChat(body.chat_id);
          if (!found) return reply(res, 400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
          const user = BOT;
          const member =
            found.botStatus === 'administrator'
              ? {
                  status: 'administrator',
                  user,
                  can_be_edited: false,
                  is_anonymous: false,
                  can_manage_chat: true,
                  can_delete_messages: true,
                  can_manage_video_chats: false,
                  can_restrict_members: false,
                  can_promote_members: false,
                  can_change_info: false,
                  can_invite_users: false,
                  can_post_messages: found.canPost,
                  can_post_stories: false,
                  can_edit_stories: false,
                  can_delete_stories: false,
                }
              : { status: found.botStatus, user };
          return reply(res, 200, { ok: true, result: member });
        }
        case 'sendMessage': {
          const answer = queued.shift();
          if (answer === 'hang') {
            hanging.add(res);
            return;
          }
          calls.push({ method, body, at: Date.now(), ...(answer ? { failed: true } : {}) });
          if (answer) {
            const { retry_after, ...error } = answer;
            return reply(res, error.error_code, { ok: false, ...error, ...(retry_after !== undefined ? { parameters: { retry_after } } : {}) });
          }
          messageId += 1;
          return reply(res, 200, {
            ok: true,
            result: { message_id: messageId, date: Math.floor(Date.now() / 1000), chat: { id: Number(body.chat_id) || 0, type: 'private' }, text: body.text },
          });
        }
        default:
          calls.push({ method, body, at: Date.now() });
          return reply(res, 200, { ok: true, result: true });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    apiRoot: `http://127.0.0.1:${port}`,
    calls,
    sent: () =>
      calls
        .filter((c) => c.method === 'sendMessage' && !c.failed)
        .map((c) => {
          const markup = c.body.reply_markup as { inline_keyboard?: { text: string; url: string }[][] } | undefined;
          return { chatId: String(c.body.chat_id), text: String(c.body.text), buttons: markup?.inline_keyboard?.flat() ?? [], at: c.at };
        }),
    answer: (...answers) => queued.push(...answers),
    chat: (chat) =>
      chats.set(String(chat.id), {
        id: chat.id,
        ...(chat.username ? { username: chat.username } : {}),
        type: chat.type ?? 'channel',
        botStatus: chat.botStatus,
        canPost: chat.canPost ?? true,
      }),
    down: () => {
      off = true;
    },
    up: () => {
      off = false;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
