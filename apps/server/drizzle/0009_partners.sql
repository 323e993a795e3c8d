CREATE TABLE "partners" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"gln" text NOT NULL,
	"linked_company_id" uuid,
	"name" text NOT NULL,
	"vat_id" text,
	"country" text,
	"contact_name" text,
	"contact_email" text,
	"contact_phone" text,
	"status" text DEFAULT 'active' NOT NULL,
	"test_mode" boolean DEFAULT false NOT NULL,
	"doc_types_in" text[] DEFAULT '{}'::text[] NOT NULL,
	"doc_types_out" text[] DEFAULT '{}'::text[] NOT NULL,
	"notifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_exchange_at" timestamp with time zone,
	CONSTRAINT "partners_status_check" CHECK ("partners"."status" in ('active', 'new', 'blocked'))
);
--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_linked_company_id_companies_id_fk" FOREIGN KEY ("linked_company_id") REFERENCES "public"."companies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partners_company_gln_key" ON "partners" USING btree ("company_id","gln");--> statement-breakpoint
CREATE INDEX "partners_company_name_idx" ON "partners" USING btree ("company_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "partners_linked_company_idx" ON "partners" USING btree ("linked_company_id");