CREATE TABLE "match_actions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"side" text,
	"score_a" integer,
	"score_b" integer,
	"games" jsonb,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "applications_live_solo_idx";--> statement-breakpoint
DROP INDEX "applications_live_team_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'uk' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_token" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "checked_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "max_participants" integer;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "registration_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "registration_closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "check_in_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "check_in_opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "check_in_closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "check_in_closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "confirmation_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD COLUMN "report_state" text;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD COLUMN "reported_by" text;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD COLUMN "confirm_by" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mail_state" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "mail_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "match_actions" ADD CONSTRAINT "match_actions_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_actions" ADD CONSTRAINT "match_actions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_actions_match_idx" ON "match_actions" USING btree ("match_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_calendar_token_idx" ON "users" USING btree ("calendar_token");--> statement-breakpoint
CREATE INDEX "stage_matches_confirm_by_idx" ON "stage_matches" USING btree ("confirm_by") WHERE "stage_matches"."confirm_by" is not null;--> statement-breakpoint
CREATE INDEX "notifications_mail_pending_idx" ON "notifications" USING btree ("date") WHERE "notifications"."mail_state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "applications_live_solo_idx" ON "applications" USING btree ("tournament_id","user_id") WHERE "applications"."team_id" is null and "applications"."status" in ('pending', 'approved', 'waitlisted');--> statement-breakpoint
CREATE UNIQUE INDEX "applications_live_team_idx" ON "applications" USING btree ("tournament_id","team_id") WHERE "applications"."team_id" is not null and "applications"."status" in ('pending', 'approved', 'waitlisted');