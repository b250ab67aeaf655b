/**
 * Participants imported from CSV by a tournament's organisers (issue 60, decision 040). The file is
 * read with csv-parse; every row is judged by `judgeImport` (lib/domain/participant-import.ts)
 * against the players, teams and places as they are. A check writes nothing; a write judges again
 * with the tournament locked as every registration write does (registration.ts), so two imports at
 * once queue and never overfill the cap, and adds every row or none: approved applications, an
 * audit row and a notice each, in one transaction, told to the tournament's viewers once committed.
 */
import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { CsvError, parse } from 'csv-parse/sync';
import { applicationsClosed, isLiveApplication, type LiveApplicationStatus } from '../../../lib/domain/application-rules.ts';
import { normalizeName } from '../../../lib/domain/names.ts';
import {
  IMPORT_ROWS_MAX,
  IMPORT_VALUE_MAX,
  isEmailValue,
  judgeImport,
  nameColumn,
  type ImportCandidate,
  type ImportRow,
  type ImportVerdict,
} from '../../../lib/domain/participant-import.ts';
import { placesLeft } from '../../../lib/domain/registration.ts';
import type { ParticipantAddedSnapshot } from '../../../lib/domain/audit.ts';
import type { Tx } from '../../db/client.ts';
import { applications, isCompetitionDrawn, isLiveStatus, organisations, teamMembers, teams, tournaments, users } from '../../db/schema/index.ts';
import { recordAudit, type AuditActor } from '../competition/audit.ts';
import { isUniqueViolation } from '../db-errors.ts';
import { announceApplications, lockForRegistration, placesTaken, published } from './registration.ts';

type TournamentRow = typeof tournaments.$inferSelect;

/** Why a file or a tournament takes no import at all (the rows are not judged). */
export type ImportRefusal =
  | { reason: 'notFound' }
  | { reason: 'closed'; why: 'bracketDrawn' | 'notPending' }
  | { reason: 'unreadable'; line: number }
  | { reason: 'noRows' }
  | { reason: 'tooManyRows'; rows: number }
  /** A live application made at the same moment by someone else: the partial unique indexes decided. */
  | { reason: 'race' };

/** The judged rows; `added` is how many were written (0 for a check, and whenever a row has a problem). */
export interface ImportResult {
  ok: true;
  verdicts: ImportVerdict[];
  added: number;
  /** Places free under the cap when the rows were judged (Infinity without a cap). */
  placesLeft: number;
}

export type ImportOutcome = ImportResult | ({ ok: false } & ImportRefusal);

type Records = { record: string[]; info: { lines: number } }[];

/** The file read with one delimiter, or the library's refusal. */
function readWith(csv: string, delimiter: ';' | ','): Records | CsvError {
  try {
    return parse(csv, { delimiter, bom: true, relax_column_count: true, skip_empty_lines: true, info: true }) as unknown as Records;
  } catch (error) {
    if (error instanceof CsvError) return error;
    throw error;
  }
}

/**
 * The file's records, split by the delimiter it was written with: `;` (Excel set to Ukrainian, our
 * own exports) when a record has two cells by it; else `,` when every record has the same two or
 * more cells by it (a comma-separated file with a header); else one column, split by nothing, so a
 * team named «Кібер, Козаки» stays whole.
 */
function records(csv: string): Records | CsvError {
  const semicolons = readWith(csv, ';');
  if (!(semicolons instanceof CsvError) && semicolons.some((r) => r.record.length > 1)) return semicolons;
  const commas = readWith(csv, ',');
  const width = commas instanceof CsvError ? 0 : (commas[0]?.record.length ?? 0);
  if (!(commas instanceof CsvError) && width > 1 && commas.every((r) => r.record.length === width)) return commas;
  return semicolons instanceof CsvError && !(commas instanceof CsvError) ? commas : semicolons;
}

/** The rows of a file: each record's name cell (its column by the header, if any), trimmed; lines of empty cells are skipped. */
export function readImportRows(csv: string): { ok: true; rows: ImportRow[] } | ({ ok: false } & ImportRefusal) {
  const read = records(csv);
  if (read instanceof CsvError) return { ok: false, reason: 'unreadable', line: Number(read.lines) || 1 };
  const filled = read.filter((r) => r.record.some((cell) => cell.trim() !== ''));
  const { header, column } = nameColumn(filled[0]?.record ?? []);
  const rows = (header ? filled.slice(1) : filled).map((r) => ({ line: r.info.lines, value: normalizeName(r.record[column] ?? '') }));
  if (rows.length === 0) return { ok: false, reason: 'noRows' };
  if (rows.length > IMPORT_ROWS_MAX) return { ok: false, reason: 'tooManyRows', rows: rows.length };
  return { ok: true, rows };
}

/** How a value is compared with nicknames, addresses and team names: as `lower()` in the database. */
const keyOf = (value: string) => value.normalize('NFKC').toLowerCase();

/**
 * Whether rows may name players by email (decision 040): the preview tells whether an address has
 * an account, so only organisers the site vouches for ask it — of the site's own tournaments (its
 * admins and the staff they named) and of verified organisations'.
 */
async function emailAllowed(tx: Tx, tournament: Pick<TournamentRow, 'organisationId'>): Promise<boolean> {
  if (!tournament.organisationId) return true;
  const [row] = await tx.select({ verified: organisations.verified }).from(organisations).where(eq(organisations.id, tournament.organisationId));
  return row?.verified ?? false;
}

/** The players or teams the rows name, found in a few statements whatever their number. */
async function candidatesFor(tx: Tx, tournament: Pick<TournamentRow, 'id' | 'soloOnly'>, rows: readonly ImportRow[], withEmail: boolean) {
  const keys = [...new Set(rows.filter((r) => r.value && r.value.length <= IMPORT_VALUE_MAX).map((r) => keyOf(r.value)))];
  const found = new Map<string, ImportCandidate>();
  if (keys.length === 0) return found;
  const live = (rowsOf: { id: string | null; status: string }[]) =>
    new Map(rowsOf.flatMap((r) => (r.id && isLiveApplication(r.status) ? [[r.id, r.status as LiveApplicationStatus] as const] : [])));
  if (tournament.soloOnly) {
    const names = keys.filter((k) => !isEmailValue(k));
    const emails = withEmail ? keys.filter(isEmailValue) : [];
    const people = await tx
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(
        sql`${names.length > 0 ? inArray(sql`lower(${users.username})`, names) : sql`false`} or ${emails.length > 0 ? inArray(sql`lower(${users.email})`, emails) : sql`false`}`,
      );
    const ids = people.map((p) => p.id);
    const applied =
      ids.length > 0
        ? live(
            await tx
              .select({ id: applications.userId, status: applications.status })
              .from(applications)
              .where(
                and(
                  eq(applications.tournamentId, tournament.id),
                  isNull(applications.teamId),
                  isLiveStatus(applications.status),
                  inArray(applications.userId, ids),
                ),
              ),
          )
        : new Map<string, LiveApplicationStatus>();
    for (const p of people) {
      const candidate = { id: p.id, name: p.username, live: applied.get(p.id) ?? null };
      found.set(keyOf(p.username), candidate);
      if (withEmail) found.set(keyOf(p.email), candidate);
    }
    return found;
  }
  const teamRows = await tx
    .select({ id: teams.id, name: teams.name, captainId: teams.captainId })
    .from(teams)
    .where(inArray(sql`lower(${teams.name})`, keys));
  const ids = teamRows.map((team) => team.id);
  if (ids.length === 0) return found;
  const [sizes, applied] = await Promise.all([
    tx.select({ id: teamMembers.teamId, n: count() }).from(teamMembers).where(inArray(teamMembers.teamId, ids)).groupBy(teamMembers.teamId),
    tx
      .select({ id: applications.teamId, status: applications.status })
      .from(applications)
      .where(and(eq(applications.tournamentId, tournament.id), isLiveStatus(applications.status), inArray(applications.teamId, ids))),
  ]);
  const liveOf = live(applied);
  for (const team of teamRows) {
    found.set(keyOf(team.name), { id: team.id, name: team.name, live: liveOf.get(team.id) ?? null, members: sizes.find((s) => s.id === team.id)?.n ?? 0 });
  }
  return found;
}

/** The rows judged against the tournament as it is in `tx` (locked by the caller for a write). */
async function judged(tx: Tx, tournament: TournamentRow, rows: readonly ImportRow[]): Promise<{ verdicts: ImportVerdict[]; placesLeft: number }> {
  const withEmail = await emailAllowed(tx, tournament);
  const found = await candidatesFor(tx, tournament, rows, withEmail);
  const free = placesLeft(tournament.maxParticipants, await placesTaken(tx, tournament.id));
  const verdicts = judgeImport(rows, {
    soloOnly: tournament.soloOnly,
    placesLeft: free,
    emailAllowed: withEmail,
    find: (value) => (value.length <= IMPORT_VALUE_MAX ? found.get(keyOf(value)) : undefined),
  });
  return { verdicts, placesLeft: free };
}

/** Why a tournament takes nobody new: its competition drawn, or it is no longer pending (the rules of applying). */
const closedBecause = (row: Pick<TournamentRow, 'status'> & { drawn: boolean }) => applicationsClosed({ status: row.status, bracketDrawn: row.drawn });

/**
 * Checks a file against the tournament and writes nothing (`dryRun`), or adds every row's
 * participant when no row has a problem. The registration window does not apply: it limits players'
 * own applications, and an organiser adds whom they decide; the cap, the team size and «once per
 * tournament» do.
 */
export async function importParticipants(db: Tx, tournamentId: string, csv: string, options: { dryRun: boolean; actor: AuditActor }): Promise<ImportOutcome> {
  const read = readImportRows(csv);
  if (!read.ok) return read;
  if (options.dryRun) {
    const [found] = await db.select({ row: tournaments, drawn: isCompetitionDrawn }).from(tournaments).where(eq(tournaments.id, tournamentId));
    if (!found) return { ok: false, reason: 'notFound' };
    const closed = closedBecause({ status: found.row.status, drawn: found.drawn });
    if (closed) return { ok: false, reason: 'closed', why: closed };
    return { ok: true, added: 0, ...(await judged(db, found.row, read.rows)) };
  }
  let result: (ImportResult & { told: string[] }) | ({ ok: false } & ImportRefusal);
  try {
    result = await db.transaction(async (tx): Promise<(ImportResult & { told: string[] }) | ({ ok: false } & ImportRefusal)> => {
      const tournament = await lockForRegistration(tx, tournamentId);
      if (!tournament) return { ok: false, reason: 'notFound' };
      const closed = closedBecause(tournament);
      if (closed) return { ok: false, reason: 'closed', why: closed };
      const { verdicts, placesLeft: free } = await judged(tx, tournament, read.rows);
      if (verdicts.some((v) => v.status !== 'ok')) return { ok: true, verdicts, added: 0, placesLeft: free, told: [] };
      const captains = tournament.soloOnly
        ? new Map<string, string>()
        : new Map(
            (
              await tx
                .select({ id: teams.id, captainId: teams.captainId })
                .from(teams)
                .where(
                  inArray(
                    teams.id,
                    verdicts.map((v) => v.candidate!.id),
                  ),
                )
            ).map((team) => [team.id, team.captainId]),
          );
      const inserted = await tx
        .insert(applications)
        .values(
          verdicts.map((v) => {
            const id = v.candidate!.id;
            return tournament.soloOnly
              ? { tournamentId, userId: id, teamId: null, status: 'approved' as const }
              : { tournamentId, userId: captains.get(id)!, teamId: id, status: 'approved' as const };
          }),
        )
        .returning();
      const nameOf = new Map(verdicts.map((v) => [v.candidate!.id, v.candidate!.name]));
      await recordAudit(
        tx,
        inserted.map((application) => {
          const after: ParticipantAddedSnapshot = { participant: nameOf.get(application.teamId ?? application.userId) ?? '', status: 'approved' };
          return { tournamentId, actor: options.actor, kind: 'participantAdded' as const, subjectId: application.id, before: null, after };
        }),
      );
      const told = await announceApplications(tx, 'applicationApproved', inserted, tournament);
      return { ok: true, verdicts, added: inserted.length, placesLeft: free, told };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'race' };
    throw error;
  }
  if (!result.ok) return result;
  const { told, ...done } = result;
  if (done.added > 0) published(tournamentId, 'application', told);
  return done;
}
