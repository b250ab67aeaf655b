/**
 * The audit log (issue 23): who changed what in a competition, and when. Every change that decides
 * one calls `recordAudit` inside the change's own transaction, so a change and its record commit or
 * roll back together, and a refused change leaves none. No route edits or deletes a row (a
 * trigger of migration 0009 refuses it); the readers below are the only other use of the table.
 */
import { and, desc, eq, gte, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { AdminAuditEntry, AuditEntryView } from '../../../lib/api/audit.ts';
import type { Page } from '../../../lib/api/paging.ts';
import type { ApplicationSnapshot } from '../../../lib/domain/audit.ts';
import { ORGANISERS_AUDIT_KINDS, type AuditKind } from '../../../lib/domain/organisers.ts';
import type { Tx } from '../../db/client.ts';
import { auditLog, tournaments, users } from '../../db/schema/index.ts';

/** Who made a change. Without `username` the row takes the user's name as it is now, in the same insert. */
export interface AuditActor {
  id: string;
  username?: string;
}

export interface AuditEntry {
  tournamentId: string | null;
  /** The stage match the change was about, if any. */
  matchId?: string | null;
  /** Who made the change; null for the server itself (an automatic confirmation, a check-in close). */
  actor: AuditActor | null;
  kind: AuditKind;
  /** What the change was about (an application, a participant, a stage, a user; for a reset that followed another match's change, that match). */
  subjectId?: string | null;
  before?: object | null;
  after?: object | null;
}

/** Writes the entries in one statement, in the caller's transaction. */
export async function recordAudit(tx: Tx, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const write = auditWrite(tx, entries);
  if (write) await write;
}

/** `recordAudit`'s insert, unsent, for a caller that sends it with its own writes (db/together.ts); none for no entry. */
export function auditWrite(tx: Tx, entries: AuditEntry | readonly AuditEntry[]) {
  const list = Array.isArray(entries) ? (entries as readonly AuditEntry[]) : [entries as AuditEntry];
  if (list.length === 0) return undefined;
  return tx.insert(auditLog).values(
    list.map((e, i) => ({
      tournamentId: e.tournamentId,
      matchId: e.matchId ?? null,
      actorId: e.actor?.id ?? null,
      actorName: !e.actor
        ? ''
        : (e.actor.username ?? sql<string>`coalesce((select ${users.username} from ${users} where ${users.id} = ${e.actor.id}::uuid), '')`),
      kind: e.kind,
      subjectId: e.subjectId ?? null,
      before: (e.before ?? null) as Record<string, unknown> | null,
      after: (e.after ?? null) as Record<string, unknown> | null,
      // The clock, not the transaction's start, and always after the last row (a clock may tick in
      // milliseconds): the rows of one change, and of one transaction, read back in the order written.
      createdAt: sql`greatest(clock_timestamp(), (select max(l.created_at) from ${auditLog} as l) + interval '1 microsecond') + ${i} * interval '1 microsecond'`,
    })),
  );
}

/** Which entries to read: one tournament's, one kind's, one actor's, in a time range (`to` not included), after a cursor. */
export interface AuditFilter {
  tournamentId?: string | undefined;
  kind?: AuditKind | undefined;
  actorId?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  /** The id of the last entry already shown: the page starts after it. An unknown id gives an empty page. */
  before?: string | undefined;
  limit: number;
  /** False for a reader who organises nothing here: the kinds only organisers read (`ORGANISERS_AUDIT_KINDS`) are left out. */
  readerOrganises?: boolean;
}

type Row = typeof auditLog.$inferSelect;

/**
 * Whether a guest may not read whose application a row decided: one approved neither before nor
 * after it (rejected, waitlisted, deleted, dropped at check-in). The tournament page shows guests
 * approved applications only, so its history does not name the others either.
 */
function privateDecision(row: Row): boolean {
  if (row.kind !== 'applicationDecided') return false;
  const was = row.before as Partial<ApplicationSnapshot> | null;
  const now = row.after as Partial<ApplicationSnapshot> | null;
  return was?.status !== 'approved' && now?.status !== 'approved';
}

/** An application's snapshot without its applicant. */
function unnamed(snapshot: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!snapshot) return null;
  const { applicant: _applicant, ...rest } = snapshot;
  return rest;
}

/**
 * An entry as the API shows it; `who` (organisers and admins) adds the actor, and names every
 * applicant: others read a private decision with no applicant and no application id.
 */
function view(row: Row, who: boolean): AuditEntryView {
  const hidden = !who && privateDecision(row);
  return {
    _id: row.id,
    kind: row.kind,
    at: row.createdAt.toISOString(),
    tournament: row.tournamentId,
    match: row.matchId,
    subject: hidden ? null : row.subjectId,
    before: hidden ? unnamed(row.before) : (row.before ?? null),
    after: hidden ? unnamed(row.after) : (row.after ?? null),
    ...(who ? { actor: row.actorId === null && row.actorName === '' ? null : { _id: row.actorId, username: row.actorName } } : {}),
  };
}

function conditions(filter: AuditFilter): SQL | undefined {
  const where: SQL[] = [];
  if (filter.tournamentId) where.push(eq(auditLog.tournamentId, filter.tournamentId));
  if (filter.kind) where.push(eq(auditLog.kind, filter.kind));
  if (filter.actorId) where.push(eq(auditLog.actorId, filter.actorId));
  if (filter.readerOrganises === false) where.push(notInArray(auditLog.kind, [...ORGANISERS_AUDIT_KINDS]));
  if (filter.from) where.push(gte(auditLog.createdAt, filter.from));
  if (filter.to) where.push(lt(auditLog.createdAt, filter.to));
  if (filter.before) {
    // Row order is (time, id): rows written in one change share no clock, and ties still have one order.
    where.push(sql`(${auditLog.createdAt}, ${auditLog.id}) < (select c.created_at, c.id from ${auditLog} as c where c.id = ${filter.before}::uuid)`);
  }
  return where.length > 0 ? and(...where) : undefined;
}

/** A page of entries, newest first (one row past it tells whether there is another). */
async function readPage(db: Tx, filter: AuditFilter) {
  const rows = await db
    .select({ row: auditLog, title: tournaments.title })
    .from(auditLog)
    .leftJoin(tournaments, eq(tournaments.id, auditLog.tournamentId))
    .where(conditions(filter))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(filter.limit + 1);
  return { rows: rows.slice(0, filter.limit), more: rows.length > filter.limit };
}

/** A tournament's history of changes (`GET /tournaments/{id}/history`); `who` for its organisers. Null when there is no such tournament. */
export async function tournamentHistory(
  db: Tx,
  tournamentId: string,
  page: Pick<AuditFilter, 'before' | 'limit'>,
  who: boolean,
): Promise<Page<AuditEntryView> | null> {
  const [exists] = await db.select({ id: tournaments.id }).from(tournaments).where(eq(tournaments.id, tournamentId));
  if (!exists) return null;
  return historyOf(db, tournamentId, page, who);
}

/** `tournamentHistory` of a tournament known to exist (the tournament page has just read it). */
export async function historyOf(db: Tx, tournamentId: string, page: Pick<AuditFilter, 'before' | 'limit'>, who: boolean): Promise<Page<AuditEntryView>> {
  const { rows, more } = await readPage(db, { ...page, tournamentId, readerOrganises: who });
  return { items: rows.map(({ row }) => view(row, who)), more };
}

/** The whole log for the admin (`GET /audit`), filtered, with actors and tournaments' titles. */
export async function auditLogPage(db: Tx, filter: AuditFilter): Promise<Page<AdminAuditEntry>> {
  const { rows, more } = await readPage(db, filter);
  return { items: rows.map(({ row, title }) => ({ ...view(row, true), tournamentTitle: title })), more };
}
