ALTER TABLE "notifications" ADD COLUMN "mail_after" timestamp with time zone;--> statement-breakpoint
-- The clock moves out of the payload (where the first outbox kept it) into its column.
UPDATE "notifications" SET "mail_after" = ("payload" ->> 'mailAfter')::timestamptz WHERE "mail_state" = 'pending' AND "payload" ? 'mailAfter';--> statement-breakpoint
UPDATE "notifications" SET "payload" = "payload" - 'mailAfter' WHERE "payload" ? 'mailAfter';
