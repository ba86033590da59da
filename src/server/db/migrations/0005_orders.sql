CREATE SEQUENCE "public"."order_no_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "bank_bindings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "bank_bindings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enterprise_id" integer NOT NULL,
	"bank" varchar(16) DEFAULT 'icbc' NOT NULL,
	"account_no" varchar(32) NOT NULL,
	"account_name" varchar(100) NOT NULL,
	"emp_name" varchar(64) NOT NULL,
	"emp_no" varchar(32) NOT NULL,
	"bank_reference" varchar(64) NOT NULL,
	"bound_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_challenges" (
	"id" char(64) PRIMARY KEY NOT NULL,
	"enterprise_id" integer NOT NULL,
	"account_no" varchar(32) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "enterprise_auth_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprise_auth_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"enterprise_id" integer NOT NULL,
	"kind" text NOT NULL,
	"original_name" varchar(255) NOT NULL,
	"stored_name" varchar(80) NOT NULL,
	"content_type" varchar(32) NOT NULL,
	"size" integer NOT NULL,
	"sha256" char(64) NOT NULL,
	"uploaded_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprise_auth_files_kind_check" CHECK ("enterprise_auth_files"."kind" in ('businessLicence', 'authLetter'))
);
--> statement-breakpoint
CREATE TABLE "order_status_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" integer NOT NULL,
	"from_status" integer,
	"to_status" integer NOT NULL,
	"actor_user_id" integer,
	"actor_role" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_status_history_actor_role_check" CHECK ("order_status_history"."actor_role" in ('enterprise', 'operator', 'system'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_no" varchar(20) NOT NULL,
	"enterprise_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"area_code" char(6) NOT NULL,
	"product_id" varchar(8) NOT NULL,
	"set_id" varchar(64) NOT NULL,
	"set_name" varchar(60) NOT NULL,
	"selling_set_id" varchar(64) NOT NULL,
	"org_com_id" varchar(64) NOT NULL,
	"org_com_name" varchar(100) NOT NULL,
	"partner_id" integer,
	"scheme_param_id" varchar(64) NOT NULL,
	"scheme_param" jsonb NOT NULL,
	"contract_start" date NOT NULL,
	"contract_months" integer NOT NULL,
	"estimated_consumption" numeric(14, 3) NOT NULL,
	"status" integer DEFAULT 10 NOT NULL,
	"status_reason" text DEFAULT '' NOT NULL,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_status_check" CHECK ("orders"."status" in (10, 20, 30, 40, 90, 91)),
	CONSTRAINT "orders_contract_months_check" CHECK ("orders"."contract_months" between 1 and 120)
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "message_key" varchar(64);--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "message_vars" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "ref" varchar(64);--> statement-breakpoint
ALTER TABLE "bank_bindings" ADD CONSTRAINT "bank_bindings_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_bindings" ADD CONSTRAINT "bank_bindings_bound_by_user_id_users_id_fk" FOREIGN KEY ("bound_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_challenges" ADD CONSTRAINT "bank_challenges_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_auth_files" ADD CONSTRAINT "enterprise_auth_files_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enterprise_auth_files" ADD CONSTRAINT "enterprise_auth_files_uploaded_by_user_id_users_id_fk" FOREIGN KEY ("uploaded_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_status_history" ADD CONSTRAINT "order_status_history_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bank_bindings_enterprise_id_key" ON "bank_bindings" USING btree ("enterprise_id");--> statement-breakpoint
CREATE INDEX "bank_challenges_expires_at_idx" ON "bank_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_auth_files_enterprise_id_kind_key" ON "enterprise_auth_files" USING btree ("enterprise_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprise_auth_files_stored_name_key" ON "enterprise_auth_files" USING btree ("stored_name");--> statement-breakpoint
CREATE INDEX "order_status_history_order_id_at_idx" ON "order_status_history" USING btree ("order_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_no_key" ON "orders" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "orders_enterprise_id_created_at_idx" ON "orders" USING btree ("enterprise_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_status_created_at_idx" ON "orders" USING btree ("status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "enterprises_auth_status_submitted_at_idx" ON "enterprises" USING btree ("auth_status","submitted_at");--> statement-breakpoint
CREATE INDEX "notices_user_id_ref_idx" ON "notices" USING btree ("user_id","ref");