DROP INDEX "applications_tournament_idx";--> statement-breakpoint
CREATE INDEX "applications_tournament_status_idx" ON "applications" USING btree ("tournament_id","status","created_at");--> statement-breakpoint
CREATE INDEX "applications_status_created_idx" ON "applications" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "saved_news_news_idx" ON "saved_news" USING btree ("news_id");--> statement-breakpoint
CREATE INDEX "earned_achievements_owner_user_idx" ON "earned_achievements" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "earned_achievements_owner_team_idx" ON "earned_achievements" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "matches_tournament_idx" ON "matches" USING btree ("tournament_id");--> statement-breakpoint
CREATE INDEX "player_game_stats_game_wins_idx" ON "player_game_stats" USING btree ("game_id","matches_won");--> statement-breakpoint
CREATE INDEX "player_game_stats_game_winrate_idx" ON "player_game_stats" USING btree ("game_id",("matches_won"::float8 / nullif("matches_played", 0)) desc nulls last);--> statement-breakpoint
CREATE INDEX "team_game_stats_game_wins_idx" ON "team_game_stats" USING btree ("game_id","matches_won");--> statement-breakpoint
CREATE INDEX "team_game_stats_game_winrate_idx" ON "team_game_stats" USING btree ("game_id",("matches_won"::float8 / nullif("matches_played", 0)) desc nulls last);