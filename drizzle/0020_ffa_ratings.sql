ALTER TABLE "match_participants" ADD COLUMN "placement" integer;--> statement-breakpoint
ALTER TABLE "matches" ADD COLUMN "lobby_id" uuid;--> statement-breakpoint
ALTER TABLE "matches" ADD CONSTRAINT "matches_lobby_id_stage_lobbies_id_fk" FOREIGN KEY ("lobby_id") REFERENCES "public"."stage_lobbies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "matches_lobby_idx" ON "matches" USING btree ("lobby_id");