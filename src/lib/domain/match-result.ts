/** Rules of a recorded match result (SPEC §5 Record match), shared by the record-match modal and the server. */

export type Side = 1 | 2;

/** The side with the higher score; null when the scores are equal (a result that may not be recorded). */
export const winnerSide = (score1: number, score2: number): Side | null => (score1 > score2 ? 1 : score2 > score1 ? 2 : null);

/** A score or stat typed into the form: a non-negative whole number, anything else becomes 0 (SPEC §5). */
export function readCount(raw: string): number {
  const text = raw.trim();
  if (!/^\d+$/.test(text)) return 0;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : 0;
}

/** The field types a match result carries a number for; `string` fields are descriptive and not recorded. */
export const NUMERIC_FIELD_TYPES = ['number', 'percentage', 'time'] as const;
export const isNumericField = (field: { fieldType: string }) => (NUMERIC_FIELD_TYPES as readonly string[]).includes(field.fieldType);

export type StatProblem = { kind: 'unknown'; field: string } | { kind: 'percent'; field: string };

/**
 * The first problem of one side's stats against the game's fields: a name that is not one of its
 * numeric fields, or a percentage above 100. Null when they fit.
 */
export function statProblem(stats: Record<string, number>, fields: readonly { fieldName: string; fieldType: string }[]): StatProblem | null {
  const byName = new Map(fields.filter(isNumericField).map((f) => [f.fieldName, f]));
  for (const [name, value] of Object.entries(stats)) {
    const field = byName.get(name);
    if (!field) return { kind: 'unknown', field: name };
    if (field.fieldType === 'percentage' && value > 100) return { kind: 'percent', field: name };
  }
  return null;
}

/** Running totals after one more match: each recorded stat is added to what the side had. */
export function addTotals(totals: Record<string, number>, stats: Record<string, number>): Record<string, number> {
  const next = { ...totals };
  for (const [name, value] of Object.entries(stats)) next[name] = (next[name] ?? 0) + value;
  return next;
}
