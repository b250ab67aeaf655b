CREATE TABLE "lobby_games" (
	"lobby_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"state" text NOT NULL,
	"entered_by" uuid,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lobby_games_lobby_id_number_pk" PRIMARY KEY("lobby_id","number")
);
--> statement-breakpoint
CREATE TABLE "stage_lobbies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"stage_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"number" integer NOT NULL,
	"members" jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"scheduled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lobby_games" ADD CONSTRAINT "lobby_games_lobby_id_stage_lobbies_id_fk" FOREIGN KEY ("lobby_id") REFERENCES "public"."stage_lobbies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lobby_games" ADD CONSTRAINT "lobby_games_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stage_lobbies" ADD CONSTRAINT "stage_lobbies_stage_id_stages_id_fk" FOREIGN KEY ("stage_id") REFERENCES "public"."stages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "stage_lobbies_stage_round_number_idx" ON "stage_lobbies" USING btree ("stage_id","round","number");