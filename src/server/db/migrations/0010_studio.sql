CREATE TABLE "content_images" (
	"name" text PRIMARY KEY NOT NULL,
	"file_name" text NOT NULL,
	"mime" text NOT NULL,
	"bytes" integer NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"uploaded_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_images_mime_check" CHECK ("content_images"."mime" in ('image/jpeg', 'image/png', 'image/webp'))
);
--> statement-breakpoint
CREATE TABLE "content_items" (
	"path" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"published" jsonb,
	"published_version" integer DEFAULT 0 NOT NULL,
	"draft" jsonb,
	"draft_deleted" boolean DEFAULT false NOT NULL,
	"draft_by" integer,
	"draft_at" timestamp with time zone,
	"revision" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "content_publications" (
	"build_id" integer NOT NULL,
	"path" text NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "content_publications_build_id_path_pk" PRIMARY KEY("build_id","path")
);
--> statement-breakpoint
CREATE TABLE "content_versions" (
	"path" text NOT NULL,
	"version" integer NOT NULL,
	"data" jsonb,
	"build_id" integer,
	"published_by" integer,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "content_versions_path_version_pk" PRIMARY KEY("path","version")
);
--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_roles_check";--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "purpose" text DEFAULT 'publish' NOT NULL;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "started_by" integer;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "phase" text;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "progress_done" integer;--> statement-breakpoint
ALTER TABLE "site_builds" ADD COLUMN "progress_total" integer;--> statement-breakpoint
CREATE INDEX "content_items_kind_idx" ON "content_items" USING btree ("kind");--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_check" CHECK ("users"."roles" <@ array['individual', 'enterprise', 'partner', 'operator', 'editor']::text[]);--> statement-breakpoint
ALTER TABLE "site_builds" ADD CONSTRAINT "site_builds_purpose_check" CHECK ("site_builds"."purpose" in ('publish', 'preview'));