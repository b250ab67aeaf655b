CREATE TABLE "match_check_ins" (
	"match_id" uuid NOT NULL,
	"participant_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_check_ins_match_id_participant_id_pk" PRIMARY KEY("match_id","participant_id")
);
--> statement-breakpoint
CREATE TABLE "match_evidence" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"user_id" uuid,
	"slot" text,
	"image_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"match_id" uuid NOT NULL,
	"user_id" uuid,
	"slot" text,
	"message" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "match_rooms" (
	"match_id" uuid PRIMARY KEY NOT NULL,
	"lobby" text DEFAULT '' NOT NULL,
	"lobby_by" uuid,
	"lobby_at" timestamp with time zone,
	"check_in_outcome" text,
	"check_in_closed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "match_check_in_minutes" integer;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "lobby_host" text DEFAULT 'organiser' NOT NULL;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD COLUMN "ready_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "match_check_ins" ADD CONSTRAINT "match_check_ins_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_check_ins" ADD CONSTRAINT "match_check_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_evidence" ADD CONSTRAINT "match_evidence_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_evidence" ADD CONSTRAINT "match_evidence_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_evidence" ADD CONSTRAINT "match_evidence_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_messages" ADD CONSTRAINT "match_messages_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_messages" ADD CONSTRAINT "match_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_rooms" ADD CONSTRAINT "match_rooms_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_rooms" ADD CONSTRAINT "match_rooms_lobby_by_users_id_fk" FOREIGN KEY ("lobby_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "match_evidence_match_idx" ON "match_evidence" USING btree ("match_id","created_at");--> statement-breakpoint
CREATE INDEX "match_messages_match_created_idx" ON "match_messages" USING btree ("match_id","created_at");--> statement-breakpoint
CREATE INDEX "stage_matches_ready_at_idx" ON "stage_matches" USING btree ("ready_at") WHERE "stage_matches"."status" = 'ready' and "stage_matches"."ready_at" is not null;--> statement-breakpoint
-- The ready matches of before get their timer's start from their last change: a check-in turned on later starts from then (services/match-room/check-in.ts).
UPDATE "stage_matches" SET "ready_at" = "updated_at" WHERE "status" = 'ready' AND "participant_a" IS NOT NULL AND "participant_b" IS NOT NULL;
