CREATE TABLE "organisation_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scope" text NOT NULL,
	"hash" text NOT NULL,
	"prefix" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "organisation_api_keys" ADD CONSTRAINT "organisation_api_keys_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_api_keys" ADD CONSTRAINT "organisation_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_api_keys_hash_idx" ON "organisation_api_keys" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_api_keys_live_name_idx" ON "organisation_api_keys" USING btree ("organisation_id",lower("name")) WHERE "organisation_api_keys"."revoked_at" is null;--> statement-breakpoint
CREATE INDEX "organisation_api_keys_organisation_idx" ON "organisation_api_keys" USING btree ("organisation_id","created_at");