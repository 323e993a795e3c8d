CREATE TABLE "ksef_submissions" (
	"document_id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"state" text NOT NULL,
	"session_reference" text,
	"element_reference" text,
	"token_reference" text,
	"invoice_hash" text,
	"ksef_number" text,
	"acquisition_date" timestamp with time zone,
	"upo" text,
	"error_code" integer,
	"error_details" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ksef_submissions" ADD CONSTRAINT "ksef_submissions_document_id_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ksef_submissions" ADD CONSTRAINT "ksef_submissions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ksef_submissions_company_idx" ON "ksef_submissions" USING btree ("company_id","created_at");