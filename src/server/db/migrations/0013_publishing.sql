CREATE TABLE "site_contents" (
	"build_id" integer PRIMARY KEY NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scheduled_publications" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "scheduled_publications_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"action" text NOT NULL,
	"paths" jsonb NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"job_id" text,
	"build_id" integer,
	"error" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "scheduled_publications_action_check" CHECK ("scheduled_publications"."action" in ('publish', 'unpublish')),
	CONSTRAINT "scheduled_publications_status_check" CHECK ("scheduled_publications"."status" in ('scheduled', 'running', 'done', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "mode" text DEFAULT 'full' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "base_build_id" integer;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "job_id" text;--> statement-breakpoint
CREATE INDEX "scheduled_publications_run_at_idx" ON "scheduled_publications" USING btree ("run_at");--> statement-breakpoint
ALTER TABLE "site_builds" ADD CONSTRAINT "site_builds_mode_check" CHECK ("site_builds"."mode" in ('full', 'incremental', 'initial'));