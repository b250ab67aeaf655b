import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '../../src/lib/api/auth.ts';
import type { Tournament, TournamentDetail, TournamentSaved } from '../../src/lib/api/tournaments.ts';
import { UNVERIFIED_DAILY_TOURNAMENTS } from '../../src/lib/domain/organisation.ts';
import { stageFactory } from '../../src/server/db/factories/index.ts';
import { tournamentPage } from '../../src/server/services/competition/tournament-page.ts';
import { notifications, tournaments } from '../../src/server/db/schema/index.ts';
import { admin as adminOf, application, game, player, stage, tournament as siteTournament, unique, useTestApi, type Player, organisationWithPeople, type BuiltOrganisation } from '../support/builders.ts';

/*
 * Tournaments of an organisation (issue 56): its owner and admins publish them, its people
 * organise, edit and delete them, followers hear of each, and nothing of theirs reaches another
 * organisation's tournaments or the site's.
 */

const api = useTestApi();
let admin: Player;
let gameId: string;

type Org = BuiltOrganisation;
const organisation = () => organisationWithPeople(api);

const body = (extra: Record<string, unknown> = {}) => ({ title: unique('Кубок '), date: '2031-03-01T16:00:00Z', game: gameId, soloOnly: true, ...extra });
const publish = (token: string, extra: Record<string, unknown>) => api.call<TournamentSaved>('POST', '/api/tournaments', { token, body: body(extra) });

let a: Org;
let b: Org;

beforeAll(async () => {
  admin = await adminOf(api);
  gameId = await game(api, unique('Гра '));
  a = await organisation();
  b = await organisation();
});

describe('publishing', () => {
  it('lets the owner and admins publish for their organisation; the tournament names it', async () => {
    for (const who of [a.owner, a.admin]) {
      const res = await publish(who.token, { organisation: a.id });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.tournament.organisation).toMatchObject({ _id: a.id, name: a.name, verified: false });
    }
    // The site's own tournaments name none.
    const site = await api.call<TournamentDetail>('GET', `/api/tournaments/${(await siteTournament(api, { game: gameId })).id}`);
    expect(site.body.organisation).toBeNull();
  });

  it('refuses staff, other organisations and players, before the body is read', async () => {
    const refusals: [Player, Record<string, unknown>, number, string][] = [
      [a.staff, { organisation: a.id }, 403, 'Турніри створюють адміністратор сайту та власники й адміністратори організацій'],
      [b.owner, { organisation: a.id }, 403, 'Турніри організації створюють її власник і адміністратори'],
      [a.owner, {}, 403, 'Турніри сайту створює лише адміністратор: оберіть організацію, від імені якої публікуєте'],
      [await player(api), { organisation: a.id }, 403, 'Турніри створюють адміністратор сайту та власники й адміністратори організацій'],
      [a.owner, { organisation: '00000000-0000-4000-8000-000000000000' }, 404, 'Організацію не знайдено'],
    ];
    const before = await api.db.select({ id: tournaments.id }).from(tournaments);
    for (const [who, extra, status, message] of refusals) {
      const res = await publish(who.token, extra);
      expect(res.status, message).toBe(status);
      expect(res.body).toEqual({ message: expect.stringContaining(message) });
    }
    expect(await api.db.select({ id: tournaments.id }).from(tournaments)).toHaveLength(before.length);
  });

  it('tells followers in the bell', async () => {
    const fan = await player(api);
    await api.call('POST', `/api/organisations/${b.id}/follow`, { token: fan.token });
    const res = await publish(b.owner.token, { organisation: b.id });
    const bell = await api.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, fan.user.id), eq(notifications.kind, 'organisationTournament')));
    expect(bell).toHaveLength(1);
    expect(bell[0]!.link).toBe(`/tournaments/${res.body.tournament._id}`);
    const list = await api.call<{ text: string }[]>('GET', '/api/users/me/notifications', { token: fan.token });
    expect(JSON.stringify(list.body)).toContain(`«${b.name}» оголошує новий турнір: «${res.body.tournament.title}».`);
  });

  it('filters the public list by organisation', async () => {
    const res = await api.call<Tournament[]>('GET', `/api/tournaments?organisation=${a.id}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    expect(res.body.every((t) => t.organisation?._id === a.id)).toBe(true);
  });

  it('lets /users/me tell the islands which organisations the reader is in', async () => {
    const me = await api.call<Me>('GET', '/api/users/me', { token: a.staff.token });
    expect(me.body.organisations).toEqual([{ _id: a.id, slug: expect.any(String), name: a.name, role: 'staff' }]);
  });
});

describe('organising', () => {
  let cup: string;
  let otherCup: string;
  let site: string;

  beforeAll(async () => {
    cup = (await publish(a.owner.token, { organisation: a.id })).body.tournament._id;
    otherCup = (await publish(b.owner.token, { organisation: b.id })).body.tournament._id;
    site = (await siteTournament(api, { game: gameId, soloOnly: true })).id;
  });

  it('lets all of its people decide applications of its tournaments, and none of another’s or the site’s', async () => {
    for (const who of [a.owner, a.admin, a.staff]) {
      const mine = await application(api, cup);
      expect((await api.call('PATCH', `/api/applications/${mine.id}/status`, { token: who.token, body: { status: 'approved' } })).status).toBe(200);
      for (const elsewhere of [otherCup, site]) {
        const theirs = await application(api, elsewhere);
        const res = await api.call('PATCH', `/api/applications/${theirs.id}/status`, { token: who.token, body: { status: 'approved' } });
        expect(res.status).toBe(403);
      }
    }
  });

  it('lets its people edit and delete their tournaments, not another’s or the site’s', async () => {
    const edit = (id: string, who: Player) => api.call('PUT', `/api/tournaments/${id}`, { token: who.token, body: body({ title: unique('Перейменовано ') }) });
    expect((await edit(cup, a.staff)).status).toBe(200);
    expect((await edit(otherCup, a.owner)).status).toBe(403);
    expect((await edit(site, a.owner)).status).toBe(403);
    const doomed = (await publish(a.admin.token, { organisation: a.id })).body.tournament._id;
    expect((await api.call('DELETE', `/api/tournaments/${otherCup}`, { token: a.owner.token })).status).toBe(403);
    expect((await api.call('DELETE', `/api/tournaments/${doomed}`, { token: a.staff.token })).status).toBe(200);
  });
});

describe('cloning', () => {
  it('makes a new pending tournament on the new date, with its windows moved and no applications', async () => {
    const source = await publish(a.owner.token, {
      organisation: a.id,
      date: '2031-04-05T16:00:00Z',
      maxParticipants: 16,
      description: 'Щотижневий кубок',
      registrationOpensAt: '2026-01-01T10:00:00Z',
      registrationClosesAt: '2031-04-05T12:00:00Z',
      checkInEnabled: true,
      checkInOpensAt: '2031-04-05T15:00:00Z',
      checkInClosesAt: '2031-04-05T15:50:00Z',
      confirmationMinutes: 20,
    });
    const sourceId = source.body.tournament._id;
    await application(api, sourceId);
    const res = await api.call<TournamentSaved>('POST', `/api/tournaments/${sourceId}/clone`, { token: a.admin.token, body: { date: '2031-04-12T16:00:00Z' } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Турнір склоновано: перевірте назву й дату');
    expect(res.body.tournament).toMatchObject({
      title: source.body.tournament.title,
      description: 'Щотижневий кубок',
      date: '2031-04-12T16:00:00.000Z',
      status: 'pending',
      soloOnly: true,
      maxParticipants: 16,
      registrationOpensAt: '2026-01-08T10:00:00.000Z',
      registrationClosesAt: '2031-04-12T12:00:00.000Z',
      checkInEnabled: true,
      checkInOpensAt: '2031-04-12T15:00:00.000Z',
      checkInClosesAt: '2031-04-12T15:50:00.000Z',
      confirmationMinutes: 20,
      organisation: { _id: a.id },
    });
    const clone = await api.call<TournamentDetail>('GET', `/api/tournaments/${res.body.tournament._id}`, { token: admin.token });
    expect(clone.body.applications).toEqual([]);
  });

  it('plans the clone’s stages as the source was played, and a clone of the clone keeps that plan', async () => {
    const sourceId = (await publish(a.owner.token, { organisation: a.id })).body.tournament._id;
    // The source's stages as they were played: groups seeded by hand, then playoffs fed by them.
    const groups = await stageFactory.insert(api.db, {
      tournamentId: sourceId,
      number: 1,
      name: 'Групи',
      format: 'round_robin',
      seeding: 'manual',
      settings: { groups: 2, bestOf: 3, points: { win: 3, draw: 1, loss: 0 } },
    });
    await stageFactory.insert(api.db, {
      tournamentId: sourceId,
      number: 2,
      name: 'Плей-оф',
      format: 'single_elimination',
      settings: { thirdPlace: true },
      fromStageId: groups.id,
      advance: 2,
    });
    const plan = [
      { name: 'Групи', format: 'round_robin', seeding: 'order', settings: { groups: 2, bestOf: 3, points: { win: 3, draw: 1, loss: 0 } } },
      { name: 'Плей-оф', format: 'single_elimination', seeding: 'order', settings: { thirdPlace: true }, from: { stage: 1, advance: 2 } },
    ];
    const first = await api.call<TournamentSaved>('POST', `/api/tournaments/${sourceId}/clone`, { token: a.owner.token, body: { date: '2031-04-19T16:00:00Z' } });
    expect(first.status).toBe(201);
    const read = async (id: string) => (await api.call<TournamentDetail>('GET', `/api/tournaments/${id}`)).body;
    const clone = await read(first.body.tournament._id);
    expect(clone.stagePlan).toEqual(plan);
    // The clone has a plan, not stages: nobody plays in it until an organiser creates them.
    expect((await api.call<{ stages: unknown[] }>('GET', `/api/tournaments/${clone._id}/stages`)).body.stages).toEqual([]);
    const second = await api.call<TournamentSaved>('POST', `/api/tournaments/${clone._id}/clone`, { token: a.owner.token, body: { date: '2031-04-26T16:00:00Z' } });
    expect((await read(second.body.tournament._id)).stagePlan).toEqual(plan);
    // Any other tournament has none.
    expect((await read(sourceId)).stagePlan).toEqual([]);
  });

  it('is refused to staff (403), to strangers (403) and on a bad date (400)', async () => {
    const sourceId = (await publish(a.owner.token, { organisation: a.id })).body.tournament._id;
    const clone = (who: Player, date: unknown) => api.call('POST', `/api/tournaments/${sourceId}/clone`, { token: who.token, body: { date } });
    expect((await clone(a.staff, '2031-05-01T16:00:00Z')).status).toBe(403);
    expect((await clone(b.owner, '2031-05-01T16:00:00Z')).status).toBe(403);
    expect((await clone(a.owner, 'завтра')).status).toBe(400);
  });
});

describe('the daily limit of an unverified organisation', () => {
  it(`lets a burst of 30 publish exactly ${UNVERIFIED_DAILY_TOURNAMENTS}, then answers 429 with Retry-After; verified, no limit`, async () => {
    const org = await organisation();
    const answers = await Promise.all(Array.from({ length: 30 }, () => publish(org.owner.token, { organisation: org.id })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(UNVERIFIED_DAILY_TOURNAMENTS);
    const refused = answers.filter((r) => r.status !== 201);
    expect(new Set(refused.map((r) => r.status))).toEqual(new Set([429]));
    expect(refused[0]!.body.message).toMatch(/^Неперевірена організація публікує щонайбільше 10 турнірів на добу\. Спробуйте знову через /);
    const wait = Number(refused[0]!.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(23 * 3600);
    expect(wait).toBeLessThanOrEqual(24 * 3600);
    const stored = await api.db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.organisationId, org.id));
    expect(stored).toHaveLength(UNVERIFIED_DAILY_TOURNAMENTS);
    await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { verified: true } });
    expect((await publish(org.owner.token, { organisation: org.id })).status).toBe(201);
  });
});

describe('a suspended organisation’s tournaments', () => {
  it('leave the public list and page, and its people can change nothing; lifting restores them', async () => {
    const org = await organisation();
    const cup = (await publish(org.owner.token, { organisation: org.id })).body.tournament._id;
    await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { suspended: true, reason: 'Перевірка' } });
    expect((await api.call('GET', `/api/tournaments/${cup}`)).status).toBe(404);
    expect((await api.call<Tournament[]>('GET', `/api/tournaments?organisation=${org.id}`)).body).toEqual([]);
    expect((await api.call('PUT', `/api/tournaments/${cup}`, { token: org.owner.token, body: body() })).status).toBe(403);
    expect((await publish(org.owner.token, { organisation: org.id })).status).toBe(403);
    const pending = await application(api, cup).catch(() => null);
    expect(pending).toBeNull();
    // The platform's admin still sees it.
    expect((await api.call('GET', `/api/tournaments/${cup}`, { token: admin.token })).status).toBe(200);
    await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { suspended: false } });
    expect((await api.call('GET', `/api/tournaments/${cup}`)).status).toBe(200);
    expect((await api.call<Tournament[]>('GET', `/api/tournaments?organisation=${org.id}`)).body.map((t) => t._id)).toEqual([cup]);
  });

  it('answer 404 on every public read of one of them (bracket, stages, match, stream, card, calendar…) but to the platform’s admin', async () => {
    const org = await organisation();
    const cup = (await publish(org.owner.token, { organisation: org.id })).body.tournament._id;
    for (let i = 0; i < 2; i++) await application(api, cup, 'approved');
    const made = await stage(api, cup, { format: 'single_elimination' });
    const matchId = made.matches[0]!._id;
    const reads = [
      `/api/tournaments/${cup}`,
      `/api/tournaments/${cup}/bracket`,
      `/api/tournaments/${cup}/stages`,
      `/api/tournaments/${cup}/standings`,
      `/api/tournaments/${cup}/history`,
      `/api/tournaments/${cup}/staff`,
      `/api/tournaments/${cup}/calendar.ics`,
      `/api/tournaments/${cup}/events`,
      `/api/matches/${matchId}`,
      `/api/og/tournament/${cup}.png`,
      `/api/og/match/${matchId}.png`,
    ];
    /** Each read's status; a stream is closed as soon as its head is in. */
    const statuses = async (token?: string) => {
      const answers = [];
      for (const path of reads) {
        const res = await api.app.request(path, { headers: token ? { Authorization: `Bearer ${token}` } : {} }, { clientAddress: '203.0.113.7' });
        await res.body?.cancel();
        answers.push(`${path} ${res.status}`);
      }
      return answers;
    };
    const all = (status: number) => reads.map((path) => `${path} ${status}`);
    expect(await statuses()).toEqual(all(200));

    await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { suspended: true, reason: 'Перевірка' } });
    // A guest, and the organisation's own owner: its people run nothing of it while it is suspended.
    expect(await statuses()).toEqual(all(404));
    expect(await statuses(org.owner.token)).toEqual(all(404));
    // The tournament page, which reads its services directly: no page either.
    expect(await tournamentPage(api.db, cup, { historyLimit: 5 })).toBeUndefined();
    const refused = await api.call<{ message: string }>('GET', `/api/matches/${matchId}`);
    expect(refused.body.message).toBe('Матч не знайдено');
    // The admin reads everything but the share cards: a card is the public's picture, the same for every reader.
    expect(await statuses(admin.token)).toEqual(reads.map((path) => `${path} ${path.startsWith('/api/og/') ? 404 : 200}`));

    await api.call('PATCH', `/api/organisations/${org.id}`, { token: admin.token, body: { suspended: false } });
    expect(await statuses()).toEqual(all(200));
    expect((await tournamentPage(api.db, cup, { historyLimit: 5 }))?.tournament._id).toBe(cup);
  });
});
