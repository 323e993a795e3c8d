CREATE TABLE "document_links" (
	"from_id" uuid NOT NULL,
	"to_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "document_status_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"field" text NOT NULL,
	"from_value" text,
	"to_value" text,
	"user_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"reason" text
);
--> statement-breakpoint
CREATE TABLE "documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"interchange_id" uuid NOT NULL,
	"message_index" integer NOT NULL,
	"kind" text NOT NULL,
	"document_type" text NOT NULL,
	"number" text,
	"reference_number" text,
	"function_code" text,
	"document_name_code" text,
	"message_type" text NOT NULL,
	"message_category" text,
	"standard" text NOT NULL,
	"version" text NOT NULL,
	"test" boolean DEFAULT false NOT NULL,
	"partner_id" uuid,
	"partner_gln" text,
	"partner_name" text,
	"delivery_point_name" text,
	"delivery_point_gln" text,
	"buyer_gln" text,
	"supplier_gln" text,
	"buyer_tax_id" text,
	"seller_tax_id" text,
	"expected_delivery_date" date,
	"business_date" date,
	"platform_timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text NOT NULL,
	"processing_status" text DEFAULT 'OK' NOT NULL,
	"business_status" text,
	"additional_status" text,
	"body" jsonb NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"payload_offset" integer NOT NULL,
	"payload_length" integer NOT NULL,
	"linked_copy_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "documents_direction_check" CHECK ("documents"."direction" in ('in', 'out')),
	CONSTRAINT "documents_status_check" CHECK ("documents"."status" in ('received', 'read', 'sent', 'error', 'waiting'))
);
--> statement-breakpoint
CREATE TABLE "interchanges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"sender_id" text NOT NULL,
	"sender_qualifier" text,
	"recipient_id" text NOT NULL,
	"recipient_qualifier" text,
	"control_reference" text NOT NULL,
	"syntax" text NOT NULL,
	"content_sha256" text NOT NULL,
	"payload_key" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" uuid,
	"state" text DEFAULT 'queued' NOT NULL,
	"findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message_count" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	CONSTRAINT "interchanges_direction_check" CHECK ("interchanges"."direction" in ('in', 'out')),
	CONSTRAINT "interchanges_state_check" CHECK ("interchanges"."state" in ('queued', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "document_links" ADD CONSTRAINT "document_links_from_id_documents_id_fk" FOREIGN KEY ("from_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_links" ADD CONSTRAINT "document_links_to_id_documents_id_fk" FOREIGN KEY ("to_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_status_history" ADD CONSTRAINT "document_status_history_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_status_history" ADD CONSTRAINT "document_status_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_interchange_id_interchanges_id_fk" FOREIGN KEY ("interchange_id") REFERENCES "public"."interchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interchanges" ADD CONSTRAINT "interchanges_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interchanges" ADD CONSTRAINT "interchanges_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_links_key" ON "document_links" USING btree ("from_id","to_id","kind");--> statement-breakpoint
CREATE INDEX "document_links_to_idx" ON "document_links" USING btree ("to_id");--> statement-breakpoint
CREATE INDEX "document_status_history_document_idx" ON "document_status_history" USING btree ("document_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "documents_message_copy_key" ON "documents" USING btree ("interchange_id","message_index","company_id","direction");--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("company_id","direction","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "documents_number_idx" ON "documents" USING btree ("company_id","direction","number" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "documents_partner_idx" ON "documents" USING btree ("company_id","direction","partner_id");--> statement-breakpoint
CREATE INDEX "documents_type_idx" ON "documents" USING btree ("company_id","direction","document_type");--> statement-breakpoint
CREATE INDEX "documents_status_idx" ON "documents" USING btree ("company_id","direction","status");--> statement-breakpoint
CREATE UNIQUE INDEX "interchanges_duplicate_key" ON "interchanges" USING btree ("company_id","direction","sender_id","control_reference");