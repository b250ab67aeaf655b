CREATE TABLE "endpoint_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_status" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "organisation_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"locale" text DEFAULT 'uk' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"broken_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "endpoint_deliveries" ADD CONSTRAINT "endpoint_deliveries_endpoint_id_organisation_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."organisation_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_endpoints" ADD CONSTRAINT "organisation_endpoints_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_endpoints" ADD CONSTRAINT "organisation_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "endpoint_deliveries_due_idx" ON "endpoint_deliveries" USING btree ("next_attempt_at") WHERE "endpoint_deliveries"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "endpoint_deliveries_endpoint_idx" ON "endpoint_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_endpoints_discord_idx" ON "organisation_endpoints" USING btree ("organisation_id") WHERE "organisation_endpoints"."kind" = 'discord';