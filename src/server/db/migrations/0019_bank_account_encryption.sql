CREATE TABLE "field_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "field_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"wrapped" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_bindings" ALTER COLUMN "account_no" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "bank_challenges" ALTER COLUMN "account_no" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "bank_bindings" ADD COLUMN "account_no_key" integer;--> statement-breakpoint
ALTER TABLE "bank_bindings" ADD COLUMN "account_no_masked" varchar(32) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_challenges" ADD COLUMN "account_no_key" integer;--> statement-breakpoint
ALTER TABLE "bank_bindings" ADD CONSTRAINT "bank_bindings_account_no_key_field_keys_id_fk" FOREIGN KEY ("account_no_key") REFERENCES "public"."field_keys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_challenges" ADD CONSTRAINT "bank_challenges_account_no_key_field_keys_id_fk" FOREIGN KEY ("account_no_key") REFERENCES "public"."field_keys"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- Rows written before: their masked form now (lib/masking.ts maskAccountNo); start-up seals their numbers (fieldEncryption.ts).
UPDATE "bank_bindings" SET "account_no_masked" = CASE
  WHEN length("account_no") <= 4 THEN '****'
  WHEN length("account_no") <= 8 THEN '**** ' || right("account_no", 4)
  ELSE left("account_no", 4) || ' **** **** ' || right("account_no", 4)
END;
