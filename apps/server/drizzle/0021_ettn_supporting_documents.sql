CREATE TABLE "ettn_supporting_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"process_id" uuid NOT NULL,
	"company_id" uuid NOT NULL,
	"user_id" uuid,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"sha256" text NOT NULL,
	"blob_key" text NOT NULL,
	"attached_by" text NOT NULL,
	"signed_by" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ettn_supporting_documents" ADD CONSTRAINT "ettn_supporting_documents_process_id_ettn_registry_processes_id_fk" FOREIGN KEY ("process_id") REFERENCES "public"."ettn_registry_processes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_supporting_documents" ADD CONSTRAINT "ettn_supporting_documents_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ettn_supporting_documents" ADD CONSTRAINT "ettn_supporting_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ettn_supporting_documents_process_idx" ON "ettn_supporting_documents" USING btree ("process_id","created_at");