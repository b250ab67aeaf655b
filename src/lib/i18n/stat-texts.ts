import { currentLocale, englishWhereRead, type Locale } from './core.ts';
import type { StockTexts } from './stat-templates-en.ts';

/*
 * A game's stat fields and achievements as a reader reads them. The statistics templates
 * (lib/domain/stat-templates.ts) store their texts in Ukrainian, once per game, and the API gives
 * them as stored; every place that shows one passes it through here. A text still as the template
 * wrote it, under the field or achievement it was written for, reads in the reader's language; a
 * text an admin typed (a field or achievement of their own, or one renamed) stays as typed.
 * Achievement names stay as stored in both languages: SPEC §3 names achievements in English, and
 * an admin's own are as typed, so a stock one translated would read unlike the rest.
 */

const english = await englishWhereRead(() => import('./stat-templates-en.ts'));

/** `text` in English when it is the stock text under `owner` in `table`; otherwise `text` itself. */
function stock(table: StockTexts | undefined, owner: string, text: string): string {
  const texts = table && Object.hasOwn(table, owner) ? table[owner] : undefined;
  return texts && Object.hasOwn(texts, text) ? texts[text]! : text;
}

/** A stat field with its displayName and description in the reader's language where they are a template's stock texts. */
export function translateStatField<T extends { fieldName: string; displayName: string; description?: string }>(field: T, locale: Locale = currentLocale()): T {
  if (locale !== 'en' || !english) return field;
  const displayName = stock(english.statFields, field.fieldName, field.displayName);
  const description = field.description === undefined ? undefined : stock(english.statFields, field.fieldName, field.description);
  return { ...field, displayName, ...(description !== undefined && { description }) };
}

/**
 * A stat field's name where only the name is known (a match's details are keyed by it): in the
 * reader's language when it is a template's stock name of some field; otherwise as stored.
 */
export function translateStatLabel(label: string, locale: Locale = currentLocale()): string {
  if (locale !== 'en' || !english) return label;
  for (const texts of Object.values(english.statFields)) if (Object.hasOwn(texts, label)) return texts[label]!;
  return label;
}

/** An achievement with its description in the reader's language where it is a template's stock text; the name as stored. */
export function translateAchievement<T extends { name: string; description: string }>(achievement: T, locale: Locale = currentLocale()): T {
  if (locale !== 'en' || !english) return achievement;
  return { ...achievement, description: stock(english.achievements, achievement.name, achievement.description) };
}
