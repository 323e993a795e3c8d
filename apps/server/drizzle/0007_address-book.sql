CREATE TABLE "address_book_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"displayed_name" text,
	"gln" text,
	"person_type" text NOT NULL,
	"tax_id" text,
	"residence_type" text,
	"phone" text,
	"street" text,
	"postal_code" text,
	"city" text,
	"province" text,
	"account_number" text,
	"country" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_book_entries_person_type_check" CHECK ("address_book_entries"."person_type" in ('J', 'F')),
	CONSTRAINT "address_book_entries_residence_type_check" CHECK ("address_book_entries"."residence_type" is null or "address_book_entries"."residence_type" in ('E', 'R', 'U'))
);
--> statement-breakpoint
ALTER TABLE "address_book_entries" ADD CONSTRAINT "address_book_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_entries_company_gln_key" ON "address_book_entries" USING btree ("company_id","gln") WHERE "address_book_entries"."gln" is not null;--> statement-breakpoint
CREATE INDEX "address_book_entries_company_name_idx" ON "address_book_entries" USING btree ("company_id",lower("name"),"id");