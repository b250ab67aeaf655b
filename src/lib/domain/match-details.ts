/**
 * A match's `gameSpecificData` is keyed «Показник · учасник» (services/statistics `matchDetails`,
 * SPEC §3 keeps it a flat key/value object). Read back as a table: one row a stat, one column a
 * side, so a reader compares the two sides line by line. A key is split at the side's own name,
 * which the match names, so a stat or a team whose name holds « · » still reads right; a key
 * naming no side of the match is kept apart, as it was written.
 */
export interface DetailsTable {
  /** Stats in the order first met, each with a value per side (null where that side has none). */
  rows: { label: string; values: (number | string | null)[] }[];
  /** Keys that name no side of the match. */
  other: [string, number | string][];
}

export function detailsTable(data: Readonly<Record<string, number | string>>, sides: readonly string[]): DetailsTable {
  const rows = new Map<string, (number | string | null)[]>();
  const other: [string, number | string][] = [];
  for (const [key, value] of Object.entries(data)) {
    // The longest name first: «Team» must not take the key of «Big Team».
    const side = sides
      .map((name, index) => ({ name, index }))
      .filter(({ name }) => name !== '' && key.endsWith(` · ${name}`))
      .sort((a, b) => b.name.length - a.name.length)[0];
    if (!side) {
      other.push([key, value]);
      continue;
    }
    const label = key.slice(0, key.length - side.name.length - 3);
    const values = rows.get(label) ?? sides.map(() => null);
    values[side.index] = value;
    rows.set(label, values);
  }
  return { rows: [...rows].map(([label, values]) => ({ label, values })), other };
}
