/**
 * What the audit log's two lists take (issue 23), for both their zod schemas (`audit.ts`) and their
 * calls (`audit-calls.ts`), which islands import without zod.
 */
import type { AuditKind } from '../domain/organisers.ts';

/** Entries the tournament page shows, and a page of either list when `limit` is not given. */
export const HISTORY_PAGE = 20;

/** `GET /tournaments/{id}/history`. */
export interface HistoryQuery {
  limit?: number | undefined;
  before?: string | undefined;
}

/** `GET /audit`: the whole log, of one tournament, kind or actor, in a time range (`from` included, `to` not). */
export interface AuditQuery extends HistoryQuery {
  tournament?: string | undefined;
  kind?: AuditKind | undefined;
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}
