CREATE TABLE "stage_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stage_matches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"round_id" uuid NOT NULL,
	"group_number" integer,
	"side" text,
	"round" integer NOT NULL,
	"position" integer NOT NULL,
	"participant_a" uuid,
	"participant_b" uuid,
	"score_a" integer,
	"score_b" integer,
	"games" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"winner" uuid,
	"forfeit" text,
	"status" text DEFAULT 'waiting' NOT NULL,
	"scheduled_at" timestamp with time zone,
	"comment" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stage_matches_scores_check" CHECK (coalesce("stage_matches"."score_a", 0) >= 0 and coalesce("stage_matches"."score_b", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "stage_rounds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"group_id" uuid,
	"side" text,
	"number" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tournament_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"format" text NOT NULL,
	"seeding" text DEFAULT 'order' NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"seeds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"disqualified" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"from_stage_id" uuid,
	"advance" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "stage_match_id" uuid;--> statement-breakpoint
ALTER TABLE "stage_groups" ADD CONSTRAINT "stage_groups_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD CONSTRAINT "stage_matches_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_matches" ADD CONSTRAINT "stage_matches_round_id_stage_rounds_id_fk" FOREIGN KEY ("round_id") REFERENCES "public"."stage_rounds"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_rounds" ADD CONSTRAINT "stage_rounds_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_rounds" ADD CONSTRAINT "stage_rounds_group_id_stage_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."stage_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stages" ADD CONSTRAINT "stages_tournament_id_tournaments_id_fk" FOREIGN KEY ("tournament_id") REFERENCES "public"."tournaments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stage_groups_stage_number_idx" ON "stage_groups" USING btree ("stage_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "stage_matches_round_position_idx" ON "stage_matches" USING btree ("round_id","position");--> statement-breakpoint
CREATE INDEX "stage_matches_stage_idx" ON "stage_matches" USING btree ("stage_id");--> statement-breakpoint
CREATE INDEX "stage_rounds_stage_idx" ON "stage_rounds" USING btree ("stage_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stages_tournament_number_idx" ON "stages" USING btree ("tournament_id","number");--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_stage_match_id_stage_matches_id_fk" FOREIGN KEY ("stage_match_id") REFERENCES "public"."stage_matches"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "matches_stage_match_idx" ON "matches" USING btree ("stage_match_id");--> statement-breakpoint
-- Every drawn bracket becomes its tournament's first stage, losing nothing: the first round's
-- slots are the seeds, each match a row with its sides, winner and comment (issue 21).
INSERT INTO "stages" ("tournament_id", "number", "format", "seeding", "seeds", "created_at")
SELECT t."id", 1, 'single_elimination', 'order',
  (SELECT jsonb_agg(s."slot" ORDER BY m."pos", s."k")
     FROM jsonb_array_elements(t."bracket"->0->'matches') WITH ORDINALITY AS m("match", "pos"),
     LATERAL (VALUES (1, m."match"->'a'), (2, m."match"->'b')) AS s("k", "slot")),
  t."updated_at"
FROM "tournaments" t
WHERE jsonb_typeof(t."bracket") = 'array' AND jsonb_array_length(t."bracket") > 0;--> statement-breakpoint
INSERT INTO "stage_rounds" ("stage_id", "side", "number")
SELECT s."id", 'winners', r."n"
FROM "stages" s
JOIN "tournaments" t ON t."id" = s."tournament_id"
CROSS JOIN LATERAL jsonb_array_elements(t."bracket") WITH ORDINALITY AS r("round", "n");--> statement-breakpoint
INSERT INTO "stage_matches" ("stage_id", "round_id", "side", "round", "position", "participant_a", "participant_b", "winner", "status", "comment", "completed_at")
SELECT s."id", sr."id", 'winners', r."n", m."pos",
  (m."match"->>'a')::uuid, (m."match"->>'b')::uuid, (m."match"->>'winner')::uuid,
  CASE
    WHEN m."match"->>'winner' IS NOT NULL THEN 'completed'
    WHEN m."match"->>'a' IS NOT NULL AND m."match"->>'b' IS NOT NULL THEN 'ready'
    -- Sides not yet known (the stage service settles every row on its first write).
    ELSE 'waiting'
  END,
  coalesce(m."match"->>'comment', ''),
  CASE WHEN m."match"->>'winner' IS NOT NULL THEN t."updated_at" END
FROM "stages" s
JOIN "tournaments" t ON t."id" = s."tournament_id"
CROSS JOIN LATERAL jsonb_array_elements(t."bracket") WITH ORDINALITY AS r("round", "n")
JOIN "stage_rounds" sr ON sr."stage_id" = s."id" AND sr."number" = r."n"
CROSS JOIN LATERAL jsonb_array_elements(r."round"->'matches') WITH ORDINALITY AS m("match", "pos");
