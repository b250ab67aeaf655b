import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/lib/api/chat.ts';
import type { TeamMessage } from '../../src/lib/api/teams.ts';
import { CHAT_LIMIT } from '../../src/server/services/teams/chat.ts';
import { useTestApi, type Player } from '../support/builders.ts';
import { forgetHeldSessions } from '../../src/server/services/accounts/held-sessions.ts';

const api = useTestApi();
let captain: Player;
let member: Player;
let stranger: Player;
let teamId: string;
let otherTeamId: string;
let chat: string;

beforeAll(async () => {
  captain = await api.signedIn();
  member = await api.signedIn();
  stranger = await api.signedIn();
  const team = await api.call<TeamMessage>('POST', '/api/teams', { token: captain.token, body: { name: 'Чатова команда' } });
  teamId = team.body.team._id;
  chat = `/api/team/${teamId}/chat`;
  await api.call('POST', `/api/teams/${teamId}/invite`, { token: captain.token, body: { query: member.user.username } });
  await api.call('POST', `/api/teams/${teamId}/accept-invite`, { token: member.token });
  const other = await api.call<TeamMessage>('POST', '/api/teams', { token: stranger.token, body: { name: 'Чужа команда' } });
  otherTeamId = other.body.team._id;
});

const send = (who: Player, message: unknown, path = chat) => api.call<ChatMessage>('POST', path, { token: who.token, body: { message } });
const read = (who: Player, query = '', headers: Record<string, string> = {}) =>
  api.call<ChatMessage[]>('GET', `${chat}${query}`, { token: who.token, headers });

describe('team chat', () => {
  it('starts empty', async () => {
    const res = await read(captain);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('lets members write; messages are trimmed and carry their author', async () => {
    const res = await send(captain, '  Привіт, команда!  ');
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      message: 'Привіт, команда!',
      userId: { _id: captain.user.id, username: captain.user.username, email: captain.user.email, avatar: `/api/avatar/${captain.user.id}` },
    });
    expect(res.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    const reply = await send(member, 'Привіт!');
    expect(reply.status).toBe(201);
    const history = await read(member);
    expect(history.body.map((m) => [m.message, m.userId?.username])).toEqual([
      ['Привіт, команда!', captain.user.username],
      ['Привіт!', member.user.username],
    ]);
  });

  it('refuses empty, whitespace-only and too long messages', async () => {
    for (const message of ['', '   ', '\n\t ', undefined]) {
      const res = await send(captain, message);
      expect(res.status).toBe(400);
      expect((res.body as unknown as { message: string }).message).toBe('Повідомлення не може бути порожнім');
    }
    const long = await send(captain, 'я'.repeat(1001));
    expect(long.status).toBe(400);
    expect((long.body as unknown as { message: string }).message).toBe('Повідомлення задовге (не більше 1000 символів)');
    expect((await send(captain, 42)).status).toBe(400);
    expect((await send(captain, 'nul\u0000')).status).toBe(400);
    const longest = await send(captain, ` ${'я'.repeat(1000)} `);
    expect(longest.status).toBe(201);
    expect(longest.body.message).toHaveLength(1000);
  });

  it('keeps HTML as plain text and gives it back unchanged, as JSON', async () => {
    const xss = '<img src=x onerror=alert(1)>';
    const res = await send(member, xss);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe(xss);
    const history = await read(captain);
    expect(history.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(history.headers.get('x-content-type-options')).toBe('nosniff');
    expect(history.body.at(-1)?.message).toBe(xss);
  });

  it('is closed to players outside the team (403), guests (401), and unknown or malformed teams', async () => {
    const closed = await read(stranger);
    expect(closed.status).toBe(403);
    expect((closed.body as unknown as { message: string }).message).toBe('Доступно лише учасникам команди');
    expect((await send(stranger, 'я тут чужий')).status).toBe(403);
    // Membership is checked before the body: a stranger hears 403, not a 400 about the message.
    expect((await api.call('POST', chat, { token: stranger.token, body: { message: '' } })).status).toBe(403);
    expect((await api.call('GET', chat)).status).toBe(401);
    expect((await api.call('POST', chat, { body: { message: 'гість' } })).status).toBe(401);
    expect((await api.call('GET', '/api/team/123/chat', { token: captain.token })).status).toBe(400);
    const unknown = await api.call('GET', `/api/team/${crypto.randomUUID()}/chat`, { token: captain.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Команду не знайдено');
    // A member of one team does not read another's chat.
    expect((await api.call('GET', `/api/team/${otherTeamId}/chat`, { token: captain.token })).status).toBe(403);
    const history = await read(captain);
    expect(history.body.map((m) => m.message)).not.toContain('я тут чужий');
  });

  it('stops a removed member from reading on', async () => {
    const leaver = await api.signedIn();
    await api.call('POST', `/api/teams/${teamId}/invite`, { token: captain.token, body: { query: leaver.user.username } });
    await api.call('POST', `/api/teams/${teamId}/accept-invite`, { token: leaver.token });
    expect((await read(leaver)).status).toBe(200);
    await api.call('DELETE', `/api/teams/${teamId}/members/${leaver.user.id}`, { token: captain.token });
    expect((await read(leaver)).status).toBe(403);
  });

  it('knows a member who writes from their session, with no read of its own, and refuses one removed at once', async () => {
    const writer = await api.signedIn();
    await api.call('POST', `/api/teams/${teamId}/invite`, { token: captain.token, body: { query: writer.user.username } });
    await api.call('POST', `/api/teams/${teamId}/accept-invite`, { token: writer.token });
    expect((await send(writer, 'перше')).status).toBe(201);
    // The session is held now (decision 026), with the teams it found: the rate limit and the message are all that is sent.
    const { result, queries } = await api.queriesOf(() => send(writer, 'друге'));
    expect(result.status).toBe(201);
    expect(queries.map((q) => q.split(' ').slice(0, 3).join(' '))).toEqual(['insert into "rate_limits"', 'insert into "chat_messages"']);
    // A removal forgets the held sessions, so the next message is refused, not let through on what was held.
    expect((await api.call('DELETE', `/api/teams/${teamId}/members/${writer.user.id}`, { token: captain.token })).status).toBe(200);
    const refused = await send(writer, 'третє');
    expect(refused.status).toBe(403);
    expect((await read(captain)).body.map((m) => m.message)).not.toContain('третє');
  });
});

describe('polling the chat', () => {
  it('answers 304 without a body while nothing is new, and 200 once a message arrives', async () => {
    const first = await read(member);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"chat-[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');

    const same = await read(member, '', { 'If-None-Match': etag! });
    expect(same.status).toBe(304);
    expect(same.body).toBe('');
    expect(same.headers.get('etag')).toBe(etag);
    expect((await read(member, '', { 'If-None-Match': `W/${etag}, "other"` })).status).toBe(304);

    await send(captain, 'Нове повідомлення');
    const changed = await read(member, '', { 'If-None-Match': etag! });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(changed.body.at(-1)?.message).toBe('Нове повідомлення');
  });

  it('returns only messages after a message id, oldest first', async () => {
    const history = (await read(captain)).body;
    const last = history.at(-1)!;
    const none = await read(captain, `?after=${last._id}`);
    expect(none.status).toBe(200);
    expect(none.body).toEqual([]);
    const unchanged = await read(captain, `?after=${last._id}`, { 'If-None-Match': none.headers.get('etag')! });
    expect(unchanged.status).toBe(304);

    await send(member, 'один');
    await send(captain, 'два');
    const fresh = await read(captain, `?after=${last._id}`, { 'If-None-Match': none.headers.get('etag')! });
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((m) => m.message)).toEqual(['один', 'два']);
    // The same messages, field for field, as the history shows them: times to the millisecond, authors with their avatars.
    expect(fresh.body).toEqual((await read(captain)).body.slice(-2));
    const fromMiddle = await read(captain, `?after=${fresh.body[0]!._id}`);
    expect(fromMiddle.body.map((m) => m.message)).toEqual(['два']);
  });

  it('returns only messages after an ISO time', async () => {
    const history = (await read(captain)).body;
    const cut = new Date(Date.parse(history.at(-1)!.createdAt) - 1).toISOString();
    const after = await read(captain, `?after=${encodeURIComponent(cut)}`);
    expect(after.status).toBe(200);
    expect(after.body.every((m) => m.createdAt > cut)).toBe(true);
    expect(after.body.map((m) => m._id)).toContain(history.at(-1)!._id);
    const future = await read(captain, `?after=${encodeURIComponent('2999-01-01T00:00:00+02:00')}`);
    expect(future.body).toEqual([]);
  });

  it('costs one query after the session before it answers, 304 or refusal, and after a message cursor with the new messages', async () => {
    const ask = async (who: Player, path: string, headers: Record<string, string> = {}) => {
      // Both look the session up (none is held: decision 026), so the difference is the chat's.
      forgetHeldSessions();
      const session = await api.queriesOf(() => api.call('GET', '/api/openapi.json', { token: who.token }));
      forgetHeldSessions();
      const poll = await api.queriesOf(() => api.call('GET', path, { token: who.token, headers }));
      // What the session lookup alone costs is not the chat's to count.
      return { status: poll.result.status, queries: poll.queries.length - session.queries.length };
    };
    const first = await read(member);
    const [older, last] = first.body.slice(-2) as [ChatMessage, ChatMessage];
    expect(await ask(member, chat, { 'If-None-Match': first.headers.get('etag')! })).toEqual({ status: 304, queries: 1 });
    const after = await read(member, `?after=${last._id}`);
    // The chat's newest message is held now (services/teams/held-chats.ts): asking after it reads nothing.
    expect(await ask(member, `${chat}?after=${last._id}`, { 'If-None-Match': after.headers.get('etag')! })).toEqual({ status: 304, queries: 0 });
    expect(await ask(member, `${chat}?after=${last._id}`)).toEqual({ status: 200, queries: 0 });
    const sinceOlder = await read(member, `?after=${older._id}`);
    expect(await ask(member, `${chat}?after=${older._id}`, { 'If-None-Match': sinceOlder.headers.get('etag')! })).toEqual({ status: 304, queries: 1 });
    expect(await ask(stranger, chat)).toEqual({ status: 403, queries: 1 });
    // Held or not, the chat is the members': anyone else is refused from the database's answer.
    expect(await ask(stranger, `${chat}?after=${last._id}`)).toEqual({ status: 403, queries: 1 });
    expect(await ask(member, `/api/team/${crypto.randomUUID()}/chat`)).toEqual({ status: 404, queries: 1 });
    expect(await ask(member, `${chat}?after=${crypto.randomUUID()}`)).toEqual({ status: 400, queries: 1 });
    // After a message cursor, what is new comes in that same round trip.
    await send(captain, 'ще одне');
    expect(await ask(member, `${chat}?after=${last._id}`)).toEqual({ status: 200, queries: 1 });
  });

  it('answers a poll after the newest message from the held chat, the same as the database would, until a message is posted', async () => {
    const reader = await api.signedIn();
    await api.call('POST', `/api/teams/${teamId}/invite`, { token: captain.token, body: { query: reader.user.username } });
    await api.call('POST', `/api/teams/${teamId}/accept-invite`, { token: reader.token });
    const newest = (await read(reader)).body.at(-1)!;
    const fromDatabase = await read(reader, `?after=${newest._id}`);
    const held = await api.queriesOf(() => read(reader, `?after=${newest._id}`));
    // The session and the chat are both held: nothing is sent, and the answer is the database's, tag and all.
    expect(held.queries).toEqual([]);
    expect(held.result.status).toBe(200);
    expect(held.result.body).toEqual([]);
    expect(held.result.headers.get('etag')).toBe(fromDatabase.headers.get('etag'));
    expect((await read(reader, `?after=${newest._id}`, { 'If-None-Match': fromDatabase.headers.get('etag')! })).status).toBe(304);
    // A message posted by another member forgets the held chat: the next poll gets it.
    await send(member, 'щойно');
    const fresh = await read(reader, `?after=${newest._id}`, { 'If-None-Match': fromDatabase.headers.get('etag')! });
    expect(fresh.status).toBe(200);
    expect(fresh.body.map((m) => m.message)).toEqual(['щойно']);
    // Removed, the reader is refused though they ask after the chat's newest message, which is held.
    await read(reader, `?after=${fresh.body[0]!._id}`);
    await api.call('DELETE', `/api/teams/${teamId}/members/${reader.user.id}`, { token: captain.token });
    expect((await read(reader, `?after=${fresh.body[0]!._id}`)).status).toBe(403);
  });

  it('misses no message when polls and posts run at once', async () => {
    const start = (await read(captain)).body.at(-1)!;
    const posted = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const [message] = await Promise.all([send(i % 2 ? captain : member, `разом ${i}`), read(member, `?after=${start._id}`), read(captain, `?after=${start._id}`)]);
        expect(message.status).toBe(201);
        return message.body._id;
      }),
    );
    const history = (await read(captain, `?after=${start._id}`)).body;
    expect(history.map((m) => m._id).sort()).toEqual([...posted].sort());
    // Whatever the polls held meanwhile, after each message but the newest something is new.
    for (const [i, message] of history.entries()) {
      const next = await read(member, `?after=${message._id}`);
      expect(next.body.map((m) => m._id)).toEqual(history.slice(i + 1).map((m) => m._id));
    }
  });

  it('refuses a cursor that is neither a time nor a message of this team', async () => {
    for (const after of ['yesterday', '2025-13-45T99:99:99Z', '12345', crypto.randomUUID()]) {
      const res = await read(captain, `?after=${encodeURIComponent(after)}`);
      expect(res.status, after).toBe(400);
      expect((res.body as unknown as { message: string }).message).toMatch(/after/);
    }
    const foreign = await send(stranger, 'чуже', `/api/team/${otherTeamId}/chat`);
    expect((await read(captain, `?after=${foreign.body._id}`)).status).toBe(400);
  });
});

describe('chat flood', () => {
  it('limits how fast one player can post', async () => {
    const spammer = await api.signedIn();
    const team = await api.call<TeamMessage>('POST', '/api/teams', { token: spammer.token, body: { name: 'Флуд' } });
    const path = `/api/team/${team.body.team._id}/chat`;
    for (let i = 0; i < CHAT_LIMIT.max; i++) expect((await send(spammer, `#${i}`, path)).status).toBe(201);
    const refused = await send(spammer, 'ще одне', path);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
