import { customType, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Uploaded pictures (avatars, logos), re-encoded before they are stored. */
export const images = pgTable('images', {
  id: id(),
  mime: text('mime').notNull(),
  data: bytea('data').notNull(),
  etag: text('etag').notNull(),
  width: integer('width').notNull(),
  height: integer('height').notNull(),
  createdAt: createdAt(),
});
