CREATE TABLE "interchange_keys" (
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"sender_id" text NOT NULL,
	"control_reference" text NOT NULL,
	"interchange_id" uuid NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoked_by" uuid
);
--> statement-breakpoint
DROP INDEX "interchanges_duplicate_key";--> statement-breakpoint
DROP INDEX "documents_list_idx";--> statement-breakpoint
DROP INDEX "documents_partner_idx";--> statement-breakpoint
DROP INDEX "documents_type_idx";--> statement-breakpoint
DROP INDEX "documents_status_idx";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "interchanges" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "interchanges" ADD COLUMN "api_key_id" uuid;--> statement-breakpoint
ALTER TABLE "interchanges" ADD COLUMN "messages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "interchange_keys" ADD CONSTRAINT "interchange_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interchange_keys" ADD CONSTRAINT "interchange_keys_interchange_id_interchanges_id_fk" FOREIGN KEY ("interchange_id") REFERENCES "public"."interchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_api_keys" ADD CONSTRAINT "company_api_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_api_keys" ADD CONSTRAINT "company_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_api_keys" ADD CONSTRAINT "company_api_keys_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interchange_keys_key" ON "interchange_keys" USING btree ("company_id","direction","sender_id","control_reference");--> statement-breakpoint
CREATE INDEX "interchange_keys_interchange_idx" ON "interchange_keys" USING btree ("interchange_id");--> statement-breakpoint
-- Written by hand: the interchanges stored before this migration keep their duplicate check (their first UNB).
INSERT INTO "interchange_keys" ("company_id", "direction", "sender_id", "control_reference", "interchange_id") SELECT "company_id", "direction", "sender_id", "control_reference", "id" FROM "interchanges";--> statement-breakpoint
CREATE UNIQUE INDEX "company_api_keys_prefix_key" ON "company_api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE INDEX "company_api_keys_company_created_idx" ON "company_api_keys" USING btree ("company_id","created_at","id");--> statement-breakpoint
ALTER TABLE "interchanges" ADD CONSTRAINT "interchanges_api_key_id_company_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."company_api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_session_idx" ON "documents" USING btree ("session_id","direction","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_reference_idx" ON "documents" USING btree ("company_id","direction","reference_number" text_pattern_ops) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_kind_idx" ON "documents" USING btree ("company_id","direction","kind","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_additional_status_idx" ON "documents" USING btree ("company_id","direction","additional_status","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_delivery_point_idx" ON "documents" USING btree ("company_id","direction","delivery_point_gln","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_buyer_tax_idx" ON "documents" USING btree ("company_id","direction","buyer_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_seller_tax_idx" ON "documents" USING btree ("company_id","direction","seller_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_business_date_idx" ON "documents" USING btree ("company_id","direction","business_date") WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_delivery_date_idx" ON "documents" USING btree ("company_id","direction","expected_delivery_date") WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "interchanges_first_unb_idx" ON "interchanges" USING btree ("company_id","direction","sender_id","control_reference");--> statement-breakpoint
CREATE INDEX "interchanges_session_idx" ON "interchanges" USING btree ("session_id") WHERE "interchanges"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("company_id","direction","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_partner_idx" ON "documents" USING btree ("company_id","direction","partner_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_type_idx" ON "documents" USING btree ("company_id","direction","document_type","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_status_idx" ON "documents" USING btree ("company_id","direction","status","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;