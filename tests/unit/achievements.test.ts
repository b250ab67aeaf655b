import { describe, expect, it } from 'vitest';
import { AGGREGATE_STAT_NAMES, compileCondition } from '../../src/lib/domain/achievements.ts';
import { STATS_TEMPLATES, isReservedFieldName, FIELD_NAME_PATTERN } from '../../src/lib/domain/stat-fields.ts';
import { POPULAR_GAMES, STATS_TEMPLATE_DEFINITIONS } from '../../src/lib/domain/stat-templates.ts';

const CS_FIELDS = ['kills', 'deaths', 'assists', 'headshots'];

/** Compiles and expects success; returns the evaluator. */
function compiled(expression: string, fields: readonly string[] = CS_FIELDS) {
  const result = compileCondition(expression, fields);
  if (!result.ok) throw new Error(`«${expression}» did not compile: ${result.error}`);
  return result.evaluate;
}

/** Compiles and expects a refusal; returns the message. */
function refused(expression: string, fields: readonly string[] = CS_FIELDS): string {
  const result = compileCondition(expression, fields);
  if (result.ok) throw new Error(`«${expression}» compiled, a refusal was expected`);
  return result.error;
}

describe('achievement conditions', () => {
  it('evaluates the issue’s examples: kills >= 100, wins >= 10 and winRate > 60', () => {
    const hundred = compiled('kills >= 100');
    expect(hundred({ kills: 100 })).toBe(true);
    expect(hundred({ kills: 99 })).toBe(false);

    const winner = compiled('wins >= 10 and winRate > 60');
    expect(winner({ wins: 10, winRate: 60.5 })).toBe(true);
    expect(winner({ wins: 10, winRate: 60 })).toBe(false);
    expect(winner({ wins: 9, winRate: 90 })).toBe(false);
  });

  it('always knows the aggregates, whatever the game’s fields', () => {
    expect(AGGREGATE_STAT_NAMES).toEqual(['matchesPlayed', 'wins', 'losses', 'winRate', 'currentStreak', 'rating']);
    for (const name of AGGREGATE_STAT_NAMES) expect(compileCondition(`${name} >= 1`, []).ok, name).toBe(true);
    expect(compiled('currentStreak <= -3', [])({ currentStreak: -4 })).toBe(true);
    expect(compiled('rating >= 1500 and matchesPlayed > losses', [])({ rating: 1600, matchesPlayed: 10, losses: 2 })).toBe(true);
  });

  it('supports or, not, arithmetic, parentheses, mod, in, if-then-else and the math functions', () => {
    expect(compiled('kills >= 100 or headshots >= 50')({ headshots: 50 })).toBe(true);
    expect(compiled('not (deaths > 0)')({ deaths: 0 })).toBe(true);
    expect(compiled('not(deaths > 0)')({ deaths: 1 })).toBe(false);
    expect(compiled('(kills + assists) / max(deaths, 1) >= 2.5')({ kills: 20, assists: 5, deaths: 10 })).toBe(true);
    expect(compiled('(kills + assists) / max(deaths, 1) >= 2.5')({ kills: 20, assists: 4, deaths: 10 })).toBe(false);
    expect(compiled('kills mod 100 == 0 and kills > 0')({ kills: 300 })).toBe(true);
    expect(compiled('kills in (1, 2, 3)')({ kills: 2 })).toBe(true);
    expect(compiled('if deaths == 0 then kills >= 5 else kills >= 10 * deaths')({ kills: 5, deaths: 0 })).toBe(true);
    expect(compiled('abs(currentStreak) >= 3 and round(winRate) == 67')({ currentStreak: -3, winRate: 66.7 })).toBe(true);
    expect(compiled('kills >= 100\n  and\tdeaths < 50')({ kills: 100, deaths: 1 })).toBe(true);
  });

  it('checks the result for truthiness', () => {
    const bare = compiled('kills');
    expect(bare({ kills: 3 })).toBe(true);
    expect(bare({ kills: 0 })).toBe(false);
  });

  it('counts a missing, non-numeric or non-finite value as 0, and never throws while evaluating', () => {
    const none = compiled('deaths == 0');
    expect(none({})).toBe(true);
    expect(none({ deaths: Number.NaN })).toBe(true);
    expect(none({ deaths: Number.POSITIVE_INFINITY })).toBe(true);
    expect(none({ deaths: '5' as unknown as number })).toBe(true);
    expect(none(null as unknown as Record<string, number>)).toBe(true);
    expect(compiled('kills / deaths > 2')({ kills: 0, deaths: 0 })).toBe(false);
  });

  it('names an unknown field, and suggests the close one', () => {
    expect(refused('kils >= 100')).toBe('Невідоме поле "kils" — можливо, "kills"?');
    expect(refused('Kills >= 100')).toBe('Невідоме поле "Kills" — можливо, "kills"?');
    expect(refused('dragons >= 5')).toBe('Невідоме поле "dragons"');
    // A field of another game is unknown here.
    expect(refused('bombPlants >= 5', ['kills'])).toMatch(/^Невідоме поле "bombPlants"/);
    expect(refused("'kills ' > 1")).toMatch(/^Невідоме поле "kills "/);
  });

  it('explains syntax errors in Ukrainian', () => {
    expect(refused('kills >= ')).toBe('Умова незавершена: після «kills >=» чогось бракує');
    expect(refused('(kills > 1')).toMatch(/^Умова незавершена/);
    expect(refused('kills >= 100 and')).toMatch(/^Синтаксична помилка в умові біля «and»/);
    expect(refused('kills >= >= 5')).toMatch(/^Синтаксична помилка в умові біля «>= 5»/);
    expect(refused('kills @ 5')).toBe('Незрозумілий символ «@» в умові (позиція 7)');
    expect(refused('kills = 5')).toBe('Для порівняння пишіть «==», а не «=»');
    expect(refused('   ')).toBe('Умова порожня');
    expect(refused(`kills >= ${'1'.repeat(600)}`)).toMatch(/^Умова задовга/);
  });

  it('refuses what conditions do not need: strings, regular expressions, of, unknown functions, deprecated operators', () => {
    expect(refused('kills == "a"')).toMatch(/лише з числами/);
    expect(refused('kills ~= 5')).toMatch(/«~=»/);
    expect(refused('kills of deaths > 1')).toMatch(/«of»/);
    expect(refused('exists(kills)')).toMatch(/^Невідома функція "exists"/);
    expect(refused('kills % 2 == 0')).toMatch(/mod/);
    expect(refused('kills > 1 ? 1 : 0')).toMatch(/if … then … else/);
  });

  it('refuses conditions that can never be computed: numbers for and/or/not, lists as numbers', () => {
    expect(refused('not kills')).toMatch(/^Умову не можна обчислити/);
    expect(refused('kills > 1 and deaths')).toMatch(/^Умову не можна обчислити/);
    expect(refused('(1, 2) > 1')).toMatch(/^Умову не можна обчислити/);
    expect(refused('(kills, deaths)')).toMatch(/^Умову не можна обчислити/);
  });

  it('gives no way to JavaScript globals or prototypes', () => {
    for (const name of ['constructor', 'process', '__proto__', 'toString', 'globalThis', 'this', 'eval', 'Function']) {
      expect(refused(`${name} > 0`), name).toMatch(/^Невідоме поле/);
    }
    expect(refused('process.env.HOME > 0')).toMatch(/^Невідоме поле "process\.env\.HOME"/);
    expect(refused("'constructor' == 1")).toMatch(/^Невідоме поле "constructor"/);
    expect(refused('constructor(1)')).toMatch(/^Невідома функція "constructor"/);
    expect(refused('require(1) > 0')).toMatch(/^Невідома функція "require"/);
    expect(refused('kills of constructor')).toMatch(/«of»/);

    // Even a field literally named like a prototype member reads only own values.
    const proto = compiled('constructor == 0 and toString == 0', ['constructor', 'toString']);
    expect(proto({})).toBe(true);
    expect(proto(Object.create({ constructor: 7 }) as Record<string, number>)).toBe(true);
  });
});

describe('stat templates', () => {
  it('has the five templates of SPEC §7, each with fields and achievements', () => {
    expect(Object.keys(STATS_TEMPLATE_DEFINITIONS).sort()).toEqual([...STATS_TEMPLATES].sort());
    for (const template of STATS_TEMPLATES) {
      const { statsFields, gameAchievements } = STATS_TEMPLATE_DEFINITIONS[template];
      expect(statsFields.length, template).toBeGreaterThanOrEqual(5);
      expect(gameAchievements.length, template).toBeGreaterThanOrEqual(5);
      expect(statsFields.some((f) => f.isMainStat), template).toBe(true);
    }
    expect(Object.keys(POPULAR_GAMES).sort()).toEqual(['cs2', 'dota2', 'lol', 'valorant']);
  });

  it('names the fields each game is known for', () => {
    const names = (template: keyof typeof STATS_TEMPLATE_DEFINITIONS) => STATS_TEMPLATE_DEFINITIONS[template].statsFields.map((f) => f.fieldName);
    expect(names('cs2')).toEqual(expect.arrayContaining(['kills', 'deaths', 'assists', 'headshots', 'adr', 'mvps', 'bombPlants']));
    expect(names('valorant')).toEqual(expect.arrayContaining(['kills', 'deaths', 'assists', 'firstBloods', 'acs', 'spikePlants']));
    expect(names('lol')).toEqual(expect.arrayContaining(['kills', 'deaths', 'assists', 'cs', 'visionScore', 'goldEarned']));
    expect(names('dota2')).toEqual(expect.arrayContaining(['kills', 'deaths', 'assists', 'lastHits', 'gpm', 'xpm', 'towerDamage']));
  });

  it('uses valid, unique English field names with Ukrainian texts', () => {
    for (const template of STATS_TEMPLATES) {
      const { statsFields } = STATS_TEMPLATE_DEFINITIONS[template];
      const names = statsFields.map((f) => f.fieldName);
      expect(new Set(names.map((n) => n.toLowerCase())).size, template).toBe(names.length);
      for (const field of statsFields) {
        expect(field.fieldName, template).toMatch(FIELD_NAME_PATTERN);
        expect(isReservedFieldName(field.fieldName), field.fieldName).toBe(false);
        expect(field.displayName.trim(), field.fieldName).not.toBe('');
        expect(field.description, field.fieldName).toMatch(/[а-яіїєґ]/i);
        expect(field.icon, field.fieldName).not.toBe('');
      }
    }
  });

  it('has achievements whose conditions compile against their own template and can be earned', () => {
    for (const template of STATS_TEMPLATES) {
      const { statsFields, gameAchievements } = STATS_TEMPLATE_DEFINITIONS[template];
      const fields = statsFields.map((f) => f.fieldName);
      const names = gameAchievements.map((a) => a.name.toLowerCase());
      expect(new Set(names).size, template).toBe(names.length);
      for (const achievement of gameAchievements) {
        const result = compileCondition(achievement.condition, fields);
        expect(result.ok ? '' : result.error, `${template}: ${achievement.name}`).toBe('');
        if (!result.ok) continue;
        // Nobody has it at the start; a long, winning career earns it.
        expect(result.evaluate({}), `${achievement.name} at zero`).toBe(false);
        const career = Object.fromEntries(fields.map((f) => [f, 1e6]));
        expect(
          result.evaluate({ ...career, deaths: 1, matchesPlayed: 100, wins: 100, losses: 0, winRate: 100, currentStreak: 100, rating: 2500 }),
          `${achievement.name} after a career`,
        ).toBe(true);
        expect(achievement.description, achievement.name).toMatch(/[а-яіїєґ]/i);
        expect(achievement.name, 'English name (SPEC §3)').toMatch(/^[A-Za-z][A-Za-z0-9 '-]*$/);
      }
    }
  });

  it('reserves the condition language’s words and the aggregates as field names', () => {
    for (const name of ['and', 'OR', 'mod', 'max', 'wins', 'WinRate', 'rating']) expect(isReservedFieldName(name), name).toBe(true);
    for (const name of ['kills', 'headshots', 'android', 'order']) expect(isReservedFieldName(name), name).toBe(false);
  });
});
