import { randomUUID } from 'node:crypto';
import { and, count, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TournamentVenue, VenueNetwork, VenueNetworkSaved } from '../../src/lib/api/venue-networks.ts';
import { MAX_VENUE_NETWORKS, VENUE_WINDOW } from '../../src/lib/domain/venue-networks.ts';
import { REGISTER_LIMITS } from '../../src/server/api/routes/auth.ts';
import { auditLog, notifications, venueNetworks } from '../../src/server/db/schema/index.ts';
import { venueProblem } from '../../src/server/env.ts';
import { ApprovedVenueNetworks, VENUE_RELOAD_MS } from '../../src/server/services/venues/approved-networks.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import { admin, coOrganiser, player, tournament, unique, useTestApi } from '../support/builders.ts';

// Issue 57, "At a venue", its second half: a tournament's organisers ask for their hall's network,
// the site's admin approves it, and while approved and inside the tournament's window its
// addresses are treated as TRUSTED_VENUE_NETWORKS' are (decision 035). The env variable's own
// tests are in venue-limits.test.ts; these mirror its registrations with the organiser's network.

const api = useTestApi();
const HOUR = 3_600_000;
const SLOW = 180_000;

/** A tournament starting `hours` from now (inside its venue window for -48 < hours <= 24), with a co-organiser. */
async function cup(hours = 2) {
  const built = await tournament(api, { soloOnly: true, date: new Date(Date.now() + hours * HOUR).toISOString() });
  const staff = await coOrganiser(api, built.id);
  return { ...built, staff };
}

const path = (id: string) => `/api/tournaments/${id}/venue-network`;
const ask = (id: string, token: string | undefined, body: unknown) => api.call<VenueNetworkSaved>('POST', path(id), { token, body });
const decide = async (id: string, status: 'approved' | 'refused', token?: string) =>
  api.call<VenueNetworkSaved>('PATCH', `/api/venue-networks/${id}`, { token: token ?? (await admin(api)).token, body: { status } });
const rowsOf = async (tournamentId: string) => api.db.select().from(venueNetworks).where(eq(venueNetworks.tournamentId, tournamentId));

let named = 0;
const register = (ip: string) => {
  named += 1;
  const username = `hall${named}_${randomUUID().slice(0, 6)}`;
  return api.call('POST', '/api/auth/register', { body: { username, email: `${username}@example.test`, password: 'hunter2hunter2' }, ip });
};

/** Runs `count` sign-ups from `ip`, 50 at a time, and counts their statuses. */
async function burst(count: number, ip: string): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (let start = 0; start < count; start += 50) {
    const answers = await Promise.all(Array.from({ length: Math.min(50, count - start) }, () => register(ip)));
    for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  }
  return counts;
}

/** The address has spent its hour of sign-ups, counted as the route counts them (`countSignUp` in routes/auth.ts). */
async function spendHour(ip: string) {
  const limits = databaseLimiter(api.db);
  for (let i = 0; i < REGISTER_LIMITS.address.max; i++) await limits.hit(`register:ip:${ip}`, REGISTER_LIMITS.address);
}

describe('who may ask for a venue network', () => {
  it('its organisers only: a player, a guest and another tournament’s organiser are refused, and nothing is stored', async () => {
    const mine = await cup();
    const other = await cup();
    const body = { networks: ['192.0.2.0/24'], note: 'Кіберклуб «Арена»' };
    expect((await ask(mine.id, undefined, body)).status).toBe(401);
    expect((await ask(mine.id, (await player(api)).token, body)).status).toBe(403);
    expect((await ask(mine.id, other.staff.token, body)).status).toBe(403);
    expect((await api.call('GET', path(mine.id), { token: other.staff.token })).status).toBe(403);
    expect((await api.call('GET', path(mine.id), { token: (await player(api)).token })).status).toBe(403);
    expect(await rowsOf(mine.id)).toEqual([]);

    const asked = await ask(mine.id, mine.staff.token, body);
    expect(asked.status).toBe(201);
    expect(asked.body.message).toBe('Запит на мережу зали надіслано адміністраторові сайту');
    expect(asked.body.request).toMatchObject({
      networks: ['192.0.2.0/24'],
      note: 'Кіберклуб «Арена»',
      status: 'pending',
      requestedBy: { _id: mine.staff.user.id },
      inEffect: false,
    });
    // One waiting or approved request per tournament: another organiser's second one is 409.
    const again = await ask(mine.id, (await admin(api)).token, { networks: ['192.0.2.7'], note: 'Ще одна' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'Для цього турніру вже є запит на мережу зали: спершу відкличте його' });
    expect(await rowsOf(mine.id)).toHaveLength(1);

    const seen = await api.call<TournamentVenue>('GET', path(mine.id), { token: mine.staff.token });
    expect(seen.status).toBe(200);
    expect(seen.body.request?._id).toBe(asked.body.request._id);
    expect(seen.body.open).toBe(true);
    expect(Date.parse(seen.body.window.until) - Date.parse(seen.body.window.from)).toBe((VENUE_WINDOW.beforeHours + VENUE_WINDOW.afterHours) * HOUR);
  });

  it('asks once in a burst of the same request', async () => {
    const mine = await cup();
    const answers = await Promise.all(Array.from({ length: 6 }, () => ask(mine.id, mine.staff.token, { networks: ['192.0.2.9'], note: 'Зала' })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    expect(await rowsOf(mine.id)).toHaveLength(1);
  });

  it('refuses a tournament whose window has ended (422), and an unknown one (404)', async () => {
    const past = await cup(-(VENUE_WINDOW.afterHours + 1));
    const late = await ask(past.id, past.staff.token, { networks: ['192.0.2.10'], note: 'Зала' });
    expect(late.status).toBe(422);
    expect(late.body).toEqual({ message: 'Турнір уже минув: мережа зали більше не потрібна' });
    expect((await ask(randomUUID(), (await admin(api)).token, { networks: ['192.0.2.10'], note: 'Зала' })).status).toBe(404);
  });
});

describe('what a venue network may name', () => {
  it('refuses what TRUSTED_VENUE_NETWORKS refuses, with the same Ukrainian sentence, and stores nothing', async () => {
    const mine = await cup();
    for (const entry of ['loopback', 'arena.example', '10.0.0.0/7', '2001:db8::/31', '127.0.0.0/8', '::1', '192.0.2.0/33', '1.2.3']) {
      const refused = await ask(mine.id, mine.staff.token, { networks: ['192.0.2.1', entry], note: 'Зала' });
      expect(refused.status, entry).toBe(400);
      expect(refused.body, entry).toEqual({ message: venueProblem(entry) });
    }
    expect(venueProblem('10.0.0.0/7')).toMatch(/^«10\.0\.0\.0\/7» — мережа ширша за \/8/);
    const tooMany = await ask(mine.id, mine.staff.token, {
      networks: Array.from({ length: MAX_VENUE_NETWORKS + 1 }, (_, i) => `192.0.2.${i + 1}`),
      note: 'Зала',
    });
    expect(tooMany.body).toEqual({ message: `Щонайбільше ${MAX_VENUE_NETWORKS} адреси чи мережі в одному запиті` });
    expect((await ask(mine.id, mine.staff.token, { networks: [' ', ''], note: 'Зала' })).body).toEqual({ message: 'Вкажіть IP-адресу або мережу (CIDR) зали' });
    expect((await ask(mine.id, mine.staff.token, { networks: ['192.0.2.1'] })).body).toEqual({ message: 'Вкажіть назву зали' });
    expect((await ask(mine.id, mine.staff.token, { networks: ['192.0.2.1'], note: 'я'.repeat(101) })).body).toEqual({
      message: 'Назва зали — не довше 100 символів',
    });
    expect(await rowsOf(mine.id)).toEqual([]);
    expect(
      await api.db
        .select({ n: count() })
        .from(auditLog)
        .where(and(eq(auditLog.tournamentId, mine.id), eq(auditLog.kind, 'venueRequested'))),
    ).toEqual([{ n: 0 }]);
  });
});

describe('the admin’s decision', () => {
  it('is the admin’s alone; it is recorded with who and when, rings the organisers, and is made once', async () => {
    const mine = await cup();
    const asked = await ask(mine.id, mine.staff.token, { networks: ['192.0.2.20'], note: 'Зала «Схід»' });
    const id = asked.body.request._id;
    expect((await decide(id, 'approved', mine.staff.token)).status).toBe(403);
    expect((await decide(id, 'approved', (await player(api)).token)).status).toBe(403);
    expect((await api.call('PATCH', `/api/venue-networks/${id}`, { body: { status: 'approved' } })).status).toBe(401);
    expect((await api.call('GET', '/api/venue-networks', { token: mine.staff.token })).status).toBe(403);
    expect((await rowsOf(mine.id))[0]!.status).toBe('pending');

    const list = await api.call<VenueNetwork[]>('GET', '/api/venue-networks', { token: (await admin(api)).token });
    expect(list.body.find((r) => r._id === id)).toMatchObject({ status: 'pending', tournament: { _id: mine.id, title: mine.title } });

    const bad = await api.call('PATCH', `/api/venue-networks/${id}`, { token: (await admin(api)).token, body: { status: 'withdrawn' } });
    expect(bad.body).toEqual({ message: 'Рішення — approved (схвалити) або refused (відхилити)' });
    const approved = await decide(id, 'approved');
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Мережу зали «Зала «Схід»» схвалено');
    expect(approved.body.request).toMatchObject({ status: 'approved', decidedBy: { _id: (await admin(api)).user.id }, inEffect: true });
    expect(approved.body.request.decidedAt).not.toBeNull();
    expect((await decide(id, 'refused')).status).toBe(409);
    expect((await decide(randomUUID(), 'refused')).status).toBe(404);

    const bell = await api.db.select().from(notifications).where(eq(notifications.userId, mine.staff.user.id));
    expect(bell.map((n) => n.text)).toContain(
      `Мережу зали «Зала «Схід»» для турніру «${mine.title}» схвалено: у вікні турніру гравців з неї не обмежує ліміт на адресу.`,
    );
  });

  it('writes request, approval, refusal and withdrawal to the audit log; the tournament’s history shows them to its organisers, not to guests', async () => {
    const mine = await cup();
    const first = await ask(mine.id, mine.staff.token, { networks: ['192.0.2.30'], note: 'Зала' });
    await decide(first.body.request._id, 'refused');
    const second = await ask(mine.id, mine.staff.token, { networks: ['192.0.2.31'], note: 'Зала 2' });
    await decide(second.body.request._id, 'approved');
    expect((await api.call('DELETE', path(mine.id), { token: mine.staff.token })).status).toBe(200);
    const rows = await api.db
      .select({ kind: auditLog.kind, actor: auditLog.actorId })
      .from(auditLog)
      .where(and(eq(auditLog.tournamentId, mine.id), inArray(auditLog.kind, ['venueRequested', 'venueApproved', 'venueRefused', 'venueWithdrawn'])))
      .orderBy(auditLog.createdAt);
    const boss = (await admin(api)).user.id;
    expect(rows).toEqual([
      { kind: 'venueRequested', actor: mine.staff.user.id },
      { kind: 'venueRefused', actor: boss },
      { kind: 'venueRequested', actor: mine.staff.user.id },
      { kind: 'venueApproved', actor: boss },
      { kind: 'venueWithdrawn', actor: mine.staff.user.id },
    ]);
    const forGuests = await api.call<{ kind: string }[]>('GET', `/api/tournaments/${mine.id}/history`);
    expect(forGuests.body.filter((e) => e.kind.startsWith('venue'))).toEqual([]);
    const forOrganisers = await api.call<{ kind: string }[]>('GET', `/api/tournaments/${mine.id}/history`, { token: mine.staff.token });
    expect(forOrganisers.body.filter((e) => e.kind.startsWith('venue'))).toHaveLength(5);
    // Withdrawn, the tournament has none; a new one may be asked for.
    expect((await api.call<TournamentVenue>('GET', path(mine.id), { token: mine.staff.token })).body.request).toBeNull();
    expect((await api.call('DELETE', path(mine.id), { token: mine.staff.token })).status).toBe(404);
  });
});

describe('registrations from an organiser’s venue network', () => {
  const NETWORK = '198.18.57.0/24';

  it(
    `a burst of 200 from an address whose hour is spent is held until the network is approved, passes while it is, and is held again once withdrawn`,
    async () => {
      const mine = await cup();
      const hall = '198.18.57.10';
      await spendHour(hall);
      const asked = await ask(mine.id, mine.staff.token, { networks: [NETWORK], note: 'LAN-вечірка' });
      // Asked for, not approved: the address is held by its hour's share.
      expect(await burst(200, hall)).toEqual({ 429: 200 });
      await decide(asked.body.request._id, 'approved');
      expect(await burst(200, hall)).toEqual({ 201: 200 });
      // An address outside the network is counted as any other.
      const outside = '198.18.58.10';
      await spendHour(outside);
      expect(await burst(5, outside)).toEqual({ 429: 5 });
      expect((await api.call('DELETE', path(mine.id), { token: mine.staff.token })).status).toBe(200);
      expect(await burst(200, hall)).toEqual({ 429: 200 });
    },
    SLOW,
  );

  it('holds an approved network outside its window, and a refused one always', async () => {
    const later = await cup(24 * 10);
    const lan = '198.18.60.10';
    await spendHour(lan);
    const asked = await ask(later.id, later.staff.token, { networks: ['198.18.60.0/24'], note: 'Через десять днів' });
    expect((await decide(asked.body.request._id, 'approved')).body.request.inEffect).toBe(false);
    expect(await burst(20, lan)).toEqual({ 429: 20 });

    const soon = await cup();
    const club = '198.18.61.10';
    await spendHour(club);
    const refused = await ask(soon.id, soon.staff.token, { networks: [club], note: 'Клуб' });
    await decide(refused.body.request._id, 'refused');
    expect(await burst(20, club)).toEqual({ 429: 20 });
  });

  it(`reaches another instance within ${VENUE_RELOAD_MS / 1000} s of the approval`, async () => {
    const mine = await cup();
    const hall = '198.18.62.10';
    // Another instance on the same database, which read the approved networks at its start.
    const elsewhere = new ApprovedVenueNetworks(api.db);
    await elsewhere.reload();
    const asked = await ask(mine.id, mine.staff.token, { networks: ['198.18.62.0/24'], note: 'Зала' });
    await decide(asked.body.request._id, 'approved');
    // Within its interval it still counts the address.
    expect(elsewhere.has(hall)).toBe(false);
    // Past it, the next request reads them again.
    elsewhere.has(hall, Date.now() + VENUE_RELOAD_MS);
    await vi.waitFor(() => expect(elsewhere.has(hall)).toBe(true));
    expect(elsewhere.has('198.18.63.10')).toBe(false);
  });
});

describe('the admin’s list', () => {
  it('shows waiting requests first, then approved ones, of tournaments not over', async () => {
    const waiting = await cup(5);
    const approvedCup = await cup(3);
    const token = (await admin(api)).token;
    const a = await ask(approvedCup.id, approvedCup.staff.token, { networks: ['192.0.2.40'], note: unique('Зала ') });
    await decide(a.body.request._id, 'approved');
    const w = await ask(waiting.id, waiting.staff.token, { networks: ['192.0.2.41'], note: unique('Зала ') });
    const list = (await api.call<VenueNetwork[]>('GET', '/api/venue-networks', { token })).body;
    const at = (id: string) => list.findIndex((r) => r._id === id);
    expect(at(w.body.request._id)).toBeGreaterThanOrEqual(0);
    expect(at(w.body.request._id)).toBeLessThan(at(a.body.request._id));
    expect(list.every((r, i) => i === 0 || !(r.status === 'pending' && list[i - 1]!.status === 'approved'))).toBe(true);
  });
});
