DROP INDEX "applications_live_solo_idx";--> statement-breakpoint
DROP INDEX "applications_live_team_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "applications_live_solo_idx" ON "applications" USING btree ("tournament_id","user_id") WHERE "applications"."team_id" is null and "applications"."status" in ('pending', 'approved');--> statement-breakpoint
CREATE UNIQUE INDEX "applications_live_team_idx" ON "applications" USING btree ("tournament_id","team_id") WHERE "applications"."team_id" is not null and "applications"."status" in ('pending', 'approved');