/**
 * The audit log's writer (issue 23): every change that decides a competition calls it inside the
 * change's own transaction, so a change and its record commit or roll back together, and a
 * refused change leaves none.
 */
import type { AuditKind } from '../../lib/domain/organisers.ts';
import type { Tx } from '../db/client.ts';
import { auditLog } from '../db/schema/index.ts';

export interface AuditEntry {
  tournamentId: string | null;
  /** The stage match the change was about, if any. */
  matchId?: string | null;
  /** Who made the change; null for the server itself (an automatic confirmation, a check-in close). */
  actor: { id: string; username: string } | null;
  kind: AuditKind;
  /** What the change was about (an application, a participant, a stage, a user). */
  subjectId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Writes the entries in one statement, in the caller's transaction. */
export async function recordAudit(tx: Tx, entries: AuditEntry | readonly AuditEntry[]): Promise<void> {
  const list = Array.isArray(entries) ? (entries as readonly AuditEntry[]) : [entries as AuditEntry];
  if (list.length === 0) return;
  await tx.insert(auditLog).values(
    list.map((e) => ({
      tournamentId: e.tournamentId,
      matchId: e.matchId ?? null,
      actorId: e.actor?.id ?? null,
      actorName: e.actor?.username ?? '',
      kind: e.kind,
      subjectId: e.subjectId ?? null,
      before: e.before ?? null,
      after: e.after ?? null,
    })),
  );
}
