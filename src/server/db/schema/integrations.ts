import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DELIVERY_STATES, ENDPOINT_KINDS, ORGANISATION_EVENTS, type EventPayload, type OrganisationEvent } from '../../../lib/domain/organisation-events.ts';
import { locales } from '../../../lib/i18n/core.ts';
import { at, createdAt, id } from './columns.ts';
import { users } from './accounts.ts';
import { organisations } from './organisations.ts';

/**
 * Where an organisation's events go (issue 60), in the language of whoever saved it: its Discord
 * channel's webhook (one an organisation), its Telegram channel (one; `url` holds the chat's id),
 * its outgoing webhooks (several, each with the `events` it subscribed to and the `secret` its
 * deliveries are signed with). `broken_at`: the service said the address is gone (Discord's 404,
 * Telegram's «chat not found»), so nothing more is sent until someone saves one again.
 */
export const organisationEndpoints = pgTable(
  'organisation_endpoints',
  {
    id: id(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ENDPOINT_KINDS }).notNull(),
    url: text('url').notNull(),
    /** The events it hears of; Discord and Telegram channels hear their kind's own list. */
    events: text('events').array().$type<OrganisationEvent[]>().notNull().default(sql`'{}'::text[]`),
    /** An outgoing webhook's signing secret (Standard Webhooks' `whsec_…`). */
    secret: text('secret'),
    locale: text('locale', { enum: locales as ['uk', 'en'] })
      .notNull()
      .default('uk'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    brokenAt: at('broken_at'),
  },
  (t) => [
    uniqueIndex('organisation_endpoints_discord_idx')
      .on(t.organisationId)
      .where(sql`${t.kind} = 'discord'`),
    uniqueIndex('organisation_endpoints_telegram_idx')
      .on(t.organisationId)
      .where(sql`${t.kind} = 'telegram'`),
  ],
);

/**
 * The outbox of those events: a row per event and endpoint, written in the transaction of the
 * change, claimed by the deliveries' sweep (`for update skip locked`) and tried with back-off until
 * it is sent or given up. The manage page shows the latest as the delivery log.
 */
export const endpointDeliveries = pgTable(
  'endpoint_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => organisationEndpoints.id, { onDelete: 'cascade' }),
    event: text('event', { enum: ORGANISATION_EVENTS }).notNull(),
    payload: jsonb('payload').$type<EventPayload>().notNull(),
    state: text('state', { enum: DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
    /** The service's answer to the last attempt (0: no answer: down or too slow). */
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: at('sent_at'),
  },
  (t) => [
    index('endpoint_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
    index('endpoint_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
  ],
);
