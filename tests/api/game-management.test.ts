import { beforeAll, describe, expect, it } from 'vitest';
import type { ManagedGame, StatsConfig } from '../../src/lib/api/game-management.ts';
import { STATS_TEMPLATE_DEFINITIONS } from '../../src/lib/domain/stat-templates.ts';
import { addAchievement, addStatField, getStatsConfig } from '../../src/server/services/competition/game-management.ts';
import { useTestApi } from '../support/builders.ts';

const api = useTestApi();
let admin: string;
let player: string;

beforeAll(async () => {
  admin = (await api.signedIn('admin')).token;
  player = (await api.signedIn('user')).token;
});

const MISSING = '00000000-0000-4000-8000-000000000000';
const BASE = '/api/game-management';

type Setup = { message: string; game: ManagedGame; config: StatsConfig };

async function createGame(name: string, image?: string): Promise<string> {
  const res = await api.call<{ game: { _id: string } }>('POST', '/api/games', { token: admin, body: { name, ...(image ? { image } : {}) } });
  expect(res.status).toBe(201);
  return res.body.game._id;
}

async function setup(name: string, template = 'default'): Promise<Setup> {
  const res = await api.call<Setup>('POST', `${BASE}/setup`, { token: admin, body: { name, template } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function list(): Promise<ManagedGame[]> {
  return (await api.call<ManagedGame[]>('GET', `${BASE}/list`)).body;
}

/** Every admin route with a valid body, for the permission checks. */
function adminCalls(gameId: string, achievementId: string): [string, string, unknown][] {
  return [
    ['POST', `${BASE}/setup`, { name: 'Permission Game' }],
    ['POST', `${BASE}/setup-popular`, undefined],
    ['POST', `${BASE}/${gameId}/add-stat-field`, { fieldName: 'permissionField', displayName: 'Поле' }],
    ['POST', `${BASE}/${gameId}/add-achievement`, { name: 'Permission', description: 'Опис', condition: 'wins >= 1' }],
    ['DELETE', `${BASE}/${gameId}/stat-fields/kills`, undefined],
    ['DELETE', `${BASE}/${gameId}/achievements/${achievementId}`, undefined],
  ];
}

describe('permissions', () => {
  it('refuses every admin route to guests (401) and to players (403), and changes nothing', async () => {
    const { game, config } = await setup('Permissions Arena');
    const before = await getStatsConfig(api.db, game._id);
    for (const [method, path, body] of adminCalls(game._id, config.gameAchievements[0]!._id)) {
      const guest = await api.call(method, path, body === undefined ? {} : { body });
      expect(guest.status, `${method} ${path}`).toBe(401);
      expect(guest.body.message).toBe('Потрібно увійти');
      const user = await api.call(method, path, { token: player, ...(body === undefined ? {} : { body }) });
      expect(user.status, `${method} ${path}`).toBe(403);
      expect(user.body.message).toBe('Доступ лише для адміністратора');
    }
    expect(await getStatsConfig(api.db, game._id)).toEqual(before);
    expect((await list()).some((g) => g.name === 'Permission Game' || g.name === 'CS2')).toBe(false);
  });
});

describe('list and config (public)', () => {
  it('lists every game with _id, name, image and hasStatsConfig, by name, cacheable for guests', async () => {
    await createGame('Zz Unconfigured', '/games/lol.jpg');
    await setup('Aa Configured');
    const res = await api.call<ManagedGame[]>('GET', `${BASE}/list`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.body.find((g) => g.name === 'Zz Unconfigured')).toEqual({ _id: expect.any(String), name: 'Zz Unconfigured', image: '/games/lol.jpg', hasStatsConfig: false });
    expect(res.body.find((g) => g.name === 'Aa Configured')).toMatchObject({ hasStatsConfig: true, image: null });
    const names = res.body.map((g) => g.name);
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names);
    expect(res.headers.get('cache-control')).toContain('s-maxage=30');
    expect((await api.call('GET', `${BASE}/list`, { token: player })).headers.get('cache-control')).toBe('private, no-store');
  });

  it('serves one config at both paths, with the fields and achievements in SPEC §3 names', async () => {
    const { game } = await setup('Twin Paths', 'cs2');
    const a = await api.call<StatsConfig>('GET', `${BASE}/${game._id}/stats-config`);
    const b = await api.call<StatsConfig>('GET', `${BASE}/config/${game._id}`);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.gameId).toBe(game._id);
    expect(a.body.template).toBe('cs2');
    expect(Object.keys(a.body.statsFields[0]!).sort()).toEqual(['category', 'description', 'displayName', 'fieldName', 'fieldType', 'icon', 'isMainStat', 'key'].sort());
    expect(Object.keys(a.body.gameAchievements[0]!).sort()).toEqual(['_id', 'condition', 'description', 'icon', 'name', 'rarity'].sort());
    expect(a.body.statsFields[0]!.key).toBe(a.body.statsFields[0]!.fieldName);
  });

  it('answers 404 «Конфігурацію не знайдено» for a game without config, 404 for no game, 400 for a bad id', async () => {
    const id = await createGame('No Config Yet');
    for (const path of [`${BASE}/${id}/stats-config`, `${BASE}/config/${id}`]) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(404);
      expect(res.body.message).toBe('Конфігурацію не знайдено');
    }
    expect((await api.call('GET', `${BASE}/${MISSING}/stats-config`)).status).toBe(404);
    for (const path of [`${BASE}/not-a-uuid/stats-config`, `${BASE}/config/42`]) {
      const res = await api.call('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body.message).toBe('Некоректний ідентифікатор');
    }
  });
});

describe('setup', () => {
  it('creates a game that does not exist yet and configures it with the template', async () => {
    const res = await api.call<Setup>('POST', `${BASE}/setup`, { token: admin, body: { name: '  Deadlock  ', image: '/games/dota2.jpg', template: 'dota2' } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Гру «Deadlock» додано й налаштовано статистику (шаблон «Dota 2»)');
    expect(res.body.game).toEqual({ _id: expect.any(String), name: 'Deadlock', image: '/games/dota2.jpg', hasStatsConfig: true });
    const template = STATS_TEMPLATE_DEFINITIONS.dota2;
    expect(res.body.config.statsFields.map((f) => f.fieldName)).toEqual(template.statsFields.map((f) => f.fieldName));
    expect(res.body.config.gameAchievements.map((a) => a.name)).toEqual(template.gameAchievements.map((a) => a.name));
    const games = await api.call<{ name: string }[]>('GET', '/api/games');
    expect(games.body.filter((g) => g.name === 'Deadlock')).toHaveLength(1);
  });

  it('uses the template default when none is given', async () => {
    const { config } = await setup('Template Default Game', undefined as unknown as string);
    expect(config.template).toBe('default');
    expect(config.statsFields.map((f) => f.fieldName)).toEqual(STATS_TEMPLATE_DEFINITIONS.default.statsFields.map((f) => f.fieldName));
  });

  it('configures an existing game found by name in any letter case, keeping its picture, or filling a missing one', async () => {
    const id = await createGame('Apex Legends', '/games/apex.jpg');
    const res = await api.call<Setup>('POST', `${BASE}/setup`, { token: admin, body: { name: 'APEX legends', image: '/other.jpg', template: 'default' } });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Статистику для гри «Apex Legends» налаштовано (шаблон «Загальний»)');
    expect(res.body.game).toEqual({ _id: id, name: 'Apex Legends', image: '/games/apex.jpg', hasStatsConfig: true });

    const bare = await createGame('Bare Game');
    const filled = await api.call<Setup>('POST', `${BASE}/setup`, { token: admin, body: { name: 'Bare Game', image: '/games/bare.jpg' } });
    expect(filled.body.game).toMatchObject({ _id: bare, image: '/games/bare.jpg' });
  });

  it('refuses a game that is already configured (409) and leaves its config alone', async () => {
    const { game, config } = await setup('Configured Once', 'lol');
    const again = await api.call('POST', `${BASE}/setup`, { token: admin, body: { name: 'configured once', template: 'cs2' } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Статистику для гри «Configured Once» вже налаштовано');
    expect(await getStatsConfig(api.db, game._id)).toEqual(config);
  });

  it('validates the body: name required, template one of five, picture a link or site path', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: '   ' }, /^Поле «Назва» обовʼязкове$/],
      [{}, /^Поле «Назва» обовʼязкове$/],
      [{ name: 'X', template: 'fortnite' }, /очікується одне з/],
      [{ name: 'X', image: 'javascript:alert(1)' }, /Зображення/],
      [{ name: 'x'.repeat(61) }, /задовге/],
    ];
    for (const [body, message] of cases) {
      const res = await api.call('POST', `${BASE}/setup`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.message).toMatch(message);
    }
    expect((await list()).some((g) => g.name === 'X')).toBe(false);
  });

  it('lets one of two simultaneous setups of a new game win; the other gets 409 and no second game', async () => {
    const [a, b] = await Promise.all([
      api.call('POST', `${BASE}/setup`, { token: admin, body: { name: 'Race Game', template: 'cs2' } }),
      api.call('POST', `${BASE}/setup`, { token: admin, body: { name: 'RACE GAME', template: 'valorant' } }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await list()).filter((g) => g.name.toLowerCase() === 'race game')).toHaveLength(1);
  });
});

describe('setup-popular', () => {
  it('configures CS2, Valorant, League of Legends and Dota 2, reusing a game of the same name, and a second call changes nothing', async () => {
    const existing = await createGame('cs2');
    const first = await api.call<{ message: string; configured: string[]; unchanged: string[] }>('POST', `${BASE}/setup-popular`, { token: admin });
    expect(first.status).toBe(200);
    expect(first.body.configured).toEqual(['cs2', 'Valorant', 'League of Legends', 'Dota 2']);
    expect(first.body.unchanged).toEqual([]);
    expect(first.body.message).toBe('Налаштовано: cs2, Valorant, League of Legends, Dota 2');

    const games = await list();
    for (const name of ['cs2', 'Valorant', 'League of Legends', 'Dota 2']) {
      expect(games.filter((g) => g.name === name), name).toEqual([expect.objectContaining({ hasStatsConfig: true })]);
    }
    expect(games.find((g) => g.name === 'cs2')!._id).toBe(existing);
    expect(games.find((g) => g.name === 'Valorant')!.image).toBe('/games/valorant.jpg');
    const cs2 = await getStatsConfig(api.db, existing);
    expect(cs2!.template).toBe('cs2');
    expect(cs2!.statsFields.map((f) => f.fieldName)).toContain('bombPlants');

    const snapshot = await Promise.all(games.map((g) => getStatsConfig(api.db, g._id)));
    const second = await api.call<{ message: string; configured: string[]; unchanged: string[] }>('POST', `${BASE}/setup-popular`, { token: admin });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({
      message: 'Популярні ігри вже налаштовано — нічого не змінено',
      configured: [],
      unchanged: ['cs2', 'Valorant', 'League of Legends', 'Dota 2'],
    });
    expect(await list()).toEqual(games);
    expect(await Promise.all(games.map((g) => getStatsConfig(api.db, g._id)))).toEqual(snapshot);
  });
});

describe('add-stat-field', () => {
  it('adds a field with the defaults of SPEC §3: number, general, not main, no description, 📊', async () => {
    const { game } = await setup('Field Defaults');
    const res = await api.call<{ message: string; field: Record<string, unknown> }>('POST', `${BASE}/${game._id}/add-stat-field`, {
      token: admin,
      body: { fieldName: 'headshots', displayName: '  Постріли в голову  ' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Поле «Постріли в голову» додано');
    expect(res.body.field).toEqual({
      fieldName: 'headshots',
      key: 'headshots',
      displayName: 'Постріли в голову',
      fieldType: 'number',
      category: 'general',
      isMainStat: false,
      description: '',
      icon: '📊',
    });
    const config = await api.call<StatsConfig>('GET', `${BASE}/${game._id}/stats-config`);
    expect(config.body.statsFields.at(-1)!.fieldName).toBe('headshots');

    const full = await api.call<{ field: Record<string, unknown> }>('POST', `${BASE}/${game._id}/add-stat-field`, {
      token: admin,
      body: { fieldName: 'accuracy', displayName: 'Точність', fieldType: 'percentage', category: 'combat', isMainStat: true, description: 'Влучання, %', icon: '🎯' },
    });
    expect(full.status).toBe(201);
    expect(full.body.field).toMatchObject({ fieldType: 'percentage', category: 'combat', isMainStat: true, description: 'Влучання, %', icon: '🎯' });
  });

  it('requires fieldName (an English identifier, ≤ 40, not reserved) and displayName; checks the enums', async () => {
    const { game } = await setup('Field Rules');
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ displayName: 'Без назви' }, 'Поле «Назва поля» обовʼязкове'],
      [{ fieldName: '  ', displayName: 'Пусте' }, 'Поле «Назва поля» обовʼязкове'],
      [{ fieldName: 'kills' }, 'Поле «Назва для показу» обовʼязкове'],
      [{ fieldName: 'kills', displayName: ' ' }, 'Поле «Назва для показу» обовʼязкове'],
      [{ fieldName: '1kills', displayName: 'X' }, /^Назва поля — англійською/],
      [{ fieldName: 'head shots', displayName: 'X' }, /^Назва поля — англійською/],
      [{ fieldName: 'вбивства', displayName: 'X' }, /^Назва поля — англійською/],
      [{ fieldName: 'bomb_plants', displayName: 'X' }, /^Назва поля — англійською/],
      [{ fieldName: 'a'.repeat(41), displayName: 'X' }, /^Поле «Назва поля» задовге \(не більше 40/],
      [{ fieldName: 'wins', displayName: 'X' }, /^Цю назву поля зайнято/],
      [{ fieldName: 'and', displayName: 'X' }, /^Цю назву поля зайнято/],
      [{ fieldName: 'x', displayName: 'X', fieldType: 'float' }, /очікується одне з/],
      [{ fieldName: 'x', displayName: 'X', category: 'magic' }, /очікується одне з/],
      [{ fieldName: 'x', displayName: 'X', isMainStat: 'yes' }, 'Поле «Основна характеристика» має неправильний тип'],
    ];
    for (const [body, message] of cases) {
      const res = await api.call('POST', `${BASE}/${game._id}/add-stat-field`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    const ok = await api.call('POST', `${BASE}/${game._id}/add-stat-field`, { token: admin, body: { fieldName: 'a'.repeat(40), displayName: 'Довге' } });
    expect(ok.status).toBe(201);
  });

  it('keeps fieldName unique per game in any letter case (409), but another game may reuse it', async () => {
    const { game } = await setup('Unique Fields');
    for (const fieldName of ['kills', 'KILLS', 'Kills']) {
      const res = await api.call('POST', `${BASE}/${game._id}/add-stat-field`, { token: admin, body: { fieldName, displayName: 'Ще раз' } });
      expect(res.status, fieldName).toBe(409);
      expect(res.body.message).toBe('Поле «kills» у цій грі вже є');
    }
    const other = await setup('Unique Fields Too');
    await api.call('DELETE', `${BASE}/${other.game._id}/achievements/${other.config.gameAchievements.find((a) => a.condition.includes('kills'))!._id}`, { token: admin });
    const removed = await api.call('DELETE', `${BASE}/${other.game._id}/stat-fields/kills`, { token: admin });
    expect(removed.status).toBe(200);
    const reused = await api.call('POST', `${BASE}/${other.game._id}/add-stat-field`, { token: admin, body: { fieldName: 'kills', displayName: 'Знову' } });
    expect(reused.status).toBe(201);
  });

  it('needs a configured game (409), an existing one (404) and a valid id (400)', async () => {
    const bare = await createGame('Field Without Config');
    const body = { fieldName: 'kills', displayName: 'Вбивства' };
    const unconfigured = await api.call('POST', `${BASE}/${bare}/add-stat-field`, { token: admin, body });
    expect(unconfigured.status).toBe(409);
    expect(unconfigured.body.message).toBe('Статистику для цієї гри ще не налаштовано — спершу налаштуйте гру');
    const missing = await api.call('POST', `${BASE}/${MISSING}/add-stat-field`, { token: admin, body });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Гру не знайдено');
    expect((await api.call('POST', `${BASE}/nope/add-stat-field`, { token: admin, body })).status).toBe(400);
  });
});

describe('add-achievement', () => {
  it('adds an achievement with the defaults 🏆 and common; the condition may use the game’s fields and the aggregates', async () => {
    const { game } = await setup('Achievement Defaults', 'cs2');
    const res = await api.call<{ message: string; achievement: Record<string, unknown> }>('POST', `${BASE}/${game._id}/add-achievement`, {
      token: admin,
      body: { name: 'Sharpshooter', description: '100 вбивств', condition: 'kills >= 100' },
    });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Досягнення «Sharpshooter» додано');
    expect(res.body.achievement).toEqual({ _id: expect.any(String), name: 'Sharpshooter', description: '100 вбивств', condition: 'kills >= 100', icon: '🏆', rarity: 'common' });

    const rich = await api.call<{ achievement: Record<string, unknown> }>('POST', `${BASE}/${game._id}/add-achievement`, {
      token: admin,
      body: { name: 'Winner', description: 'Десять перемог і понад 60%', condition: 'wins >= 10 and winRate > 60', icon: '🥇', rarity: 'legendary' },
    });
    expect(rich.status).toBe(201);
    expect(rich.body.achievement).toMatchObject({ icon: '🥇', rarity: 'legendary' });

    await api.call('POST', `${BASE}/${game._id}/add-stat-field`, { token: admin, body: { fieldName: 'aces', displayName: 'Ейси' } });
    const onNewField = await api.call('POST', `${BASE}/${game._id}/add-achievement`, {
      token: admin,
      body: { name: 'Ace', description: 'Перший ейс', condition: 'aces >= 1', rarity: 'epic' },
    });
    expect(onNewField.status).toBe(201);

    const config = await api.call<StatsConfig>('GET', `${BASE}/config/${game._id}`);
    expect(config.body.gameAchievements.slice(-3).map((a) => a.name)).toEqual(['Sharpshooter', 'Winner', 'Ace']);
  });

  it('refuses a condition with an unknown field or bad syntax: 422 naming the problem, nothing saved', async () => {
    const { game, config } = await setup('Bad Conditions', 'cs2');
    const cases: [string, string | RegExp][] = [
      ['kils >= 100', 'Невідоме поле "kils" — можливо, "kills"?'],
      ['dragons >= 5', 'Невідоме поле "dragons"'],
      ['kills >= ', 'Умова незавершена: після «kills >=» чогось бракує'],
      ['kills >= 100 and', /^Синтаксична помилка в умові біля «and»/],
      ['kills = 100', 'Для порівняння пишіть «==», а не «=»'],
      ['constructor > 0', 'Невідоме поле "constructor"'],
      ['process.exit(1)', /^Невідома функція "process\.exit"/],
    ];
    for (const [condition, message] of cases) {
      const res = await api.call('POST', `${BASE}/${game._id}/add-achievement`, { token: admin, body: { name: `Bad ${condition}`, description: 'Опис', condition } });
      expect(res.status, condition).toBe(422);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    expect(await getStatsConfig(api.db, game._id)).toEqual(config);
  });

  it('requires name, description and condition; checks rarity; names are unique per game', async () => {
    const { game } = await setup('Achievement Rules');
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ description: 'Опис', condition: 'wins >= 1' }, 'Поле «Назва» обовʼязкове'],
      [{ name: 'N', condition: 'wins >= 1' }, 'Поле «Опис» обовʼязкове'],
      [{ name: 'N', description: 'Опис' }, 'Поле «Умова» обовʼязкове'],
      [{ name: 'N', description: 'Опис', condition: '   ' }, 'Поле «Умова» обовʼязкове'],
      [{ name: 'N', description: 'Опис', condition: 'wins >= 1', rarity: 'mythic' }, /очікується одне з/],
      [{ name: 'N', description: 'Опис', condition: `wins >= ${'1'.repeat(600)}` }, /^Поле «Умова» задовге/],
    ];
    for (const [body, message] of cases) {
      const res = await api.call('POST', `${BASE}/${game._id}/add-achievement`, { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      if (typeof message === 'string') expect(res.body.message).toBe(message);
      else expect(res.body.message).toMatch(message);
    }
    const body = { name: 'Unique One', description: 'Опис', condition: 'wins >= 1' };
    expect((await api.call('POST', `${BASE}/${game._id}/add-achievement`, { token: admin, body })).status).toBe(201);
    const twin = await api.call('POST', `${BASE}/${game._id}/add-achievement`, { token: admin, body: { ...body, name: 'UNIQUE ONE' } });
    expect(twin.status).toBe(409);
    expect(twin.body.message).toBe('Досягнення з такою назвою в цій грі вже є');
  });

  it('needs a configured game (409), an existing one (404) and a valid id (400)', async () => {
    const bare = await createGame('Achievement Without Config');
    const body = { name: 'A', description: 'Опис', condition: 'wins >= 1' };
    expect((await api.call('POST', `${BASE}/${bare}/add-achievement`, { token: admin, body })).status).toBe(409);
    expect((await api.call('POST', `${BASE}/${MISSING}/add-achievement`, { token: admin, body })).status).toBe(404);
    expect((await api.call('POST', `${BASE}/123/add-achievement`, { token: admin, body })).status).toBe(400);
  });
});

describe('order', () => {
  it('lists fields and achievements in the order they were added, also when added within one millisecond', async () => {
    const { game, config } = await setup('Ordered Game');
    const names = ['zeta', 'alpha', 'mid', 'beta', 'omega', 'gamma'];
    for (const fieldName of names) {
      const result = await addStatField(api.db, game._id, { fieldName, displayName: fieldName, fieldType: 'number', category: 'general', isMainStat: false, description: '', icon: '' });
      expect(result.ok).toBe(true);
    }
    for (const name of names) {
      const result = await addAchievement(api.db, game._id, { name, description: 'Опис', condition: 'wins >= 1', icon: '', rarity: 'common' });
      expect(result.ok).toBe(true);
    }
    const after = await getStatsConfig(api.db, game._id);
    expect(after!.statsFields.map((f) => f.fieldName)).toEqual([...config.statsFields.map((f) => f.fieldName), ...names]);
    expect(after!.gameAchievements.map((a) => a.name)).toEqual([...config.gameAchievements.map((a) => a.name), ...names]);
  });
});

describe('deleting fields and achievements', () => {
  it('deletes an unused stat field; refuses one an achievement condition uses, naming the achievements', async () => {
    const { game } = await setup('Delete Fields', 'cs2');
    const used = await api.call('DELETE', `${BASE}/${game._id}/stat-fields/headshots`, { token: admin });
    expect(used.status).toBe(409);
    expect(used.body.message).toBe('Поле «headshots» використовують умови досягнень: Headhunter. Спершу видаліть ці досягнення.');

    const unused = await api.call('DELETE', `${BASE}/${game._id}/stat-fields/utilityDamage`, { token: admin });
    expect(unused.status).toBe(200);
    expect(unused.body.message).toBe('Поле «utilityDamage» видалено');
    const config = await getStatsConfig(api.db, game._id);
    expect(config!.statsFields.map((f) => f.fieldName)).not.toContain('utilityDamage');

    const again = await api.call('DELETE', `${BASE}/${game._id}/stat-fields/utilityDamage`, { token: admin });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Поле статистики не знайдено');
    expect((await api.call('DELETE', `${BASE}/${game._id}/stat-fields/bad_name`, { token: admin })).status).toBe(400);
    expect((await api.call('DELETE', `${BASE}/${MISSING}/stat-fields/kills`, { token: admin })).status).toBe(404);
    const bare = await createGame('Delete Without Config');
    expect((await api.call('DELETE', `${BASE}/${bare}/stat-fields/kills`, { token: admin })).status).toBe(409);
  });

  it('deletes an achievement of the game; another game’s or a deleted one is 404; a bad id 400', async () => {
    const { game, config } = await setup('Delete Achievements');
    const other = await setup('Delete Achievements Other');
    const target = config.gameAchievements[0]!;
    const foreign = await api.call('DELETE', `${BASE}/${other.game._id}/achievements/${target._id}`, { token: admin });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Досягнення не знайдено');

    const res = await api.call('DELETE', `${BASE}/${game._id}/achievements/${target._id}`, { token: admin });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(`Досягнення «${target.name}» видалено`);
    expect((await getStatsConfig(api.db, game._id))!.gameAchievements.map((a) => a._id)).not.toContain(target._id);
    expect((await api.call('DELETE', `${BASE}/${game._id}/achievements/${target._id}`, { token: admin })).status).toBe(404);
    expect((await api.call('DELETE', `${BASE}/${MISSING}/achievements/${target._id}`, { token: admin })).body.message).toBe('Гру не знайдено');
    expect((await api.call('DELETE', `${BASE}/${game._id}/achievements/nope`, { token: admin })).status).toBe(400);
  });

  it('once the achievements using a field are gone, the field can go too', async () => {
    const { game, config } = await setup('Delete In Order');
    for (const a of config.gameAchievements.filter((x) => /\bkills\b/.test(x.condition))) {
      expect((await api.call('DELETE', `${BASE}/${game._id}/achievements/${a._id}`, { token: admin })).status).toBe(200);
    }
    expect((await api.call('DELETE', `${BASE}/${game._id}/stat-fields/kills`, { token: admin })).status).toBe(200);
  });
});
