ALTER TABLE "tournaments" ADD COLUMN "title_key" text GENERATED ALWAYS AS (translate(lower("title"), 'абвгґдеєжзиіїйклмнопрстуфхцчшщьюяёъыэ', 'абвгдежзийклмнопрстуфхцчшщъыьэюяѐжюкж')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "applications_created_idx" ON "applications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "tournaments_game_title_idx" ON "tournaments" USING btree ("game_id","title_key");--> statement-breakpoint
CREATE INDEX "tournaments_date_idx" ON "tournaments" USING btree ("date");