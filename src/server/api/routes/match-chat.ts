import { z } from '@hono/zod-openapi';
import { chatInput, chatQuery } from '../../../lib/api/chat.ts';
import { matchChatMessageSchema } from '../../../lib/api/match-chat.ts';
import { matchChatHistory, matchChatPoll, postMatchMessage, type RoomMember } from '../../services/match-room/chat.ts';
import { roomPerson } from '../../services/match-room/people.ts';
import { CHAT_LIMIT, chatEtag, matchesEtag, parseCursor } from '../../services/teams/chat.ts';
import { type GuardedVars, pathGuard } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';

const params = z.object({ id: z.uuid() });
const tags = ['Кімната матчу'];

/** The caller is a person of the match's room (a side's, or an organiser): 404 for no match, 403 for anyone else. */
async function requireRoomPerson({ db, auth }: GuardedVars, matchId: string): Promise<RoomMember> {
  const person = await roomPerson(db, matchId, auth.user);
  if (!person.ok) fail(person.reason === 'notFound' ? 404 : 403, person.reason === 'notFound' ? 'match.notFound' : 'matchChat.outsider');
  return person;
}

/** Before the query or the body is read: the caller's place in the room becomes `c.var.room`. */
const roomOnly = pathGuard('id', 'room', requireRoomPerson);

/** Mounted at /matches: a match's chat (issue 58), for its two sides and the tournament's organisers. */
export const matchChatRoutes = router()
  .openapi(
    userRoute(
      {
        method: 'get',
        path: '/{id}/chat',
        tags,
        summary:
          'Чат матчу — лише для гравців (учасників команд) обох сторін і організаторів турніру, від старих до нових; кожне повідомлення каже, ' +
          'від якої сторони (a чи b) воно чи від організатора. Без after — останні 100; after=<id повідомлення або час ISO 8601> — лише новіші. ' +
          'Кожна відповідь має ETag; із If-None-Match того самого запиту — 304 без тіла, доки немає нового повідомлення',
        request: { params, query: chatQuery },
        responses: {
          200: jsonResponse(z.array(matchChatMessageSchema), 'Повідомлення'),
          304: { description: 'Нових повідомлень немає (ETag збігся)' },
          ...errors(400, 401, 403, 404),
        },
      },
      roomOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { after } = c.req.valid('query');
      const db = c.get('db');
      const cursor = after === undefined ? null : parseCursor(after);
      if (after !== undefined && !cursor) fail(400, 'chat.badCursor');
      const poll = await matchChatPoll(db, id, cursor?.kind === 'message' ? cursor.id : null);
      if (!poll.cursorKnown) fail(400, 'chat.badCursor');
      const etag = chatEtag(poll.newestId, after);
      c.header('ETag', etag);
      c.header('Cache-Control', 'private, no-cache');
      if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
      return c.json(await matchChatHistory(db, id, cursor), 200);
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{id}/chat',
        tags,
        summary:
          'Написати в чат матчу (лише гравці обох сторін і організатори; 1–1000 символів після обрізання пробілів; зберігається як текст). ' +
          'Повідомлення організатора, що не грає за жодну сторону, відповідає на виклик організаторів: матч зникає з викликів пульта',
        request: { params, body: jsonBody(chatInput) },
        responses: { 201: jsonResponse(matchChatMessageSchema, 'Повідомлення надіслано'), ...errors(400, 401, 403, 404, 415, 429) },
      },
      roomOnly,
    ),
    async (c) => {
      const { id } = c.req.valid('param');
      const { message } = c.req.valid('json');
      const { user } = c.var.auth;
      // One budget of messages per player across the team and match chats.
      const state = await c.get('deps').limits.hit(`chat:user:${user.id}`, CHAT_LIMIT);
      if (!state.allowed) failTooMany('chat.tooMany', state.retryAfter);
      const done = await postMatchMessage(c.get('db'), id, c.var.room, user, message);
      return c.json(done.message, 201);
    },
  );
