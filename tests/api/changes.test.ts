import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataTag, onChanges, tournamentData } from '../../src/server/services/live/changes.ts';
import { admin as adminOf, application, game, player, stage, team, tournament, useTestApi, type Player } from '../support/builders.ts';

/*
 * What each write says it changed (services/live/changes.ts, decision 033): the held answers that show
 * that data — here and on every other instance — are out of date at once, and nothing else is.
 * A write that changes what a guest sees and says nothing here would leave old pages held.
 */

const api = useTestApi();
let admin: Player;
const told: DataTag[][] = [];
let stop: () => void;

beforeAll(async () => {
  admin = await adminOf(api);
  stop = onChanges((tags) => void told.push([...tags].sort()));
});
afterAll(() => stop());

/** The changes told while `write` ran, each a sorted list of tags. */
async function changesOf(write: () => Promise<unknown>): Promise<DataTag[][]> {
  told.length = 0;
  await write();
  return [...told];
}

const sorted = (...tags: DataTag[]) => [...tags].sort();

describe('a write says what it changed', () => {
  it('a tournament made changes what the lists show; its details, the tournament and the lists; deleted, everything', async () => {
    const gameId = await game(api);
    let id = '';
    const made = await changesOf(async () => {
      const res = await api.call<{ tournament: { _id: string } }>('POST', '/api/tournaments', { token: admin.token, body: { title: 'Кубок змін', date: '2031-01-01T12:00:00Z', game: gameId, soloOnly: true } });
      expect(res.status).toBe(201);
      id = res.body.tournament._id;
    });
    expect(made).toEqual([['tournaments']]);
    const edited = await changesOf(async () => {
      const res = await api.call('PUT', `/api/tournaments/${id}`, { token: admin.token, body: { title: 'Кубок змін 2', date: '2031-01-01T12:00:00Z', game: gameId } });
      expect(res.status).toBe(200);
    });
    expect(edited).toEqual([sorted(tournamentData(id), 'tournaments')]);
    const gone = await changesOf(async () => expect((await api.call('DELETE', `/api/tournaments/${id}`, { token: admin.token })).status).toBe(200));
    expect(gone).toEqual([['everything']]);
  });

  it('an application changes its tournament and what the lists show', async () => {
    const cup = await tournament(api, { soloOnly: true });
    const applied = await changesOf(() => application(api, cup.id));
    expect(applied).toEqual([sorted(tournamentData(cup.id), 'tournaments')]);
  });

  it('a result changes its tournament and what results move across the site; a report waiting, its tournament alone', async () => {
    const [a, b] = [await player(api), await player(api)];
    const cup = await tournament(api, { soloOnly: true, approved: [a, b] });
    const made = await stage(api, cup.id, { format: 'single_elimination', settings: {} } as never);
    const match = made.matches[0]!;
    const reported = await changesOf(async () => {
      const res = await api.call('POST', `/api/matches/${match._id}/report`, { token: a.token, body: { scoreA: 2, scoreB: 0, version: match.version } });
      expect(res.status).toBe(200);
    });
    expect(reported).toEqual([[tournamentData(cup.id)]]);
    const confirmed = await changesOf(async () => expect((await api.call('POST', `/api/matches/${match._id}/confirm`, { token: b.token })).status).toBe(200));
    expect(confirmed).toEqual([sorted(tournamentData(cup.id), 'ratings')]);
  });

  it('news changes the news; a game, everything', async () => {
    const news = await changesOf(async () => expect((await api.call('POST', '/api/news', { token: admin.token, body: { title: 'Зміни', content: 'Текст' } })).status).toBe(201));
    expect(news).toEqual([['news']]);
    const games = await changesOf(() => game(api));
    expect(games).toEqual([['everything']]);
  });

  it('a new name, a team joined or left: who the caller is and everything that shows them', async () => {
    const me = await player(api);
    const renamed = await changesOf(async () => {
      expect((await api.call('PUT', '/api/cabinet/me', { token: me.token, body: { username: `renamed_${Date.now().toString(36)}` } })).status).toBe(200);
    });
    expect(renamed).toEqual([sorted('everything', 'sessions')]);
    const joined = await changesOf(() => team(api, me, 2));
    expect(joined.every((tags) => tags.includes('sessions'))).toBe(true);
    const out = await changesOf(() => api.call('POST', '/api/auth/logout', { token: me.token }));
    expect(out).toEqual([['sessions']]);
  });

  it('a chat message, a notice read, a saved news item: nothing a guest sees', async () => {
    const lead = await player(api);
    const crew = await team(api, lead, 1);
    const nothing = await changesOf(async () => {
      expect((await api.call('POST', `/api/team/${crew.id}/chat`, { token: lead.token, body: { message: 'привіт' } })).status).toBe(201);
      expect((await api.call('POST', '/api/users/me/notifications/read', { token: lead.token })).status).toBeLessThan(300);
    });
    expect(nothing).toEqual([]);
  });
});
