import { z } from '@hono/zod-openapi';
import { chatInput, chatMessageSchema, chatQuery } from '../../../lib/api/chat.ts';
import { type GuardedVars, pathGuard } from '../context.ts';
import { fail, failTooMany } from '../errors.ts';
import type { ChatMessage } from '../../../lib/api/chat.ts';
import { CHAT_LIMIT, chatEtag, chatHistory, chatPoll, matchesEtag, parseCursor, postMessage } from '../../services/teams/chat.ts';
import { chatReadBegins, heldNewest, holdNewest } from '../../services/teams/held-chats.ts';
import { membership } from '../../services/teams/teams.ts';
import { errors, jsonBody, jsonResponse, router, userRoute } from '../openapi.ts';

const tags = ['Команди'];
const teamIdParam = z.object({ teamId: z.uuid() });

/** Whether the caller's session names the team among theirs (decision 026): a member, with no read. */
const memberBySession = (auth: GuardedVars['auth'], teamId: string) => auth.teamIds.includes(teamId.toLowerCase());

/**
 * The caller is a member of an existing team: 404 for no team, 403 for anyone else. A member is
 * known from the session's teams (no read); anyone else is told which refusal it is by one.
 */
async function requireMember({ db, auth }: GuardedVars, teamId: string): Promise<void> {
  if (memberBySession(auth, teamId)) return;
  const standing = await membership(db, teamId, auth.user.id);
  if (standing === 'noTeam') fail(404, 'team.notFound');
  if (standing === 'outsider') fail(403, 'team.membersOnly');
}

const membersOnly = pathGuard('teamId', requireMember);

export const teamChatRoutes = router()
  .openapi(
    userRoute({
      method: 'get',
      path: '/{teamId}/chat',
      tags,
      summary:
        'Командний чат (лише учасники), від старих до нових. Без after — останні 100 повідомлень; ' +
        'after=<id повідомлення або час ISO 8601> — лише новіші за нього. Кожна відповідь має ETag; ' +
        'із If-None-Match того самого запиту відповідь 304 без тіла, доки не з’явиться нове повідомлення',
      request: { params: teamIdParam, query: chatQuery },
      responses: {
        200: jsonResponse(z.array(chatMessageSchema), 'Повідомлення'),
        304: { description: 'Нових повідомлень немає (ETag збігся)' },
        ...errors(400, 401, 403, 404),
      },
    }),
    async (c) => {
      const { teamId } = c.req.valid('param');
      const { after } = c.req.valid('query');
      const { user } = c.var.auth;
      const db = c.get('db');
      const cursor = after === undefined ? null : parseCursor(after);
      const answer = async (newestId: string | null, messages: () => ChatMessage[] | Promise<ChatMessage[]>) => {
        const etag = chatEtag(newestId, after);
        c.header('ETag', etag);
        c.header('Cache-Control', 'private, no-cache');
        if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304);
        return c.json(await messages(), 200);
      };
      // A member asking after the chat's newest message, as every open chat does between messages:
      // nothing came after it, and the held chat says so with no statement (services/teams/held-chats.ts).
      if (cursor?.kind === 'message' && memberBySession(c.var.auth, teamId) && heldNewest(teamId) === cursor.id) return answer(cursor.id, () => []);
      const began = chatReadBegins();
      // One round trip before a 304: the team, the reader's membership, the newest message and the
      // cursor's; after a message cursor (every poll but a chat's first), the new messages too.
      const poll = await chatPoll(db, teamId, user.id, cursor?.kind === 'message' ? cursor.id : null);
      if (!poll) fail(404, 'team.notFound');
      if (!poll.member) fail(403, 'team.membersOnly');
      if (poll.newestId) holdNewest(teamId, poll.newestId, began);
      if ((after !== undefined && !cursor) || !poll.cursorKnown) fail(400, 'chat.badCursor');
      return answer(poll.newestId, () => poll.after ?? chatHistory(db, teamId, cursor));
    },
  )
  .openapi(
    userRoute(
      {
        method: 'post',
        path: '/{teamId}/chat',
        tags,
        summary: 'Надіслати повідомлення в командний чат (лише учасники; 1–1000 символів після обрізання пробілів; зберігається як текст)',
        request: { params: teamIdParam, body: jsonBody(chatInput) },
        responses: { 201: jsonResponse(chatMessageSchema, 'Повідомлення надіслано'), ...errors(400, 401, 403, 404, 415, 429) },
      },
      membersOnly,
    ),
    async (c) => {
      const { teamId } = c.req.valid('param');
      const { message } = c.req.valid('json');
      // `membersOnly` above already let only a member of this team through (before the body was read).
      const { user } = c.var.auth;
      const db = c.get('db');
      const state = await c.get('deps').limits.hit(`chat:user:${user.id}`, CHAT_LIMIT);
      if (!state.allowed) failTooMany('chat.tooMany', state.retryAfter);
      return c.json(await postMessage(db, teamId, user, message), 201);
    },
  );
