CREATE TABLE "partner_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "partner_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"partner_id" integer NOT NULL,
	"emp_id" varchar(32) NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "partner_institutions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "partner_institutions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"code" varchar(32) NOT NULL,
	"name" varchar(100) NOT NULL,
	"parent_id" integer,
	"level" smallint NOT NULL,
	"path" varchar(200) NOT NULL,
	"area_code" char(6),
	"address" varchar(200) DEFAULT '' NOT NULL,
	"phone" varchar(20) DEFAULT '' NOT NULL,
	"contact_name" varchar(64) DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_institutions_level_check" CHECK ("partner_institutions"."level" in (1, 2, 3)),
	CONSTRAINT "partner_institutions_root_check" CHECK (("partner_institutions"."level" = 1) = ("partner_institutions"."parent_id" is null))
);
--> statement-breakpoint
CREATE TABLE "settlement_monthly" (
	"partner_id" integer NOT NULL,
	"settle_month" date NOT NULL,
	"product_id" varchar(8) NOT NULL,
	"area_code" char(6) NOT NULL,
	"results" integer NOT NULL,
	"settled_energy" numeric(18, 3) NOT NULL,
	"settled_amount" numeric(20, 2) NOT NULL,
	"saving" numeric(20, 2) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlement_results" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "settlement_results_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" integer NOT NULL,
	"enterprise_id" integer NOT NULL,
	"partner_id" integer,
	"area_code" char(6) NOT NULL,
	"product_id" varchar(8) NOT NULL,
	"settle_month" date NOT NULL,
	"settled_energy" numeric(14, 3) NOT NULL,
	"contract_price" numeric(8, 5) NOT NULL,
	"market_price" numeric(8, 5) NOT NULL,
	"settled_amount" numeric(16, 2) NOT NULL,
	"saving" numeric(16, 2) NOT NULL,
	"status" smallint NOT NULL,
	"imported_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settlement_results_status_check" CHECK ("settlement_results"."status" in (1, 2)),
	CONSTRAINT "settlement_results_settled_energy_check" CHECK ("settlement_results"."settled_energy" >= 0)
);
--> statement-breakpoint
ALTER TABLE "enterprises" ADD COLUMN "partner_id" integer;--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_partner_id_partner_institutions_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_institutions" ADD CONSTRAINT "partner_institutions_parent_id_partner_institutions_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."partner_institutions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_monthly" ADD CONSTRAINT "settlement_monthly_partner_id_partner_institutions_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_results" ADD CONSTRAINT "settlement_results_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_results" ADD CONSTRAINT "settlement_results_enterprise_id_enterprises_id_fk" FOREIGN KEY ("enterprise_id") REFERENCES "public"."enterprises"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_results" ADD CONSTRAINT "settlement_results_partner_id_partner_institutions_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_institutions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlement_results" ADD CONSTRAINT "settlement_results_imported_by_user_id_users_id_fk" FOREIGN KEY ("imported_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_accounts_user_id_partner_id_key" ON "partner_accounts" USING btree ("user_id","partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_accounts_partner_id_emp_id_key" ON "partner_accounts" USING btree ("partner_id","emp_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_institutions_code_key" ON "partner_institutions" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "partner_institutions_path_key" ON "partner_institutions" USING btree ("path");--> statement-breakpoint
CREATE INDEX "partner_institutions_parent_id_idx" ON "partner_institutions" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_monthly_key" ON "settlement_monthly" USING btree ("settle_month","partner_id","product_id","area_code");--> statement-breakpoint
CREATE INDEX "settlement_monthly_partner_id_idx" ON "settlement_monthly" USING btree ("partner_id","settle_month");--> statement-breakpoint
CREATE UNIQUE INDEX "settlement_results_order_id_settle_month_key" ON "settlement_results" USING btree ("order_id","settle_month");--> statement-breakpoint
CREATE INDEX "settlement_results_partner_id_settle_month_idx" ON "settlement_results" USING btree ("partner_id","settle_month" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "settlement_results_settle_month_idx" ON "settlement_results" USING btree ("settle_month" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "settlement_results_enterprise_id_idx" ON "settlement_results" USING btree ("enterprise_id");--> statement-breakpoint
ALTER TABLE "enterprises" ADD CONSTRAINT "enterprises_partner_id_partner_institutions_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_institutions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_partner_id_partner_institutions_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partner_institutions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "enterprises_partner_id_created_at_idx" ON "enterprises" USING btree ("partner_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_partner_id_created_at_idx" ON "orders" USING btree ("partner_id","created_at");