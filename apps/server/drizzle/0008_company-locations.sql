CREATE TABLE "company_locations" (
	"gln" text PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"street" text,
	"postal_code" text,
	"city" text,
	"country" text,
	"code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_locations_kind_check" CHECK ("company_locations"."kind" in ('company', 'delivery_point')),
	CONSTRAINT "company_locations_gln_check" CHECK ("company_locations"."gln" ~ '^[0-9]{13}$')
);
--> statement-breakpoint
ALTER TABLE "company_locations" ADD CONSTRAINT "company_locations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "company_locations_company_kind_gln_idx" ON "company_locations" USING btree ("company_id","kind","gln");