CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"gtin" text,
	"supplier_article_number" text,
	"buyer_article_number" text,
	"description" text NOT NULL,
	"unit" text DEFAULT 'PCE' NOT NULL,
	"price" numeric(19, 4),
	"currency" text NOT NULL,
	"vat_rate" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_price_check" CHECK ("products"."price" is null or "products"."price" >= 0),
	CONSTRAINT "products_vat_rate_check" CHECK ("products"."vat_rate" is null or "products"."vat_rate" in ('zw', 'np') or "products"."vat_rate" ~ '^[0-9]{1,3}(\.[0-9]{1,2})?$')
);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "products_company_gtin_key" ON "products" USING btree ("company_id","gtin") WHERE "products"."gtin" is not null;--> statement-breakpoint
CREATE INDEX "products_company_description_idx" ON "products" USING btree ("company_id",lower("description"),"id");