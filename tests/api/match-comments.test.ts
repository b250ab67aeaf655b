import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MatchComment, MatchState, StageMatchView, StagesState, StageView } from '../../src/lib/api/stages.ts';
import { matchActions, stageMatches } from '../../src/server/db/schema/index.ts';
import { subscribeTournament, type TournamentEvent } from '../../src/server/services/live/live.ts';
import { admin as adminOf, coOrganiser, game, player, stage, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * An organiser's result comment is public or for the organisers only (issue 57): no public read —
 * the stages, the match and its history, the SPEC bracket, the tournament, a players' action's
 * answer, the live events — carries a private comment's text to a guest or a player; the
 * tournament's organisers read it (`GET /api/matches/{id}/comment`, and their own save's answer).
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api);
});

const SECRET = 'Капітану — попередження за образи в чаті лобі';

type Saved = { message: string; match: StageMatchView; reset: StageMatchView[]; preview: boolean };

const patch = (who: Player, match: Pick<StageMatchView, '_id' | 'version'>, body: Record<string, unknown>) =>
  api.call<Saved>('PATCH', `/api/matches/${match._id}`, { token: who.token, body: { version: match.version, ...body } });

/** A four-player single elimination (seeded in order), its players by id and a co-organiser. */
async function cup() {
  const four = [await player(api), await player(api), await player(api), await player(api)];
  const built = await tournament(api, { game: gameId, soloOnly: true, approved: four });
  const made: StageView = await stage(api, built.id, { format: 'single_elimination' });
  const staff = await coOrganiser(api, built.id);
  const byId = new Map(four.map((p) => [p.user.id, p]));
  const outsider = await player(api);
  return { ...built, stage: made, staff, byId, outsider };
}

/** What each public read answers `who` (a guest when null) about a tournament and one of its matches, as one text. */
async function publicReads(tournamentId: string, matchId: string, who: Player | null) {
  const token = who?.token;
  const answers = await Promise.all([
    api.call<StagesState>('GET', `/api/tournaments/${tournamentId}/stages`, { token }),
    api.call<MatchState>('GET', `/api/matches/${matchId}`, { token }),
    api.call('GET', `/api/tournaments/${tournamentId}/bracket`, { token }),
    api.call('GET', `/api/tournaments/${tournamentId}`, { token }),
    api.call('GET', `/api/tournaments/${tournamentId}/standings`, { token }),
  ]);
  for (const answer of answers) expect(answer.status).toBe(200);
  const [stages, match] = answers;
  return {
    text: answers.map((a) => JSON.stringify(a.body)).join('\n'),
    stageMatch: stages.body.stages[0]!.matches.find((m) => m._id === matchId)!,
    match: match.body,
  };
}

const rowOf = async (matchId: string) => (await api.db.select().from(stageMatches).where(eq(stageMatches.id, matchId)))[0]!;

describe('a comment for the organisers only', () => {
  it('reaches no guest and no player through any public read, and its organisers read it', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    const side = built.byId.get(semi.a!)!;
    const heard: TournamentEvent[] = [];
    const stop = subscribeTournament(built.id, (event) => void heard.push(event));
    let saved;
    try {
      saved = await patch(built.staff, semi, { scoreA: 2, scoreB: 0, comment: SECRET, commentPublic: false });
    } finally {
      stop();
    }
    expect(saved.status).toBe(200);
    // The co-organiser's own answer carries it, marked.
    expect(saved.body.match).toMatchObject({ comment: SECRET, commentPublic: false, status: 'completed' });
    expect(heard.length).toBeGreaterThan(0);
    expect(JSON.stringify(heard)).not.toContain(SECRET);

    for (const who of [null, side, built.outsider]) {
      const read = await publicReads(built.id, semi._id, who);
      expect(read.text).not.toContain(SECRET);
      expect(read.stageMatch).toMatchObject({ comment: '', status: 'completed' });
      expect(read.stageMatch).not.toHaveProperty('commentPublic');
      expect(read.match.match.comment).toBe('');
      // The history shows the result, without the comment it was entered with.
      const result = read.match.actions.find((a) => a.kind === 'result')!;
      expect(result).toMatchObject({ scoreA: 2, scoreB: 0, reason: '' });
    }
    // Nor does the history's row hold it.
    const actions = await api.db.select().from(matchActions).where(eq(matchActions.matchId, semi._id));
    expect(actions.map((a) => a.reason)).not.toContain(SECRET);

    // The organisers' read: the co-organiser and the admin, nobody else.
    for (const who of [built.staff, admin]) {
      const read = await api.call<MatchComment>('GET', `/api/matches/${semi._id}/comment`, { token: who.token });
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ comment: SECRET, commentPublic: false, version: saved.body.match.version });
      expect(read.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await api.call('GET', `/api/matches/${semi._id}/comment`)).status).toBe(401);
    for (const who of [side, built.outsider]) {
      const refused = await api.call('GET', `/api/matches/${semi._id}/comment`, { token: who.token });
      expect(refused.status).toBe(403);
      expect(JSON.stringify(refused.body)).not.toContain(SECRET);
    }
    const missing = await api.call<{ message: string }>('GET', `/api/matches/${crypto.randomUUID()}/comment`, { token: admin.token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Матч не знайдено');

    // A stale save's 409 goes to an organiser: the newer match with its text.
    const stale = await patch(built.staff, { _id: semi._id, version: semi.version }, { comment: 'інше' });
    expect(stale.status).toBe(409);
    expect(stale.body.match).toMatchObject({ comment: SECRET, commentPublic: false });
  });

  it('stays public by default: a comment without commentPublic is everyone’s, in the match, its history and the SPEC bracket', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    expect((await rowOf(semi._id)).commentPublic).toBe(true);
    const saved = await patch(admin, semi, { scoreA: 2, scoreB: 1, comment: 'Третя карта на овертаймі' });
    expect(saved.status).toBe(200);
    expect(saved.body.match).toMatchObject({ comment: 'Третя карта на овертаймі', commentPublic: true });
    const read = await publicReads(built.id, semi._id, null);
    expect(read.stageMatch.comment).toBe('Третя карта на овертаймі');
    expect(read.match.actions.find((a) => a.kind === 'result')!.reason).toBe('Третя карта на овертаймі');
    const bracket = await api.call<{ bracket: { matches: { comment: string }[] }[] }>('GET', `/api/tournaments/${built.id}/bracket`);
    expect(bracket.body.bracket[0]!.matches[0]!.comment).toBe('Третя карта на овертаймі');
    expect((await rowOf(semi._id)).commentPublic).toBe(true);
  });

  it('hides a public comment made private later, in the history too, and shows it again once public', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    const first = await patch(admin, semi, { scoreA: 2, scoreB: 0, comment: SECRET });
    expect((await publicReads(built.id, semi._id, null)).text).toContain(SECRET);
    // Only the flag changes: no result, no new history row.
    const hidden = await patch(built.staff, first.body.match, { commentPublic: false });
    expect(hidden.status).toBe(200);
    expect(hidden.body.match).toMatchObject({ comment: SECRET, commentPublic: false, scoreA: 2 });
    const read = await publicReads(built.id, semi._id, built.byId.get(semi.a!)!);
    expect(read.text).not.toContain(SECRET);
    expect(read.match.actions.filter((a) => a.kind === 'result').map((a) => a.reason)).toEqual(['']);
    const shown = await patch(admin, hidden.body.match, { commentPublic: true });
    expect(shown.status).toBe(200);
    expect((await publicReads(built.id, semi._id, null)).stageMatch.comment).toBe(SECRET);
  });

  it('keeps its privacy through a players’ report and confirmation, whose answers never carry it', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    const [a, b] = [built.byId.get(semi.a!)!, built.byId.get(semi.b!)!];
    // A note on a match still to be played: no result, only the comment.
    const noted = await patch(admin, semi, { comment: SECRET, commentPublic: false });
    expect(noted.status).toBe(200);
    const reported = await api.call<{ state: MatchState }>('POST', `/api/matches/${semi._id}/report`, { token: a.token, body: { scoreA: 2, scoreB: 1 } });
    expect(reported.status).toBe(200);
    expect(JSON.stringify(reported.body)).not.toContain(SECRET);
    const confirmed = await api.call<{ state: MatchState }>('POST', `/api/matches/${semi._id}/confirm`, { token: b.token, body: {} });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.state.match).toMatchObject({ status: 'completed', comment: '' });
    expect(JSON.stringify(confirmed.body)).not.toContain(SECRET);
    expect(await rowOf(semi._id)).toMatchObject({ comment: SECRET, commentPublic: false, status: 'completed' });
    expect((await publicReads(built.id, semi._id, b)).text).not.toContain(SECRET);
  });

  it('is kept by a SPEC bracket save that shows it empty; a comment typed into the bracket is public', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    await patch(admin, semi, { scoreA: 2, scoreB: 0, comment: SECRET, commentPublic: false });
    const bracket = await api.call<{ bracket: { matches: { comment: string }[] }[]; version: number }>('GET', `/api/tournaments/${built.id}/bracket`, { token: admin.token });
    expect(bracket.body.bracket[0]!.matches[0]!.comment).toBe('');
    const unchanged = await api.call('PATCH', `/api/tournaments/${built.id}/bracket`, {
      token: admin.token,
      body: { bracket: bracket.body.bracket, version: bracket.body.version },
    });
    expect(unchanged.status).toBe(200);
    expect(JSON.stringify(unchanged.body)).not.toContain(SECRET);
    expect(await rowOf(semi._id)).toMatchObject({ comment: SECRET, commentPublic: false });
    const edited = structuredClone(bracket.body.bracket);
    edited[0]!.matches[0]!.comment = 'Перенесено на головну сцену';
    const typed = await api.call('PATCH', `/api/tournaments/${built.id}/bracket`, {
      token: admin.token,
      body: { bracket: edited, version: (unchanged.body as { version: number }).version },
    });
    expect(typed.status).toBe(200);
    expect(await rowOf(semi._id)).toMatchObject({ comment: 'Перенесено на головну сцену', commentPublic: true });
  });

  it('is documented: the field of the match’s update says who sees the comment, and the organisers’ read is listed', async () => {
    type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { type: string; description?: string }> } }> } }>> };
    const doc = (await api.call<Doc>('GET', '/api/openapi.json')).body;
    const field = doc.paths['/api/matches/{id}']!.patch!.requestBody!.content['application/json']!.schema.properties.commentPublic!;
    expect(field.type).toBe('boolean');
    expect(field.description).toContain('лише для організаторів');
    expect(doc.paths['/api/matches/{id}/comment']?.get).toBeDefined();
  });

  it('refuses a commentPublic that is not true or false with a 400 in Ukrainian, and changes nothing', async () => {
    const built = await cup();
    const semi = built.stage.matches[0]!;
    const before = await rowOf(semi._id);
    for (const commentPublic of ['yes', null, 1, 'false']) {
      const refused = await api.call<{ message: string }>('PATCH', `/api/matches/${semi._id}`, {
        token: admin.token,
        body: { version: semi.version, scoreA: 2, scoreB: 0, comment: SECRET, commentPublic },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe(commentPublic === null ? 'Поле «Коментар бачать усі» обовʼязкове' : 'Поле «Коментар бачать усі» має неправильний тип');
    }
    expect(await rowOf(semi._id)).toEqual(before);
    const actions = await api.db.select().from(matchActions).where(eq(matchActions.matchId, semi._id));
    expect(actions).toHaveLength(0);
  });
});
