import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { teams, users } from '../../src/server/db/schema/index.ts';
import { seedDemo } from '../../src/server/db/seed.ts';
import { hashPassword } from '../../src/server/services/accounts/accounts.ts';
import { backfillNameSkeletons } from '../../src/server/services/accounts/names.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
const LOOK_ALIKE_USER = 'Цей нікнейм на вигляд не відрізнити від уже зайнятого (схожі літери з інших абеток чи символи): оберіть інший';
const INVISIBLE_USER = 'Нікнейм містить невидимі або службові символи (нульової ширини, зміни напрямку тексту, порожні заповнювачі): приберіть їх';
const LOOK_ALIKE_TEAM = 'Ця назва на вигляд не відрізняється від назви іншої команди (схожі літери з інших абеток чи символи): оберіть іншу';
const INVISIBLE_TEAM = 'Назва містить невидимі або службові символи (нульової ширини, зміни напрямку тексту, порожні заповнювачі): приберіть їх';

let address = 0;
/** Registrations from different addresses, so the per-address limit never answers instead. */
const register = (username: string) =>
  api.call('POST', '/api/auth/register', {
    body: { username, email: `${randomUUID().slice(0, 8)}@example.test`, password: 'hunter2hunter2' },
    ip: `198.51.100.${++address}`,
  });

const userNamed = async (username: string) => (await api.db.select().from(users).where(eq(users.username, username)))[0];

describe('usernames', () => {
  it('refuses a name that looks like a taken one, in any script and case, with 409', async () => {
    await api.signedIn('admin', 'admin');
    await api.signedIn('user', 'KozakSniper');
    for (const name of ['аdmin', 'ΚozakSniper', 'КozakSniper', 'ΚOZAKSNIPER', 'KozakSnіper', 'adrnin']) {
      const res = await register(name);
      expect(res.status, name).toBe(409);
      expect(res.body.message).toBe(LOOK_ALIKE_USER);
      expect(await userNamed(name)).toBeUndefined();
    }
  });

  it('stores fullwidth letters as plain ones, so the same name in fullwidth is simply taken', async () => {
    const first = await register('Ｓｔｅｐａｎ_UA');
    expect(first.status).toBe(201);
    expect(await userNamed('Stepan_UA')).toBeDefined();
    const again = await register('ｓｔｅｐａｎ_ua');
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Цей нікнейм уже зайнятий');
  });

  it('refuses invisible, format and filler characters with a Ukrainian 400', async () => {
    for (const name of ['ㅤㅤㅤ', 'ad\u200Bmin2', 'ad\u200Dmin3', '\u202Eadmin4', 'admin\u2066x', '\u115F\u1160abc', 'abc\uFFA0', '\u2800\u2800\u2800', 'ab\u00ADcd', 'nick\uFE0F']) {
      const res = await register(name);
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.message).toBe(INVISIBLE_USER);
    }
  });

  it('lets only one of two look-alike registrations at the same moment through', async () => {
    const results = await Promise.all([register('Dnister_Wave'), register('Dnіster_Wave'), register('Dnister_Wаve')]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('applies the same rules to a nickname change in the cabinet', async () => {
    await api.signedIn('user', 'LvivLion');
    const { token, user } = await api.signedIn();
    const lookAlike = await api.call('PUT', '/api/cabinet/me', { token, body: { username: 'LvivLіon' } });
    expect(lookAlike.status).toBe(409);
    expect(lookAlike.body.message).toBe(LOOK_ALIKE_USER);
    const hidden = await api.call('PUT', '/api/cabinet/me', { token, body: { username: 'Lviv\u200BLion' } });
    expect(hidden.status).toBe(400);
    expect(hidden.body.message).toBe(INVISIBLE_USER);
    expect((await userNamed(user.username))?.id).toBe(user.id);

    // A player may change the case of their own name: it looks like nobody else's.
    const own = await api.call('PUT', '/api/cabinet/me', { token, body: { username: user.username.toUpperCase() } });
    expect(own.status).toBe(200);
  });
});

describe('team names', () => {
  it('refuses a look-alike of another team (409) and invisible characters (400)', async () => {
    const captain = await api.signedIn();
    expect((await api.call('POST', '/api/teams', { token: captain.token, body: { name: 'Dnipro Dragons' } })).status).toBe(201);
    for (const name of ['Dniрro Dragons', 'DNIPRO DRAGОNS', 'Dnipro Drag0ns']) {
      const other = await api.signedIn();
      const res = await api.call('POST', '/api/teams', { token: other.token, body: { name } });
      expect(res.status, name).toBe(409);
      expect(res.body.message).toBe(LOOK_ALIKE_TEAM);
    }
    const other = await api.signedIn();
    const fullwidth = await api.call('POST', '/api/teams', { token: other.token, body: { name: 'Ｄｎｉｐｒｏ Ｄｒａｇｏｎｓ' } });
    expect(fullwidth.status).toBe(409);
    expect(fullwidth.body.message).toBe('Команда з такою назвою вже існує');
    for (const name of ['ㅤㅤㅤ', 'Odesa\u200BStorm', '\u202EStorm', 'Storm\u2028Two']) {
      const res = await api.call('POST', '/api/teams', { token: other.token, body: { name } });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.body.message).toBe(INVISIBLE_TEAM);
    }
  });

  it('lets only one of two look-alike teams made at the same moment through', async () => {
    const [a, b] = [await api.signedIn(), await api.signedIn()];
    const results = await Promise.all([
      api.call('POST', '/api/teams', { token: a.token, body: { name: 'Karpaty Wolves' } }),
      api.call('POST', '/api/teams', { token: b.token, body: { name: 'Kаrpaty Wolves' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('names from before the check', () => {
  it('get their skeletons on start-up, the older of two look-alikes keeping its own', async () => {
    const passwordHash = await hashPassword('correct-horse-9');
    const old = (name: string, minutesAgo: number) => ({
      username: name,
      email: `${randomUUID().slice(0, 8)}@example.test`,
      passwordHash,
      createdAt: new Date(Date.now() - minutesAgo * 60_000),
    });
    // Written as the code before the columns did: no skeletons.
    const [older, later, alone] = await api.db
      .insert(users)
      .values([old('Mavka_Mid', 30), old('Mаvka_Mid', 20), old('Tryzub_Tank', 10)])
      .returning();
    const [team] = await api.db.insert(teams).values({ name: 'Odesa Storm', captainId: older!.id }).returning();

    const first = await backfillNameSkeletons(api.db);
    expect(first.grandfathered).toBe(1);
    const row = async (id: string) => (await api.db.select().from(users).where(eq(users.id, id)))[0]!;
    expect((await row(older!.id)).nameSkeleton).not.toBeNull();
    expect((await row(later!.id)).nameSkeleton).toBeNull();
    expect((await row(later!.id)).username).toBe('Mаvka_Mid');
    expect((await row(alone!.id)).nameSkeletonUpper).not.toBeNull();
    expect((await api.db.select().from(teams).where(eq(teams.id, team!.id)))[0]?.nameSkeleton).not.toBeNull();

    // Nothing left to do on the next start; and the old names are guarded from now on.
    expect(await backfillNameSkeletons(api.db)).toEqual({ filled: 0, grandfathered: 1 });
    expect((await register('Mavka_Mіd')).status).toBe(409);
    const captain = await api.signedIn();
    expect((await api.call('POST', '/api/teams', { token: captain.token, body: { name: 'Оdesa Storm' } })).status).toBe(409);
  });
});

describe('demo data', () => {
  it('still seeds beside real names that look like its own, stepping around them', { timeout: 60_000 }, async () => {
    // By now this database has KozakSniper, LvivLion, Mavka_Mid and its look-alike, Dnipro Dragons and Odesa Storm.
    await api.signedIn('user', 'Неtman_AWP');
    expect(await seedDemo(api.db)).toBe(true);
    const names = (await api.db.select({ username: users.username }).from(users)).map((r) => r.username);
    expect(names).toContain('Hetman_AWP1');
    expect(names).toContain('KozakSniper1');
    const teamNames = (await api.db.select({ name: teams.name }).from(teams)).map((r) => r.name);
    expect(teamNames).toContain('Dnipro Dragons 2');
  });
});
