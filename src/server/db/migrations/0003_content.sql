CREATE TABLE "requirements" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "requirements_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"contact_name" varchar(32) NOT NULL,
	"phone" varchar(11) NOT NULL,
	"company" varchar(100) DEFAULT '' NOT NULL,
	"area_code" varchar(6) NOT NULL,
	"biz_type_id" varchar(32) DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"ip" text,
	"status" text DEFAULT 'new' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "requirements_status_check" CHECK ("requirements"."status" in ('new', 'contacted', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "site_builds" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "site_builds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"status" text DEFAULT 'running' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"pages" integer,
	"error" text,
	"output_dir" text,
	CONSTRAINT "site_builds_status_check" CHECK ("site_builds"."status" in ('running', 'succeeded', 'failed'))
);
--> statement-breakpoint
CREATE INDEX "requirements_created_at_idx" ON "requirements" USING btree ("created_at");