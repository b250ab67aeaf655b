import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareCardPath } from '../../src/lib/domain/share-card.ts';
import { REGISTER_LIMITS } from '../../src/server/api/routes/auth.ts';
import { SHARE_CARD_DRAWING_LIMIT } from '../../src/server/api/routes/share-cards.ts';
import { DEVICE_COOKIE } from '../../src/server/api/device.ts';
import { LETTER_LIMITS } from '../../src/server/services/accounts/letter-limits.ts';
import { LOGIN_LIMITS } from '../../src/server/services/accounts/login-attempts.ts';
import { EVENT_STREAM_LIMITS } from '../../src/server/services/live/live-streams.ts';
import { databaseLimiter } from '../../src/server/services/rate-limit.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { admin, tournament, unique, useTestApi } from '../support/builders.ts';

// Issue 57, "At a venue": a LAN, a computer club or a carrier's NAT puts hundreds of players behind
// one address. Per-address limits sit at levels such an address lives with; floods are stopped per
// device and per account as well; a venue network (TRUSTED_VENUE_NETWORKS) has no per-address
// limits at all, its devices and accounts still do (docs/decisions/035-limits-at-a-venue.md).

/** The site as any site runs: no venue network named. */
const api = useTestApi();
/** Its venue's networks: a hall's public address block and the organiser's IPv6 network. */
const VENUE_NETWORKS = ['198.51.100.0/24', '2001:db8:57::/48'];
/** A second instance on the same database and counters that names the venue's networks. */
let venue: TestApi;
beforeAll(async () => {
  venue = await createTestApi({ database: api.database, venueNetworks: VENUE_NETWORKS });
});
afterAll(() => venue?.close());

/** How many players a hall has, and how many viewers watch its final. */
const HALL = 200;
const VIEWERS = 300;
const SLOW = 180_000;

const run = randomUUID().slice(0, 6);
let named = 0;
const newcomer = () => {
  named += 1;
  const username = `v${named}_${run}`;
  return { username, email: `${username}@example.test`, password: 'hunter2hunter2' };
};
/** A device id as the server makes one: what a browser's cookie carries. */
const device = () => randomBytes(16).toString('base64url');
const withDevice = (id: string | undefined): Record<string, string> => (id ? { cookie: `${DEVICE_COOKIE}=${id}` } : {});

/** Runs `count` requests, 50 at a time, and counts their statuses. */
async function burst<T extends { status: number }>(count: number, request: (i: number) => Promise<T>): Promise<{ counts: Record<number, number>; answers: T[] }> {
  const answers: T[] = [];
  for (let start = 0; start < count; start += 50) {
    answers.push(...(await Promise.all(Array.from({ length: Math.min(50, count - start) }, (_, j) => request(start + j)))));
  }
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return { counts, answers };
}

const register = (on: TestApi, ip: string, id?: string) => on.call('POST', '/api/auth/register', { body: newcomer(), ip, headers: withDevice(id) });

describe('registrations at a venue', () => {
  it(`without a venue network: a hall of ${HALL} registering at once from one address is served, and a flood from it stops at the address's hourly share`, async () => {
    const hall = '203.0.113.57';
    expect((await burst(HALL, () => register(api, hall))).counts).toEqual({ 201: HALL });
    const flood = 150;
    const { counts, answers } = await burst(flood, () => register(api, hall));
    const left = REGISTER_LIMITS.address.max - HALL;
    expect(counts).toEqual({ 201: left, 429: flood - left });
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.body).toEqual({ message: expect.stringMatching(/^Забагато реєстрацій з вашої адреси\. Спробуйте знову через \d+ (хвилин|хвилини|хвилину)\.$/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(59 * 60);
    // The flood was that address's alone.
    expect((await register(api, '203.0.113.58')).status).toBe(201);
  }, SLOW);

  it(`with a venue network named: its address registers past the ${REGISTER_LIMITS.address.max} an hour any other address gets`, async () => {
    const hall = '198.51.100.57';
    expect((await burst(HALL, () => register(venue, hall))).counts).toEqual({ 201: HALL });
    const more = REGISTER_LIMITS.address.max - HALL + 1;
    expect((await burst(more, () => register(venue, hall))).counts).toEqual({ 201: more });
    // Outside its networks the same instance counts an address as any other.
    const outside = '203.0.113.59';
    expect((await burst(HALL, () => register(venue, outside))).counts).toEqual({ 201: HALL });
    expect((await burst(more, () => register(venue, outside))).counts).toEqual({ 201: more - 1, 429: 1 });
  }, SLOW);

  it('stops a flood from one device at its hourly share, inside a venue network too', async () => {
    const flood = REGISTER_LIMITS.device.max + 5;
    for (const [on, ip] of [
      [venue, '198.51.100.60'],
      [api, '203.0.113.60'],
    ] as const) {
      const browser = device();
      const { counts, answers } = await burst(flood, () => register(on, ip, browser));
      expect(counts, ip).toEqual({ 201: REGISTER_LIMITS.device.max, 429: 5 });
      expect(answers.find((answer) => answer.status === 429)!.body).toEqual({ message: expect.stringMatching(/^Забагато реєстрацій з цього пристрою\. Спробуйте знову через/) });
      // Another browser behind the same address is not held up.
      expect((await register(on, ip, device())).status, ip).toBe(201);
    }
  });

  it("spends none of the address's share on a device's refused attempts", async () => {
    const hall = '203.0.113.61';
    const greedy = device();
    const { counts } = await burst(REGISTER_LIMITS.device.max + 40, () => register(api, hall, greedy));
    expect(counts[201]).toBe(REGISTER_LIMITS.device.max);
    // Everyone else behind the address still has the rest of its hour.
    const rest = REGISTER_LIMITS.address.max - REGISTER_LIMITS.device.max;
    expect((await burst(rest, () => register(api, hall))).counts).toEqual({ 201: rest });
    expect((await register(api, hall)).status).toBe(429);
  }, SLOW);

  it('gives a browser its device id in an HttpOnly cookie under /api, and keeps one it already has', async () => {
    const first = await register(api, '203.0.113.62');
    expect(first.status).toBe(201);
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{22}; Max-Age=31536000; Path=/api; HttpOnly; Secure; SameSite=Lax`));
    const id = /=([A-Za-z0-9_-]{22})/.exec(cookie)![1];
    const again = await register(api, '203.0.113.62', id);
    expect(again.status).toBe(201);
    expect(again.headers.get('set-cookie') ?? '').not.toContain(DEVICE_COOKIE);
    // Anything that is not an id the server could have made is replaced.
    const forged = await register(api, '203.0.113.62', 'x'.repeat(300));
    expect(forged.headers.get('set-cookie')).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{22};`));
  });
});

describe('letters and sign-ins at a venue', () => {
  const resend = (on: TestApi, ip: string, id?: string) =>
    on.call('POST', '/api/auth/resend-confirmation', { body: { email: `${unique('again_')}@example.test` }, ip, headers: withDevice(id) });

  it('lets an address ask for its letters again at a hall’s pace, a venue network without a count, and one browser five', async () => {
    const { counts, answers } = await burst(LETTER_LIMITS.address.max + 1, () => resend(api, '203.0.113.63'));
    expect(counts).toEqual({ 200: LETTER_LIMITS.address.max, 429: 1 });
    expect(answers.find((answer) => answer.status === 429)!.body).toEqual({ message: expect.stringMatching(/^Забагато спроб\. Спробуйте знову через/) });
    expect((await burst(LETTER_LIMITS.address.max + 10, () => resend(venue, '198.51.100.63'))).counts).toEqual({ 200: LETTER_LIMITS.address.max + 10 });
    const browser = device();
    expect((await burst(LETTER_LIMITS.caller.max + 1, () => resend(venue, '198.51.100.63', browser))).counts).toEqual({ 200: LETTER_LIMITS.caller.max, 429: 1 });
  });

  it('counts no failed sign-ins across accounts from a venue network, while one account from it is still guarded', async () => {
    const guess = (on: TestApi, ip: string, loginOrEmail = unique('nobody_')) => on.call('POST', '/api/auth/login', { body: { loginOrEmail, password: 'wrong-wrong' }, ip });
    const many = LOGIN_LIMITS.address.max + 10;
    expect((await burst(many, () => guess(api, '203.0.113.64'))).counts).toEqual({ 401: LOGIN_LIMITS.address.max, 429: 10 });
    expect((await burst(many, () => guess(venue, '198.51.100.64'))).counts).toEqual({ 401: many });
    const target = unique('rival_');
    expect((await burst(LOGIN_LIMITS.pair.max + 1, () => guess(venue, '198.51.100.64', target))).counts).toEqual({ 401: LOGIN_LIMITS.pair.max, 429: 1 });
  }, SLOW);

  it('draws share cards for a venue network past the drawings an address may cause', async () => {
    const hall = '198.51.100.65';
    const limits = databaseLimiter(api.db);
    // The address has caused its drawings for this minute (counted as the route counts them).
    for (let i = 0; i < SHARE_CARD_DRAWING_LIMIT.max; i++) await limits.hit(`og:ip:${hall}`, SHARE_CARD_DRAWING_LIMIT);
    const { token } = await admin(api);
    const news = await api.call<{ _id: string }>('POST', '/api/news', { token, body: { title: unique('Зала '), content: 'Текст.' } });
    const path = shareCardPath('news', news.body._id, 'uk');
    expect((await api.call('GET', path, { ip: hall })).status).toBe(429);
    expect((await venue.call('GET', path, { ip: hall })).status).toBe(200);
  }, 60_000);
});

/** Opens streams that stay open (a test's `call` would close them at once); `close` ends them all. */
function streams() {
  const open: Response[] = [];
  return {
    async open(on: TestApi, path: string, ip: string, headers: Record<string, string> = {}) {
      const response = await on.app.request(path, { headers }, { clientAddress: ip });
      if (response.status === 200) open.push(response);
      return response;
    },
    close: () => Promise.all(open.splice(0).map((response) => response.body?.cancel())),
  };
}

describe('live streams at a venue', () => {
  it(`without a venue network: ${VIEWERS} viewers of a final behind one address get ${EVENT_STREAM_LIMITS.perAddress} streams; the rest hear 429 in Ukrainian and read by polling`, async () => {
    const final = await tournament(api, { soloOnly: true });
    const held = streams();
    try {
      const hall = '203.0.113.70';
      const { counts, answers } = await burst(VIEWERS, () => held.open(api, `/api/tournaments/${final.id}/events`, hall));
      const refused = VIEWERS - EVENT_STREAM_LIMITS.perAddress;
      expect(counts).toEqual({ 200: EVENT_STREAM_LIMITS.perAddress, 429: refused });
      const no = answers.find((answer) => answer.status === 429)!;
      expect(no.headers.get('retry-after')).toBe('3');
      expect(await no.json()).toEqual({ message: expect.stringMatching(/^Забагато відкритих оновлень наживо з вашої адреси/) });
      // Past the cap a page polls (lib/live/events.ts): the reads it needs are not counted per address.
      expect((await burst(refused, () => api.call('GET', `/api/tournaments/${final.id}`, { ip: hall }))).counts).toEqual({ 200: refused });
      // The address holds its share only: another viewer elsewhere is live.
      expect((await held.open(api, `/api/tournaments/${final.id}/events`, '203.0.113.71')).status).toBe(200);
    } finally {
      await held.close();
    }
  }, SLOW);

  it(`with a venue network named: all ${VIEWERS} viewers behind its address are live`, async () => {
    const final = await tournament(api, { soloOnly: true });
    const held = streams();
    try {
      const { counts } = await burst(VIEWERS, () => held.open(venue, `/api/tournaments/${final.id}/events`, '198.51.100.70'));
      expect(counts).toEqual({ 200: VIEWERS });
    } finally {
      await held.close();
    }
  }, SLOW);

  it('holds one device to its share of streams, inside a venue network too, and gives a new one its cookie', async () => {
    const final = await tournament(api, { soloOnly: true });
    const perDevice = EVENT_STREAM_LIMITS.perDevice!;
    const held = streams();
    try {
      for (const [on, ip] of [
        [venue, '198.51.100.71'],
        [api, '203.0.113.72'],
      ] as const) {
        const browser = withDevice(device());
        const { counts, answers } = await burst(perDevice + 2, () => held.open(on, `/api/tournaments/${final.id}/events`, ip, browser));
        expect(counts, ip).toEqual({ 200: perDevice, 429: 2 });
        expect(await answers.find((answer) => answer.status === 429)!.json()).toEqual({ message: expect.stringMatching(/^Забагато відкритих оновлень наживо з цього пристрою чи акаунта/) });
        expect(answers.find((answer) => answer.status === 200)!.headers.get('set-cookie')).toBeNull();
      }
      const fresh = await held.open(venue, `/api/tournaments/${final.id}/events`, '198.51.100.71');
      expect(fresh.status).toBe(200);
      expect(fresh.headers.get('set-cookie')).toMatch(new RegExp(`^${DEVICE_COOKIE}=[A-Za-z0-9_-]{22};.*HttpOnly`));
    } finally {
      await held.close();
    }
  });

  it("holds one account's own stream to its share, from any address and device", async () => {
    const reader = await venue.signedIn();
    const perAccount = EVENT_STREAM_LIMITS.perAccount!;
    const held = streams();
    try {
      const { counts } = await burst(perAccount + 2, (i) =>
        held.open(venue, '/api/users/me/events', i % 2 === 0 ? '198.51.100.72' : `203.0.113.${80 + i}`, { authorization: `Bearer ${reader.token}`, ...withDevice(device()) }),
      );
      expect(counts).toEqual({ 200: perAccount, 429: 2 });
    } finally {
      await held.close();
    }
  });
});
