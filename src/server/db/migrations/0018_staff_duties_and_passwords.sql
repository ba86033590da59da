ALTER TABLE "users" DROP CONSTRAINT "users_roles_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_changed_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "previous_password_hashes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_administration_duty_check" CHECK (not ("users"."roles" && array['admin']::text[] and "users"."roles" && array['operator', 'editor', 'auditor']::text[]));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_operation_duty_check" CHECK (not ("users"."roles" && array['operator', 'editor']::text[] and "users"."roles" && array['admin', 'auditor']::text[]));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_audit_duty_check" CHECK (not ("users"."roles" && array['auditor']::text[] and "users"."roles" && array['admin', 'operator', 'editor']::text[]));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_roles_check" CHECK ("users"."roles" <@ array['individual', 'enterprise', 'partner', 'operator', 'editor', 'admin', 'auditor']::text[]);