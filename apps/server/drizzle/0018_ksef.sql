CREATE TABLE "ksef_sim_authentications" (
	"reference_number" text PRIMARY KEY NOT NULL,
	"context_type" text NOT NULL,
	"context_value" text NOT NULL,
	"method" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_value" text NOT NULL,
	"token_reference" text,
	"document_hash" text,
	"permissions" jsonb NOT NULL,
	"status" jsonb NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"redeemed_at" timestamp with time zone,
	"refresh_valid_until" timestamp with time zone,
	"last_refresh_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"timestamp_ms" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_exports" (
	"reference_number" text PRIMARY KEY NOT NULL,
	"context_type" text NOT NULL,
	"context_value" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ready_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" jsonb NOT NULL,
	"package" jsonb,
	"content" "bytea"
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_invoices" (
	"reference_number" text PRIMARY KEY NOT NULL,
	"session_reference" text NOT NULL,
	"ordinal_number" integer NOT NULL,
	"invoice_hash" text NOT NULL,
	"invoice_file_name" text,
	"invoicing_mode" text NOT NULL,
	"status" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"processing_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone NOT NULL,
	"ksef_number" text,
	"seller_nip" text,
	"buyer_nip" text,
	"invoice_type" text,
	"invoice_number" text,
	"issue_date" text,
	"metadata" jsonb,
	"plain_xml" text,
	"accepted" boolean NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_keys" (
	"name" text PRIMARY KEY NOT NULL,
	"private_key_pem" text NOT NULL,
	"certificate_der" "bytea",
	"public_key_id" text,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_sessions" (
	"reference_number" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"context_type" text NOT NULL,
	"context_value" text NOT NULL,
	"auth_reference" text NOT NULL,
	"token_reference" text,
	"auth_document_hash" text,
	"form_code" jsonb NOT NULL,
	"symmetric_key" "bytea",
	"iv" "bytea",
	"status_code" integer NOT NULL,
	"invoice_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"processed_at" timestamp with time zone,
	"batch" jsonb
);
--> statement-breakpoint
CREATE TABLE "ksef_sim_tokens" (
	"reference_number" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"context_type" text NOT NULL,
	"context_value" text NOT NULL,
	"author_type" text NOT NULL,
	"author_value" text NOT NULL,
	"description" text NOT NULL,
	"permissions" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"active_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_use_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ksef_settings" (
	"company_id" uuid PRIMARY KEY NOT NULL,
	"nip" text NOT NULL,
	"environment" text NOT NULL,
	"base_url" text,
	"auth_method" text NOT NULL,
	"token_sealed" text,
	"certificate_pem" text,
	"private_key_sealed" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "ksef_settings" ADD CONSTRAINT "ksef_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_settings" ADD CONSTRAINT "ksef_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ksef_sim_authentications_context_idx" ON "ksef_sim_authentications" USING btree ("context_type","context_value","started_at");--> statement-breakpoint
CREATE INDEX "ksef_sim_challenges_expires_idx" ON "ksef_sim_challenges" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "ksef_sim_invoices_session_idx" ON "ksef_sim_invoices" USING btree ("session_reference","ordinal_number");--> statement-breakpoint
CREATE UNIQUE INDEX "ksef_sim_invoices_ksef_number_idx" ON "ksef_sim_invoices" USING btree ("ksef_number");--> statement-breakpoint
CREATE UNIQUE INDEX "ksef_sim_invoices_duplicate_idx" ON "ksef_sim_invoices" USING btree ("seller_nip","invoice_type","invoice_number") WHERE accepted;--> statement-breakpoint
CREATE INDEX "ksef_sim_invoices_buyer_idx" ON "ksef_sim_invoices" USING btree ("buyer_nip","decided_at");--> statement-breakpoint
CREATE INDEX "ksef_sim_invoices_seller_idx" ON "ksef_sim_invoices" USING btree ("seller_nip","decided_at");--> statement-breakpoint
CREATE INDEX "ksef_sim_sessions_context_idx" ON "ksef_sim_sessions" USING btree ("context_type","context_value","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ksef_sim_tokens_hash_idx" ON "ksef_sim_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "ksef_sim_tokens_context_idx" ON "ksef_sim_tokens" USING btree ("context_type","context_value","created_at");