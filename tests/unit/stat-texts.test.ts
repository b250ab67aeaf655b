import { afterEach, describe, expect, it, vi } from 'vitest';
import { STATS_TEMPLATE_DEFINITIONS } from '../../src/lib/domain/stat-templates.ts';
import { achievements, statFields } from '../../src/lib/i18n/stat-templates-en.ts';
import { translateAchievement, translateStatField } from '../../src/lib/i18n/stat-texts.ts';

const templates = Object.values(STATS_TEMPLATE_DEFINITIONS);
const CYRILLIC = /\p{Script=Cyrillic}/u;

describe('a stat field as the reader reads it', () => {
  const kills = { fieldName: 'kills', displayName: 'Вбивства', description: 'Суперників, знищених за матч', icon: '⚔️' };

  it('reads a template’s stock name and description in English for an English reader', () => {
    expect(translateStatField(kills, 'en')).toEqual({ ...kills, displayName: 'Kills', description: 'Opponents eliminated in the match' });
  });

  it('tells the two games’ headshots apart by their own description', () => {
    expect(translateStatField({ fieldName: 'headshots', displayName: 'Постріли в голову', description: 'Влучання в голову' }, 'en')).toEqual({
      fieldName: 'headshots',
      displayName: 'Headshots',
      description: 'Hits to the head',
    });
  });

  it('keeps what an admin typed: a renamed field, a stock word under another field, an own description', () => {
    expect(translateStatField({ ...kills, displayName: 'Фраги' }, 'en').displayName).toBe('Фраги');
    expect(translateStatField({ ...kills, fieldName: 'frags' }, 'en')).toEqual({ ...kills, fieldName: 'frags' });
    expect(translateStatField({ ...kills, description: 'Скільки разів гравець переміг суперника' }, 'en')).toEqual({
      ...kills,
      displayName: 'Kills',
      description: 'Скільки разів гравець переміг суперника',
    });
  });

  it('is left as stored for a Ukrainian reader, and works on a field without a description', () => {
    expect(translateStatField(kills, 'uk')).toBe(kills);
    expect(translateStatField({ fieldName: 'gpm', displayName: 'GPM' }, 'en')).toEqual({ fieldName: 'gpm', displayName: 'GPM' });
  });

  it('looks nothing up on the object’s own properties', () => {
    expect(translateStatField({ fieldName: 'constructor', displayName: 'name' }, 'en').displayName).toBe('name');
    expect(translateStatField({ fieldName: 'kills', displayName: 'toString' }, 'en').displayName).toBe('toString');
  });
});

describe('an achievement as the reader reads it', () => {
  const veteran = { name: 'Veteran', description: 'Зіграти 50 матчів', rarity: 'rare' };

  it('reads a template’s stock description in English and keeps its name', () => {
    expect(translateAchievement(veteran, 'en')).toEqual({ ...veteran, description: 'Play 50 matches' });
  });

  it('keeps an admin’s own: a renamed achievement, or a description of their own', () => {
    expect(translateAchievement({ ...veteran, name: 'Ветеран' }, 'en').description).toBe('Зіграти 50 матчів');
    expect(translateAchievement({ ...veteran, description: 'Зіграти 100 матчів' }, 'en').description).toBe('Зіграти 100 матчів');
  });

  it('is left as stored for a Ukrainian reader', () => {
    expect(translateAchievement(veteran, 'uk')).toBe(veteran);
  });
});

describe('the English of the templates’ texts', () => {
  it('has every stat field’s name and description of every template', () => {
    for (const field of templates.flatMap((template) => template.statsFields)) {
      for (const text of [field.displayName, field.description]) {
        expect(statFields[field.fieldName]?.[text], `${field.fieldName}: ${text}`).toBeTypeOf('string');
      }
    }
  });

  it('has every achievement’s description of every template', () => {
    for (const achievement of templates.flatMap((template) => template.gameAchievements)) {
      expect(achievements[achievement.name]?.[achievement.description], `${achievement.name}: ${achievement.description}`).toBeTypeOf('string');
    }
  });

  it('holds no text a template no longer writes, and no Cyrillic', () => {
    const written = new Set(
      templates.flatMap((template) => [
        ...template.statsFields.flatMap((f) => [`${f.fieldName}|${f.displayName}`, `${f.fieldName}|${f.description}`]),
        ...template.gameAchievements.map((a) => `${a.name}|${a.description}`),
      ]),
    );
    for (const table of [statFields, achievements]) {
      for (const [owner, texts] of Object.entries(table)) {
        for (const [ukrainian, english] of Object.entries(texts)) {
          expect(written.has(`${owner}|${ukrainian}`), `${owner}: ${ukrainian}`).toBe(true);
          expect(CYRILLIC.test(english), english).toBe(false);
        }
      }
    }
  });
});

describe('the English of the templates in a browser', () => {
  afterEach(() => {
    vi.doUnmock('../../src/lib/i18n/stat-templates-en.ts');
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** stat-texts.ts freshly evaluated in a browser whose page the server made in `lang`: whether it loaded the English. */
  async function inBrowser(lang: string) {
    vi.resetModules();
    vi.stubGlobal('document', { documentElement: { lang } });
    const loaded = vi.fn();
    vi.doMock('../../src/lib/i18n/stat-templates-en.ts', async (importOriginal) => {
      loaded();
      return importOriginal();
    });
    return { texts: await import('../../src/lib/i18n/stat-texts.ts'), loaded };
  }

  it('is never downloaded by a reader of Ukrainian', async () => {
    const { texts, loaded } = await inBrowser('uk');
    expect(loaded).not.toHaveBeenCalled();
    expect(texts.translateAchievement({ name: 'Veteran', description: 'Зіграти 50 матчів' }).description).toBe('Зіграти 50 матчів');
  });

  it('is in before a page in English shows a text', async () => {
    const { texts, loaded } = await inBrowser('en');
    expect(loaded).toHaveBeenCalledOnce();
    expect(texts.translateAchievement({ name: 'Veteran', description: 'Зіграти 50 матчів' }).description).toBe('Play 50 matches');
  });
});
