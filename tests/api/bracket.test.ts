import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createBracket, setResult, type Bracket } from '../../src/lib/domain/bracket.ts';
import { PUBLIC_READ } from '../../src/server/api/caching.ts';
import { applications, tournaments } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, application, game, player as newPlayer, tournament, tournamentStatus, useTestApi, type Player } from '../support/builders.ts';

const api = useTestApi();
let admin: Player;
let player: Player;
let gameId: string;

beforeAll(async () => {
  admin = await adminOf(api);
  player = await newPlayer(api);
  gameId = await game(api, 'CS2');
});

/** A solo tournament with `approved` approved players (plus one pending and one rejected). */
async function soloTournament(approved: number, status?: 'started' | 'finished') {
  const cup = await tournament(api, { soloOnly: true, game: gameId, approved });
  await application(api, cup.id, 'pending');
  await application(api, cup.id, 'rejected');
  if (status) await tournamentStatus(api, cup, status);
  return { tournamentId: cup.id, ids: cup.approved, cup };
}

type Saved = { bracket: Bracket; version: number; message: string; participants: { _id: string; name: string }[] };

describe('creating a bracket', () => {
  it('draws approved participants in application order, with byes advanced', async () => {
    const { tournamentId, ids } = await soloTournament(5);
    const res = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Сітку створено для 5 учасників!');
    expect(res.body.bracket).toEqual(createBracket(ids));
    expect(res.body.participants.map((p) => p._id)).toEqual(ids);
    expect(res.body.version).toBe(1);
  });

  it('needs at least two approved participants', async () => {
    const none = await soloTournament(0);
    const noneRes = await api.call('POST', `/api/tournaments/${none.tournamentId}/bracket`, { token: admin.token, body: {} });
    expect(noneRes.status).toBe(422);
    expect(noneRes.body.message).toBe('Немає учасників для створення сітки');
    const one = await soloTournament(1);
    const oneRes = await api.call('POST', `/api/tournaments/${one.tournamentId}/bracket`, { token: admin.token, body: {} });
    expect(oneRes.status).toBe(422);
    expect(oneRes.body.message).toBe('Потрібно щонайменше 2 учасники для створення сітки');
  });

  it('does not draw over results unless told to', async () => {
    const { tournamentId, ids } = await soloTournament(4);
    const created = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { seeding: 'standard' } });
    const played = setResult(created.body.bracket, 0, 0, created.body.bracket[0]!.matches[0]!.a!);
    await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: played } });
    const again = await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    expect(again.status).toBe(409);
    const replaced = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { replace: true } });
    expect(replaced.status).toBe(201);
    expect(replaced.body.bracket).toEqual(createBracket(ids));
  });

  it('is for admins only', async () => {
    const { tournamentId } = await soloTournament(2);
    expect((await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { body: {} })).status).toBe(401);
    expect((await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { token: player.token, body: {} })).status).toBe(403);
    expect((await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: player.token, body: { bracket: [] } })).status).toBe(403);
    expect((await api.call('POST', `/api/tournaments/00000000-0000-4000-8000-000000000000/bracket`, { token: admin.token, body: {} })).status).toBe(404);
  });
});

describe('drawing closes applications', () => {
  const statusOf = async (id: string) => (await api.db.select().from(tournaments).where(eq(tournaments.id, id)))[0]?.status;

  it('starts a pending tournament in the same step', async () => {
    const { tournamentId } = await soloTournament(3);
    expect(await statusOf(tournamentId)).toBe('pending');
    const res = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Сітку створено для 3 учасників!');
    expect(await statusOf(tournamentId)).toBe('started');
  });

  it('leaves a started or finished tournament’s status as it is, and changes nothing when the draw is refused', async () => {
    for (const status of ['started', 'finished'] as const) {
      const { tournamentId } = await soloTournament(2, status);
      const res = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
      expect(res.body.message).toBe('Сітку створено для 2 учасників!');
      expect(await statusOf(tournamentId)).toBe(status);
    }
    const lonely = await soloTournament(1);
    expect((await api.call('POST', `/api/tournaments/${lonely.tournamentId}/bracket`, { token: admin.token, body: {} })).status).toBe(422);
    expect(await statusOf(lonely.tournamentId)).toBe('pending');
  });

  it('refuses applications to a tournament whose bracket exists, whatever its status says', async () => {
    const { tournamentId, cup } = await soloTournament(2);
    await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    // Even if an admin sets the status back to pending, the drawn bracket keeps applications closed.
    await tournamentStatus(api, cup, 'pending');
    const late = await api.signedIn();
    const res = await api.call('POST', '/api/applications', { token: late.token, body: { tournament: tournamentId } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Сітку вже сформовано — заявки на цей турнір закрито');
    const standing = await api.call<{ refusal: string | null }>('GET', `/api/tournaments/${tournamentId}/eligibility`, { token: late.token });
    expect(standing.body.refusal).toBe('bracketDrawn');
    // Clearing the bracket of a pending tournament opens them again.
    await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: [] } });
    expect((await api.call('POST', '/api/applications', { token: late.token, body: { tournament: tournamentId } })).status).toBe(201);
  });

  it('fixes the lineup: no approval, no rejection or deletion of a participant after the draw; pending ones may still be turned down', async () => {
    const { tournamentId, ids } = await soloTournament(2);
    await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    const rows = await api.db.select().from(applications).where(eq(applications.tournamentId, tournamentId));
    const participant = rows.find((r) => r.userId === ids[0])!;
    const pending = rows.find((r) => r.status === 'pending')!;
    const rejected = rows.find((r) => r.status === 'rejected')!;
    const lineup = 'Сітку вже сформовано: склад учасників змінити не можна';
    for (const [id, status] of [
      [pending.id, 'approved'],
      [rejected.id, 'approved'],
      [participant.id, 'rejected'],
    ] as const) {
      const res = await api.call('PATCH', `/api/applications/${id}/status`, { token: admin.token, body: { status } });
      expect(res.status, `${id} → ${status}`).toBe(409);
      expect(res.body.message).toBe(lineup);
    }
    const deleted = await api.call('DELETE', `/api/applications/${participant.id}`, { token: admin.token });
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe(lineup);
    expect((await api.call('PATCH', `/api/applications/${participant.id}/status`, { token: admin.token, body: { status: 'approved' } })).status).toBe(200);
    expect((await api.call('PATCH', `/api/applications/${pending.id}/status`, { token: admin.token, body: { status: 'rejected' } })).status).toBe(200);
    expect((await api.call('DELETE', `/api/applications/${rejected.id}`, { token: admin.token })).status).toBe(200);
    const after = await api.db.select().from(applications).where(eq(applications.tournamentId, tournamentId));
    expect(after.filter((r) => r.status === 'approved').map((r) => r.userId).sort()).toEqual([...ids].sort());
    // Saving results still works: the bracket's participants are all still approved.
    const bracket = (await api.call<Saved>('GET', `/api/tournaments/${tournamentId}/bracket`)).body.bracket;
    const played = setResult(bracket, 0, 0, bracket[0]!.matches[0]!.a!);
    expect((await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: played } })).status).toBe(200);
  });
});

describe('saving a bracket', () => {
  it('accepts a result consistent with the engine and bumps the version', async () => {
    const { tournamentId } = await soloTournament(4);
    const created = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    const next = setResult(created.body.bracket, 0, 1, created.body.bracket[0]!.matches[1]!.b!, 'camera angle 2');
    const res = await api.call<Saved>('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: next, version: 1 } });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Сітку оновлено!');
    expect(res.body.version).toBe(2);
    const [row] = await api.db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
    expect(row?.bracket).toEqual(next);
  });

  it('refuses with 422 and changes nothing when the bracket breaks the rules', async () => {
    const { tournamentId, ids } = await soloTournament(4);
    const created = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    const base = created.body.bracket;
    const outsider = await api.signedIn();

    const wrongWinner = structuredClone(base);
    wrongWinner[0]!.matches[0]!.winner = ids[3]!;
    const stranger = structuredClone(base);
    stranger[0]!.matches[0]!.a = outsider.user.id;
    const notAdvanced = structuredClone(base);
    notAdvanced[0]!.matches[0]!.winner = ids[0]!;
    notAdvanced[0]!.matches[0]!.loser = ids[1]!;

    const cases: [Bracket, RegExp][] = [
      [wrongWinner, /переможцем може бути лише один з учасників/],
      [stranger, /схвалені учасники/],
      [notAdvanced, /мають відповідати переможцям/],
      [base.slice(0, 1), /неправильну будову/],
    ];
    for (const [bracket, message] of cases) {
      const res = await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket } });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(message);
    }
    const [row] = await api.db.select().from(tournaments).where(eq(tournaments.id, tournamentId));
    expect(row?.bracket).toEqual(base);
    expect(row?.bracketVersion).toBe(1);
  });

  it('refuses bodies of the wrong shape with 400', async () => {
    const { tournamentId } = await soloTournament(2);
    for (const body of [{}, { bracket: 'x' }, { bracket: [{ round: 1, matches: [{ a: 1 }] }] }, { bracket: [], version: -1 }]) {
      const res = await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body });
      expect(res.status).toBe(400);
    }
  });

  it('answers a save based on an old version with 409 and the newer bracket', async () => {
    const { tournamentId } = await soloTournament(4);
    const created = await api.call<Saved>('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    const first = setResult(created.body.bracket, 0, 0, created.body.bracket[0]!.matches[0]!.a!);
    const second = setResult(created.body.bracket, 0, 1, created.body.bracket[0]!.matches[1]!.a!);
    const ok = await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: first, version: 1 } });
    expect(ok.status).toBe(200);
    const stale = await api.call<Saved>('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: second, version: 1 } });
    expect(stale.status).toBe(409);
    expect(stale.body.message).toMatch(/іншим адміністратором|інший адміністратор/);
    expect(stale.body.bracket).toEqual(first);
    expect(stale.body.version).toBe(2);
    const viaHeader = await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, {
      token: admin.token,
      body: { bracket: second },
      headers: { 'if-match': `"bracket-${tournamentId}-v1"` },
    });
    expect(viaHeader.status).toBe(409);
    // The spec's own client sends no version: accepted as is.
    const unversioned = await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: setResult(first, 0, 1, first[0]!.matches[1]!.b!) } });
    expect(unversioned.status).toBe(200);
  });
});

describe('reading a bracket', () => {
  it('is public and answers an unchanged poll with 304', async () => {
    const { tournamentId } = await soloTournament(3);
    await api.call('POST', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: {} });
    const first = await api.call<Saved>('GET', `/api/tournaments/${tournamentId}/bracket`);
    expect(first.status).toBe(200);
    expect(first.body.bracket).toHaveLength(2);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // The unchanged poll reads whether the public may see the tournament and its version: two
    // statements, not the bracket and its participants.
    const { result: again, queries } = await api.queriesOf(() =>
      api.call('GET', `/api/tournaments/${tournamentId}/bracket`, { headers: { 'if-none-match': etag! } }),
    );
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe(PUBLIC_READ);
    // A signed-in reader's answer may never go to a shared cache.
    const mine = await api.call('GET', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token });
    expect(mine.headers.get('cache-control')).toMatch(/private/);
    expect(queries).toHaveLength(2);
    // A tag of a tournament that is not there changes nothing about the 404.
    const missing = '00000000-0000-4000-8000-000000000000';
    const unknown = await api.call('GET', `/api/tournaments/${missing}/bracket`, { headers: { 'if-none-match': `"bracket-${missing}-v1"` } });
    expect(unknown.status).toBe(404);
    await api.call('PATCH', `/api/tournaments/${tournamentId}/bracket`, { token: admin.token, body: { bracket: [] } });
    const changed = await api.call('GET', `/api/tournaments/${tournamentId}/bracket`, { headers: { 'if-none-match': etag! } });
    expect(changed.status).toBe(200);
  });
});
