ALTER TABLE "organisation_endpoints" ADD COLUMN "events" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_endpoints" ADD COLUMN "secret" text;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_endpoints_telegram_idx" ON "organisation_endpoints" USING btree ("organisation_id") WHERE "organisation_endpoints"."kind" = 'telegram';--> statement-breakpoint
UPDATE "organisation_endpoints" SET "events" = ARRAY['tournament.created','checkIn.opened','round.started','tournament.finished']::text[] WHERE "kind" = 'discord';
