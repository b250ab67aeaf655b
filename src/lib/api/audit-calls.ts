/**
 * The audit log's calls (issue 23), apart from their zod schemas in `audit.ts`: the islands that
 * import these ship no zod. Newest first, paged by a cursor: `before` is the id of the last entry
 * shown, and the answer's `Link: <…>; rel="next"` carries the next one.
 */
import type { AdminAuditEntry, AuditEntryView } from './audit.ts';
import type { AuditQuery, HistoryQuery } from './audit-query.ts';
import type { ApiClient } from './client.ts';
import { readPage, type Page } from './paging.ts';

export type { AdminAuditEntry, AuditEntryView };

const searchOf = (query: HistoryQuery | AuditQuery) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

/** A page of a tournament's history; with the token of one of its organisers the entries name who. */
export const getHistory = async (api: ApiClient, tournamentId: string, query: HistoryQuery = {}): Promise<Page<AuditEntryView>> =>
  readPage<AuditEntryView>(await api.get(`tournaments/${encodeURIComponent(tournamentId)}/history`, { searchParams: searchOf(query) }));

/** A page of the whole log (admin). */
export const getAuditLog = async (api: ApiClient, query: AuditQuery = {}): Promise<Page<AdminAuditEntry>> =>
  readPage<AdminAuditEntry>(await api.get('audit', { searchParams: searchOf(query) }));

