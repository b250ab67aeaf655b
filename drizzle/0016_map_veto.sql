CREATE TABLE "match_veto_moves" (
	"match_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"action" text NOT NULL,
	"slot" text,
	"map" text,
	"side" integer,
	"role" text,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "match_veto_moves_match_id_number_pk" PRIMARY KEY("match_id","number")
);
--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "maps" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "games" ADD COLUMN "sides" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "maps" jsonb;--> statement-breakpoint
ALTER TABLE "tournaments" ADD COLUMN "veto_starter" text DEFAULT 'higherSeed' NOT NULL;--> statement-breakpoint
ALTER TABLE "match_veto_moves" ADD CONSTRAINT "match_veto_moves_match_id_stage_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."stage_matches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "match_veto_moves" ADD CONSTRAINT "match_veto_moves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The games the site ships with get their current competitive pools (lib/domain/map-pool.ts); an admin edits them in game management.
UPDATE "games" SET "maps" = '["Ancient","Anubis","Dust II","Inferno","Mirage","Nuke","Overpass"]'::jsonb, "sides" = '["CT","T"]'::jsonb WHERE lower("name") IN ('cs2', 'counter-strike 2') AND "maps" = '[]'::jsonb;--> statement-breakpoint
UPDATE "games" SET "maps" = '["Bind","Breeze","Fracture","Haven","Lotus","Pearl","Split"]'::jsonb, "sides" = '["Attack","Defense"]'::jsonb WHERE lower("name") = 'valorant' AND "maps" = '[]'::jsonb;
