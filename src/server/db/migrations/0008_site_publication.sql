ALTER TABLE "site_builds" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "site_builds_published_at_idx" ON "site_builds" USING btree ("published_at");--> statement-breakpoint
-- Before this column the latest successful rebuild was the published one.
UPDATE "site_builds" SET "published_at" = "finished_at" WHERE "status" = 'succeeded';
