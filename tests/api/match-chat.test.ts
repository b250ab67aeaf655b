import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ControlRoom } from '../../src/lib/api/control-room.ts';
import type { MatchChatMessage } from '../../src/lib/api/match-chat.ts';
import type { StageView } from '../../src/lib/api/stages.ts';
import { CHAT_LIMIT } from '../../src/server/services/teams/chat.ts';
import { matchActions, matchMessages, stageMatches } from '../../src/server/db/schema/index.ts';
import { receive, subscribeTournament, subscribeUser, type TournamentEvent, type UserEvent } from '../../src/server/services/live/live.ts';
import { admin as adminOf, coOrganiser, game, player, stage, team, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * A match's chat (issue 58): the people of its two sides and the tournament's organisers read and
 * write it, each message marked with its side or as an organiser's; anyone else is refused and
 * writes nothing; bad messages are refused in Ukrainian; an organiser's message answers a side's
 * call; and no message reaches a public read or the tournament's public event stream.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

const chatOf = (matchId: string) => `/api/matches/${matchId}/chat`;
const send = (who: Player | null, matchId: string, body: unknown) => api.call<MatchChatMessage>('POST', chatOf(matchId), { token: who?.token, body });
const read = (who: Player | null, matchId: string, query = '', headers: Record<string, string> = {}) =>
  api.call<MatchChatMessage[]>('GET', `${chatOf(matchId)}${query}`, { token: who?.token, headers });
const stored = async (matchId: string) => (await api.db.select().from(matchMessages).where(eq(matchMessages.matchId, matchId))).length;

/** A solo cup of four seeded in order, its co-organiser and its two semi-finals (the players by seed: 1 v 4, 2 v 3). */
async function soloCup() {
  const players = [await player(api), await player(api), await player(api), await player(api)];
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: players });
  const made: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order' });
  const staff = await coOrganiser(api, built.id);
  const byId = new Map(players.map((p) => [p.user.id, p]));
  const sidesOf = (index: number) => {
    const match = made.matches[index]!;
    return { id: match._id, a: byId.get(match.a!)!, b: byId.get(match.b!)! };
  };
  return { id: built.id, staff, first: sidesOf(0), second: sidesOf(1) };
}

describe('a match chat', () => {
  it('is read and written by both sides and the organisers, each message marked as whom it was written', async () => {
    const cup = await soloCup();
    const { id, a, b } = cup.first;
    const empty = await read(a, id);
    expect([empty.status, empty.body]).toEqual([200, []]);

    const first = await send(a, id, { message: '  Готові о 19:00?  ' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      _id: expect.any(String),
      message: 'Готові о 19:00?',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      userId: { _id: a.user.id, username: a.user.username, avatar: `/api/avatar/${a.user.id}` },
      as: 'a',
    });
    // The other side and the organisers read the author's name, never their email.
    expect(JSON.stringify(first.body)).not.toContain(a.user.email);
    expect((await send(b, id, { message: 'Так' })).body.as).toBe('b');
    expect((await send(cup.staff, id, { message: 'Сервер готовий' })).body.as).toBe('organiser');
    expect((await send(admin, id, { message: 'Удачі обом' })).body.as).toBe('organiser');

    for (const who of [a, b, cup.staff, admin]) {
      const history = await read(who, id);
      expect(history.status).toBe(200);
      expect(history.headers.get('cache-control')).toBe('private, no-cache');
      expect(history.body.map((m) => [m.message, m.userId?.username, m.as])).toEqual([
        ['Готові о 19:00?', a.user.username, 'a'],
        ['Так', b.user.username, 'b'],
        ['Сервер готовий', cup.staff.user.username, 'organiser'],
        ['Удачі обом', admin.user.username, 'organiser'],
      ]);
    }
    // Each match has its own chat.
    expect((await read(cup.second.a, cup.second.id)).body).toEqual([]);
  });

  it('takes the side from the writer, not from the body', async () => {
    const cup = await soloCup();
    const { id, a } = cup.first;
    const sent = await send(a, id, { message: 'Моє', as: 'organiser', slot: 'b', userId: cup.staff.user.id, matchId: cup.second.id });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ as: 'a', userId: { _id: a.user.id } });
    const [row] = await api.db.select().from(matchMessages).where(eq(matchMessages.matchId, id));
    expect(row).toMatchObject({ slot: 'a', userId: a.user.id, message: 'Моє' });
    expect(await stored(cup.second.id)).toBe(0);
  });

  it("is a team match's chat for every member of both teams, captain or not", async () => {
    const [captainA, memberA, captainB, memberB] = [await player(api), await player(api), await player(api), await player(api)];
    const teams = [await team(api, captainA, 5, { members: [memberA.user.id] }), await team(api, captainB, 5, { members: [memberB.user.id] })];
    const built = await tournament(api, { game: gameId, approved: teams });
    const made: StageView = await stage(api, built.id, { format: 'single_elimination', seeding: 'order' });
    const match = made.matches[0]!;
    const [onA, onB] = match.a === teams[0]!.id ? [memberA, memberB] : [memberB, memberA];
    expect((await send(onB, match._id, { message: 'Ми на місці' })).body.as).toBe('b');
    expect((await send(onA, match._id, { message: 'Ми теж' })).body.as).toBe('a');
    const history = await read(match.a === teams[0]!.id ? captainA : captainB, match._id);
    expect(history.body.map((m) => [m.message, m.as])).toEqual([
      ['Ми на місці', 'b'],
      ['Ми теж', 'a'],
    ]);
    expect((await read(await player(api), match._id)).status).toBe(403);
  });

  it('answers 304 while nothing is new, and only the messages after a cursor', async () => {
    const cup = await soloCup();
    const { id, a, b } = cup.first;
    await send(a, id, { message: 'один' });
    const first = await read(b, id);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"chat-[\w-]+"$/);
    const same = await read(b, id, '', { 'If-None-Match': etag });
    expect([same.status, same.body]).toEqual([304, '']);
    const last = first.body.at(-1)!;
    const none = await read(b, id, `?after=${last._id}`);
    expect([none.status, none.body]).toEqual([200, []]);
    await send(a, id, { message: 'два' });
    await send(b, id, { message: 'три' });
    expect((await read(b, id, '', { 'If-None-Match': etag })).status).toBe(200);
    const after = await read(b, id, `?after=${last._id}`, { 'If-None-Match': none.headers.get('etag')! });
    expect([after.status, after.body.map((m) => m.message)]).toEqual([200, ['два', 'три']]);
    const since = await read(b, id, `?after=${encodeURIComponent(new Date(Date.parse(after.body[1]!.createdAt) - 1).toISOString())}`);
    expect(since.body.map((m) => m.message)).toEqual(['три']);
    // A cursor that is not a message of this chat, or neither an id nor a time, is refused.
    const otherChat = await send(cup.second.a, cup.second.id, { message: 'чуже' });
    for (const after of [otherChat.body._id, crypto.randomUUID(), 'вчора', '0000-01-01T00:00:00Z']) {
      const refused = await read(b, id, `?after=${encodeURIComponent(after)}`);
      expect([refused.status, refused.body], after).toEqual([400, { message: 'Параметр after має бути часом ISO 8601 або id повідомлення цієї команди' }]);
    }
  });
});

describe('who is refused', () => {
  it('an outsider — a stranger, a player of another match, a team mate of nobody here — gets 403 and writes nothing; a guest 401; no match 404', async () => {
    const cup = await soloCup();
    const { id, a } = cup.first;
    await send(a, id, { message: 'тільки для своїх' });
    const outsiders = [await player(api), cup.second.a, cup.second.b];
    for (const who of outsiders) {
      for (const body of [{ message: 'я тут чужий' }, { message: '' }, 'не JSON']) {
        const written = await send(who, id, body);
        // The room is checked before the body: an outsider hears 403, not 400 about a message they may not send.
        expect([written.status, written.body], who.user.username).toEqual([
          403,
          { message: 'Чат матчу читають і пишуть лише гравці його сторін і організатори турніру' },
        ]);
      }
      const reading = await read(who, id);
      expect(reading.status).toBe(403);
      expect(reading.body).toEqual({ message: 'Чат матчу читають і пишуть лише гравці його сторін і організатори турніру' });
      expect(JSON.stringify(reading.body)).not.toContain('тільки для своїх');
    }
    // A co-organiser of another tournament organises nothing here.
    const otherCup = await tournament(api, { game: gameId, soloOnly: true });
    const elsewhere = await coOrganiser(api, otherCup.id);
    expect((await read(elsewhere, id)).status).toBe(403);
    expect((await send(elsewhere, id, { message: 'я з іншого турніру' })).status).toBe(403);

    expect((await read(null, id)).status).toBe(401);
    expect((await send(null, id, { message: 'гість' })).status).toBe(401);
    const nowhere = crypto.randomUUID();
    const missing = await read(a, nowhere);
    expect([missing.status, missing.body]).toEqual([404, { message: 'Матч не знайдено' }]);
    expect((await send(a, nowhere, { message: 'куди?' })).status).toBe(404);
    expect((await read(a, 'not-a-match')).status).toBe(400);
    expect((await send(a, 'not-a-match', { message: 'куди?' })).status).toBe(400);
    expect(await stored(id)).toBe(1);
  });

  it('a message empty, blank, too long, with a NUL or not text is refused with 400 in Ukrainian and nothing is written', async () => {
    const cup = await soloCup();
    const { id, a } = cup.first;
    const empty = 'Повідомлення не може бути порожнім';
    const refusals: [unknown, string | null][] = [
      [{ message: '' }, empty],
      [{ message: '   ' }, empty],
      [{ message: '\n\t ' }, empty],
      [{}, empty],
      [{ message: 'я'.repeat(1001) }, 'Повідомлення задовге (не більше 1000 символів)'],
      [{ message: 'нуль\u0000' }, 'Поле «Повідомлення» містить недопустимі символи (нульовий байт або пошкоджений символ)'],
      [{ message: 42 }, null],
      [{ message: null }, null],
      [{ message: ['так'] }, null],
      [{ message: { text: 'так' } }, null],
      [[], null],
      ['так', null],
    ];
    for (const [body, message] of refusals) {
      const res = await send(a, id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const said = (res.body as unknown as { message: string }).message;
      if (message) expect(said).toBe(message);
      else expect(said).toMatch(/[а-яіїєґ]/i);
    }
    expect(await stored(id)).toBe(0);
    // The longest message fits, trimmed; an emoji counts as one character.
    expect((await send(a, id, { message: ` ${'я'.repeat(1000)} ` })).status).toBe(201);
    expect((await send(a, id, { message: '😀'.repeat(1000) })).status).toBe(201);
    expect(await stored(id)).toBe(2);
  });

  it('a writer past the chats’ limit gets 429, and that message is not written', async () => {
    const cup = await soloCup();
    const { id, a } = cup.first;
    for (let i = 0; i < CHAT_LIMIT.max; i++) expect((await send(a, id, { message: `№${i}` })).status).toBe(201);
    const refused = await send(a, id, { message: 'зайве' });
    expect(refused.status).toBe(429);
    expect((refused.body as unknown as { message: string }).message).toMatch(/^Забагато повідомлень/);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await stored(id)).toBe(CHAT_LIMIT.max);
  });
});

describe('a call for the organisers', () => {
  const room = (who: Player, tournamentId: string) => api.call<ControlRoom>('GET', `/api/tournaments/${tournamentId}/control`, { token: who.token });
  const calledAt = async (matchId: string) =>
    (await api.db.select({ at: stageMatches.calledAt }).from(stageMatches).where(eq(stageMatches.id, matchId)))[0]!.at;
  const history = async (matchId: string) =>
    await api.db.select({ kind: matchActions.kind, userId: matchActions.userId }).from(matchActions).where(eq(matchActions.matchId, matchId));

  it("stays open while the sides talk, and an organiser's message answers it, as closing it does", async () => {
    const cup = await soloCup();
    const { id, a, b } = cup.first;
    expect((await api.call('POST', `/api/matches/${id}/call`, { token: a.token, body: { reason: 'Суперник не заходить у лобі' } })).status).toBe(200);
    expect((await send(a, id, { message: 'Ми чекаємо' })).status).toBe(201);
    expect((await send(b, id, { message: 'Вже йду' })).status).toBe(201);
    expect(await calledAt(id)).not.toBeNull();
    expect((await room(cup.staff, cup.id)).body.calls.map((c) => c.match._id)).toEqual([id]);

    const heard: TournamentEvent[] = [];
    const stop = subscribeTournament(cup.id, (event) => void heard.push(event));
    try {
      expect((await send(cup.staff, id, { message: 'Бачу, розбираюся' })).status).toBe(201);
    } finally {
      stop();
    }
    expect(await calledAt(id)).toBeNull();
    expect((await history(id)).map((h) => [h.kind, h.userId]).sort()).toEqual(
      [
        ['call', a.user.id],
        ['callAnswered', cup.staff.user.id],
      ].sort(),
    );
    expect((await room(cup.staff, cup.id)).body.calls).toEqual([]);
    // The control room hears the call answered; the message itself goes on no public event.
    expect(heard.map((e) => [e.kind, e.matchId])).toEqual([['call', id]]);
    expect(JSON.stringify(heard)).not.toContain('Бачу, розбираюся');
    // Nothing more to answer: the next organiser's message is only a message, and closing the call finds none.
    expect((await send(admin, id, { message: 'Усе гаразд?' })).status).toBe(201);
    expect((await history(id)).filter((h) => h.kind === 'callAnswered')).toHaveLength(1);
    expect((await api.call('DELETE', `/api/matches/${id}/call`, { token: cup.staff.token })).status).toBe(409);
  });

  it('is not answered by an organiser who plays for a side: their message is their side’s', async () => {
    const cup = await soloCup();
    const { id, a, b } = cup.first;
    await coOrganiser(api, cup.id, b);
    expect((await api.call('POST', `/api/matches/${id}/call`, { token: a.token, body: {} })).status).toBe(200);
    const sent = await send(b, id, { message: 'Я тут як гравець' });
    expect(sent.body.as).toBe('b');
    expect(await calledAt(id)).not.toBeNull();
    expect((await history(id)).map((h) => h.kind)).toEqual(['call']);
  });
});

describe('a message is private to the room', () => {
  it('reaches the room’s people on their own streams, and no public read, no public event and no outsider’s stream', async () => {
    const cup = await soloCup();
    const { id, a, b } = cup.first;
    const outsider = cup.second.a;
    const SECRET = 'Пароль лобі: kiber-7781';
    const heard: TournamentEvent[] = [];
    const told = new Map<string, UserEvent[]>();
    const stops = [subscribeTournament(cup.id, (event) => void heard.push(event))];
    for (const who of [a, b, cup.staff, admin, outsider]) {
      told.set(who.user.id, []);
      stops.push(subscribeUser(who.user.id, (event) => void told.get(who.user.id)!.push(event)));
    }
    try {
      expect((await send(b, id, { message: SECRET })).status).toBe(201);
    } finally {
      for (const stop of stops) stop();
    }
    for (const who of [a, b, cup.staff, admin])
      expect(told.get(who.user.id), who.user.username).toEqual([{ userId: who.user.id, kind: 'matchChat', matchId: id }]);
    expect(told.get(outsider.user.id)).toEqual([]);
    expect(heard).toEqual([]);

    for (const who of [null, outsider, a]) {
      const answers = await Promise.all([
        api.call('GET', `/api/matches/${id}`, { token: who?.token }),
        api.call('GET', `/api/tournaments/${cup.id}`, { token: who?.token }),
        api.call('GET', `/api/tournaments/${cup.id}/stages`, { token: who?.token }),
        api.call('GET', `/api/tournaments/${cup.id}/bracket`, { token: who?.token }),
        api.call('GET', `/api/tournaments/${cup.id}/standings`, { token: who?.token }),
      ]);
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain(SECRET);
      }
    }
  });

  it('is told by another instance with its match, and a junk match id from the link is dropped', async () => {
    const who = await player(api);
    const matchId = crypto.randomUUID();
    const heard: UserEvent[] = [];
    const stop = subscribeUser(who.user.id, (event) => void heard.push(event));
    try {
      receive(JSON.stringify({ n: crypto.randomUUID(), u: [who.user.id], k: 'matchChat', m: matchId }));
      receive(JSON.stringify({ n: crypto.randomUUID(), u: [who.user.id], k: 'matchChat', m: 'x'.repeat(65) }));
      receive(JSON.stringify({ n: crypto.randomUUID(), u: [who.user.id], k: 'matchChat', m: 42 }));
    } finally {
      stop();
    }
    expect(heard).toEqual([{ userId: who.user.id, kind: 'matchChat', matchId }]);
  });
});
