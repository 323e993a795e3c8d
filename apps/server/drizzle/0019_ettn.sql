CREATE TABLE "ettn_credentials" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"identity" jsonb NOT NULL,
	"certificate" text NOT NULL,
	"private_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registered_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid,
	"file_name" text NOT NULL,
	"signing_role" text NOT NULL,
	"xml" text NOT NULL,
	"summary" jsonb NOT NULL,
	"status" text NOT NULL,
	"process_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_aliases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"qualifier" text NOT NULL,
	"value" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"process_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"act_type" text,
	"status" text NOT NULL,
	"route" text[] DEFAULT '{}'::text[] NOT NULL,
	"signed_by" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"process_id" uuid NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" uuid NOT NULL,
	"document_id" uuid NOT NULL,
	"entity_status" text NOT NULL,
	"actor_identifier" text NOT NULL,
	"timestamp" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_processes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"number" text,
	"issue_date_time" text,
	"status" text NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"parties" jsonb NOT NULL,
	"party_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"vehicle" text,
	"route_from" text,
	"route_to" text,
	"search_text" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"role_code" text NOT NULL,
	"signer_name" text,
	"signer_serial" text,
	"signed_at" timestamp with time zone,
	"verified" boolean NOT NULL,
	"signer_kind" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"alias_qualifier" text NOT NULL,
	"alias_value" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ettn_registry_transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigserial NOT NULL,
	"document_id" uuid NOT NULL,
	"process_id" uuid NOT NULL,
	"transaction_no" integer NOT NULL,
	"body" text NOT NULL,
	"meta" text NOT NULL,
	"status" text NOT NULL,
	"signing_role" text NOT NULL,
	"actor_identifier" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ettn_credentials" ADD CONSTRAINT "ettn_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registered_files" ADD CONSTRAINT "ettn_registered_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registered_files" ADD CONSTRAINT "ettn_registered_files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_aliases" ADD CONSTRAINT "ettn_registry_aliases_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_documents" ADD CONSTRAINT "ettn_registry_documents_process_id_ettn_registry_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."ettn_registry_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_events" ADD CONSTRAINT "ettn_registry_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_events" ADD CONSTRAINT "ettn_registry_events_process_id_ettn_registry_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."ettn_registry_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_signatures" ADD CONSTRAINT "ettn_registry_signatures_transaction_id_ettn_registry_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."ettn_registry_transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_subscriptions" ADD CONSTRAINT "ettn_registry_subscriptions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_transactions" ADD CONSTRAINT "ettn_registry_transactions_document_id_ettn_registry_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."ettn_registry_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_registry_transactions" ADD CONSTRAINT "ettn_registry_transactions_process_id_ettn_registry_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."ettn_registry_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ettn_registered_files_company_idx" ON "ettn_registered_files" USING btree ("company_id","status","updated_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "ettn_registry_aliases_value_idx" ON "ettn_registry_aliases" USING btree ("qualifier","value");--> statement-breakpoint
CREATE INDEX "ettn_registry_aliases_company_idx" ON "ettn_registry_aliases" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "ettn_registry_documents_process_idx" ON "ettn_registry_documents" USING btree ("process_id","created_at");--> statement-breakpoint
CREATE INDEX "ettn_registry_events_company_idx" ON "ettn_registry_events" USING btree ("company_id","id");--> statement-breakpoint
CREATE INDEX "ettn_registry_events_process_idx" ON "ettn_registry_events" USING btree ("process_id","id");--> statement-breakpoint
CREATE INDEX "ettn_registry_processes_party_ids_idx" ON "ettn_registry_processes" USING gin ("party_ids");--> statement-breakpoint
CREATE INDEX "ettn_registry_processes_updated_idx" ON "ettn_registry_processes" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "ettn_registry_signatures_transaction_idx" ON "ettn_registry_signatures" USING btree ("transaction_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ettn_registry_subscriptions_alias_idx" ON "ettn_registry_subscriptions" USING btree ("company_id","alias_qualifier","alias_value");--> statement-breakpoint
CREATE UNIQUE INDEX "ettn_registry_transactions_document_no_idx" ON "ettn_registry_transactions" USING btree ("document_id","transaction_no");--> statement-breakpoint
CREATE INDEX "ettn_registry_transactions_process_idx" ON "ettn_registry_transactions" USING btree ("process_id","seq");