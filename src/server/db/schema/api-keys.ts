import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { API_KEY_SCOPES } from '../../../lib/domain/api-keys.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { organisations } from './organisations.ts';

/**
 * An organisation's API keys (issue 60, decision 045). The secret is shown once and never kept:
 * `hash` is its SHA-256 (a random 32-byte secret needs no slow hash), looked up as it comes;
 * `prefix` is its first characters, for people to tell keys apart. A key is live while
 * `revoked_at` is null; a revoked one stays in the list. `created_by` answers for what the key
 * does (the audit names them with the key), so the key goes with their account.
 */
export const organisationApiKeys = pgTable(
  'organisation_api_keys',
  {
    id: id(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    hash: text('hash').notNull(),
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('organisation_api_keys_hash_idx').on(t.hash),
    uniqueIndex('organisation_api_keys_live_name_idx')
      .on(t.organisationId, sql`lower(${t.name})`)
      .where(sql`${t.revokedAt} is null`),
    index('organisation_api_keys_organisation_idx').on(t.organisationId, t.createdAt),
  ],
);
