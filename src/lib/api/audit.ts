import { z } from 'zod';
import { AUDIT_KINDS, type AuditKind } from '../domain/organisers.ts';
import { t } from '../i18n/index.ts';
import type { ApiClient } from './client.ts';
import { isSupportedMoment } from './input.ts';
import { PAGE_MAX_LIMIT, readPage, type Page } from './paging.ts';

/*
 * The audit log (issue 23): a tournament's public history of changes and the admin's whole log.
 * Newest first, paged by a cursor: `before` is the id of the last entry shown, and the answer's
 * `Link: <…>; rel="next"` carries the next one.
 */

/** Entries the tournament page shows before «see more», and a page of either list when `limit` is not given. */
export const HISTORY_PAGE = 20;

const limit = z.coerce.number().int().min(1).max(PAGE_MAX_LIMIT).optional();
const before = z.uuid().optional();
const moment = z.iso
  .datetime({ offset: true, error: () => t('audit.badMoment') })
  .refine(isSupportedMoment, { error: () => t('audit.badMoment') })
  .optional();

/** `GET /tournaments/{id}/history`. */
export const historyQuery = z.object({ limit, before });
export interface HistoryQuery {
  limit?: number | undefined;
  before?: string | undefined;
}

/** `GET /audit`: the whole log, of one tournament, kind or actor, in a time range (`from` included, `to` not). */
export const auditQuery = z.object({
  limit,
  before,
  tournament: z.uuid().optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  actor: z.uuid().optional(),
  from: moment,
  to: moment,
});
export interface AuditQuery extends HistoryQuery {
  tournament?: string | undefined;
  kind?: AuditKind | undefined;
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/**
 * One change. `before` and `after` are the shapes of lib/domain/audit.ts by kind. `actor` is there
 * for the tournament's organisers and admins only (null: the server itself did it); guests see
 * what and when.
 */
export const auditEntrySchema = z.object({
  _id: z.string(),
  kind: z.enum(AUDIT_KINDS),
  at: z.string(),
  tournament: z.string().nullable(),
  match: z.string().nullable(),
  subject: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  actor: z.object({ _id: z.string().nullable(), username: z.string() }).nullable().optional(),
});
export type AuditEntryView = z.infer<typeof auditEntrySchema>;

/** An entry of the admin's log: its tournament's title too (null once the tournament is deleted). */
export const adminAuditEntrySchema = auditEntrySchema.extend({ tournamentTitle: z.string().nullable() });
export type AdminAuditEntry = z.infer<typeof adminAuditEntrySchema>;

const searchOf = (query: HistoryQuery | AuditQuery) =>
  Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Record<string, string | number>;

/** A page of a tournament's history; with the token of one of its organisers the entries name who. */
export const getHistory = async (api: ApiClient, tournamentId: string, query: HistoryQuery = {}): Promise<Page<AuditEntryView>> =>
  readPage<AuditEntryView>(await api.get(`tournaments/${encodeURIComponent(tournamentId)}/history`, { searchParams: searchOf(query) }));

/** A page of the whole log (admin). */
export const getAuditLog = async (api: ApiClient, query: AuditQuery = {}): Promise<Page<AdminAuditEntry>> =>
  readPage<AdminAuditEntry>(await api.get('audit', { searchParams: searchOf(query) }));

export type { AuditKind };
