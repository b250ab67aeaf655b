/**
 * Files organisers open in a spreadsheet (issue 60, decision 040): the three exports of a tournament,
 * and what keeps a cell from being read as a formula.
 */

/** The files a tournament's organisers may download (`GET /api/tournaments/{id}/export/{file}`). */
export const EXPORT_FILES = ['participants.csv', 'matches.csv', 'places.csv'] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

/**
 * The field separator of our CSV files: `;`, the list separator of Windows set to Ukrainian (and of
 * most of Europe), which Excel there splits columns by when it opens a .csv; with `,` a Ukrainian
 * Excel shows every row in one cell. LibreOffice and Google Sheets ask or detect it.
 */
export const CSV_DELIMITER = ';';

/** What a cell may start with to be read as a formula (OWASP, CSV injection): = + - @, a tab, a carriage return. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A cell a spreadsheet shows as text: one that starts like a formula gets a leading apostrophe, as
 * OWASP advises, so a team named `=HYPERLINK(…)` stays a name. Only text is changed: numbers we
 * write ourselves (scores, places) are written as numbers.
 */
export const textCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);
