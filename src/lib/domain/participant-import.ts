/**
 * Participants imported from a CSV file (issue 60, decision 040): which column names them, and how
 * each row is judged before anything is written. Pure: the server reads the file and looks the
 * names up (services/match-day/participant-import.ts), this decides. The preview and the write
 * judge with the same function, so what the organiser saw is what is refused or added.
 */
import { isTeamSizeAllowed, type LiveApplicationStatus } from './application-rules.ts';

/** The most rows one import takes: a large open cup; more is a mistake or a different job. */
export const IMPORT_ROWS_MAX = 1000;
/** The largest file one import takes, in UTF-8 bytes: 1000 rows of our own export fit with room. */
export const IMPORT_BYTES_MAX = 200 * 1024;
/** The longest value a row names anyone by: an email address (254 characters). */
export const IMPORT_VALUE_MAX = 254;

/** What can be wrong with one row; each has a message under `import.problem.<name>`. */
export const IMPORT_PROBLEMS = ['empty', 'unknownPlayer', 'unknownTeam', 'emailNotAllowed', 'duplicate', 'alreadyRegistered', 'teamSize', 'overCap'] as const;
export type ImportProblem = (typeof IMPORT_PROBLEMS)[number];
export const IMPORT_ROW_STATUSES = ['ok', ...IMPORT_PROBLEMS] as const;
export type ImportRowStatus = (typeof IMPORT_ROW_STATUSES)[number];

/**
 * The header cells that name the column of participants, in lower case: our own exports'
 * («Учасник», «Команда»), a registration form's («Нікнейм», «Email») and their English words.
 */
const NAME_HEADERS = new Set([
  'учасник',
  'гравець',
  'нікнейм',
  'нік',
  'email',
  'e-mail',
  'пошта',
  'електронна пошта',
  'команда',
  'назва',
  'назва команди',
  'participant',
  'player',
  'nickname',
  'nick',
  'username',
  'team',
  'team name',
  'name',
]);

/**
 * Where the names are: a first record with a header cell (`NAME_HEADERS`) is the header, and the
 * names are in that cell's column; otherwise every record is a row, named by its first cell.
 */
export function nameColumn(first: readonly string[]): { header: boolean; column: number } {
  const column = first.findIndex((cell) => NAME_HEADERS.has(cell.trim().toLowerCase()));
  return column === -1 ? { header: false, column: 0 } : { header: true, column };
}

/** Whether a row names a player by email address (nicknames cannot hold an @). */
export const isEmailValue = (value: string): boolean => value.includes('@');

/** A row as read from the file: its line there (from 1, as a spreadsheet numbers it) and its name cell, trimmed. */
export interface ImportRow {
  line: number;
  value: string;
}

/** The player or team a row's value names, as the server found it. */
export interface ImportCandidate {
  id: string;
  /** The player's nickname or the team's name, as the site spells it. */
  name: string;
  /** Its live application in this tournament (pending, approved or waitlisted), if any. */
  live: LiveApplicationStatus | null;
  /** A team's members, captain included; absent for a player. */
  members?: number;
}

/** What the judge needs to know of the tournament and the names. */
export interface ImportFacts {
  soloOnly: boolean;
  /** Places free under the cap now; Infinity without a cap. */
  placesLeft: number;
  /** Whether rows may name players by email (decision 040: the site's own tournaments and verified organisations'). */
  emailAllowed: boolean;
  /** The player or team a value names, if any. */
  find: (value: string) => ImportCandidate | undefined;
}

/** One row's verdict: `ok`, or its problem, with the participant it named when it named one. */
export interface ImportVerdict extends ImportRow {
  status: ImportRowStatus;
  candidate?: ImportCandidate;
  /** For `duplicate`: the line that named the same participant first. */
  duplicateOf?: number;
}

/**
 * Judges every row in the file's order: empty, a name nobody has, an email where emails are not
 * taken, the same participant as an earlier row, someone already registered, a team of the wrong
 * size, and — of the rows left — those past the free places. Nothing is written unless every row
 * is `ok`, so the order of the checks only decides which problem a row shows first.
 */
export function judgeImport(rows: readonly ImportRow[], facts: ImportFacts): ImportVerdict[] {
  const firstLine = new Map<string, number>();
  let placed = 0;
  return rows.map((row): ImportVerdict => {
    if (row.value === '') return { ...row, status: 'empty' };
    if (facts.soloOnly && isEmailValue(row.value) && !facts.emailAllowed) return { ...row, status: 'emailNotAllowed' };
    const candidate = facts.find(row.value);
    if (!candidate) return { ...row, status: facts.soloOnly ? 'unknownPlayer' : 'unknownTeam' };
    const earlier = firstLine.get(candidate.id);
    if (earlier !== undefined) return { ...row, status: 'duplicate', candidate, duplicateOf: earlier };
    firstLine.set(candidate.id, row.line);
    if (candidate.live) return { ...row, status: 'alreadyRegistered', candidate };
    if (!facts.soloOnly && !isTeamSizeAllowed(candidate.members ?? 0)) return { ...row, status: 'teamSize', candidate };
    if (placed >= facts.placesLeft) return { ...row, status: 'overCap', candidate };
    placed += 1;
    return { ...row, status: 'ok', candidate };
  });
}
