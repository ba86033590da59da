CREATE TABLE "site_nodes" (
	"node_id" text PRIMARY KEY NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"staged_build_id" integer
);
