import { z } from 'zod';
import { AUDIT_KINDS } from '../domain/organisers.ts';
import { t } from '../i18n/index.ts';
import type { AuditQuery, HistoryQuery } from './audit-query.ts';
import { isSupportedMoment } from './input.ts';
import { PAGE_MAX_LIMIT } from './paging.ts';

/*
 * The audit log's schemas (issue 23): a tournament's public history of changes and the admin's
 * whole log. The calls are in `audit-calls.ts`, so the islands that make them ship no zod.
 */


const limit = z.coerce.number().int().min(1).max(PAGE_MAX_LIMIT).optional();
const before = z.uuid().optional();
const moment = z.iso
  .datetime({ offset: true, error: () => t('audit.badMoment') })
  .refine(isSupportedMoment, { error: () => t('audit.badMoment') })
  .optional();

/** `GET /tournaments/{id}/history`. */
export const historyQuery = z.object({ limit, before }) satisfies z.ZodType<HistoryQuery>;

/** `GET /audit`: the whole log, of one tournament, kind or actor, in a time range (`from` included, `to` not). */
export const auditQuery = z.object({
  limit,
  before,
  tournament: z.uuid().optional(),
  kind: z.enum(AUDIT_KINDS).optional(),
  actor: z.uuid().optional(),
  from: moment,
  to: moment,
}) satisfies z.ZodType<AuditQuery>;

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

