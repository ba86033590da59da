CREATE TABLE "consents" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consents_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"document" text NOT NULL,
	"version" varchar(16) NOT NULL,
	"decision" text NOT NULL,
	"origin" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"ip" text,
	"user_agent" text,
	"device_id" varchar(32),
	CONSTRAINT "consents_document_check" CHECK (document in ('user-agreement', 'privacy-policy')),
	CONSTRAINT "consents_decision_check" CHECK ("consents"."decision" in ('agreed', 'declined')),
	CONSTRAINT "consents_origin_check" CHECK ("consents"."origin" in ('register', 'reconsent'))
);
--> statement-breakpoint
ALTER TABLE "consents" ADD CONSTRAINT "consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consents_user_id_document_at_idx" ON "consents" USING btree ("user_id","document","at");