ALTER TABLE "users" ADD COLUMN "name_skeleton" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "name_skeleton_upper" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "name_skeleton" text;--> statement-breakpoint
ALTER TABLE "teams" ADD COLUMN "name_skeleton_upper" text;--> statement-breakpoint
CREATE UNIQUE INDEX "users_name_skeleton_idx" ON "users" USING btree ("name_skeleton");--> statement-breakpoint
CREATE UNIQUE INDEX "users_name_skeleton_upper_idx" ON "users" USING btree ("name_skeleton_upper");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_skeleton_idx" ON "teams" USING btree ("name_skeleton");--> statement-breakpoint
CREATE UNIQUE INDEX "teams_name_skeleton_upper_idx" ON "teams" USING btree ("name_skeleton_upper");