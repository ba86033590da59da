CREATE TABLE "captchas" (
	"id" char(64) PRIMARY KEY NOT NULL,
	"answer_hash" char(64) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "enterprises" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "enterprises_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"owner_user_id" integer NOT NULL,
	"enterprise_name" varchar(100) NOT NULL,
	"credit_code" char(18),
	"legal_person" varchar(64) DEFAULT '' NOT NULL,
	"contact_name" varchar(64) DEFAULT '' NOT NULL,
	"contact_phone" varchar(11) DEFAULT '' NOT NULL,
	"address" varchar(200) DEFAULT '' NOT NULL,
	"industry" varchar(64) DEFAULT '' NOT NULL,
	"area_code" char(6),
	"clearance_account" varchar(32) NOT NULL,
	"electricity_accounts" text[] DEFAULT '{}'::text[] NOT NULL,
	"voltage_level" varchar(16) DEFAULT '' NOT NULL,
	"annual_consumption" numeric(14, 3),
	"auth_status" integer DEFAULT 0 NOT NULL,
	"auth_type" text,
	"review_comment" text DEFAULT '' NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "enterprises_auth_status_check" CHECK ("enterprises"."auth_status" in (0, 1, 2, 3)),
	CONSTRAINT "enterprises_auth_type_check" CHECK ("enterprises"."auth_type" is null or "enterprises"."auth_type" in ('certificate', 'usbkey'))
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"title" varchar(100) NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notices_type_check" CHECK ("notices"."type" in ('notification', 'message', 'event'))
);
--> statement-breakpoint
ALTER TABLE "sms_codes" DROP CONSTRAINT "sms_codes_purpose_check";--> statement-breakpoint
ALTER TABLE "enterprises" ADD CONSTRAINT "enterprises_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captchas_expires_at_idx" ON "captchas" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprises_clearance_account_key" ON "enterprises" USING btree ("clearance_account");--> statement-breakpoint
CREATE UNIQUE INDEX "enterprises_owner_user_id_key" ON "enterprises" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "notices_user_id_created_at_idx" ON "notices" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "sms_codes" ADD CONSTRAINT "sms_codes_purpose_check" CHECK ("sms_codes"."purpose" in ('login', 'register', 'modify', 'verify', 'binding', 'mobile'));