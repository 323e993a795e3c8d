DROP INDEX "documents_business_date_idx";--> statement-breakpoint
DROP INDEX "documents_delivery_date_idx";--> statement-breakpoint
CREATE INDEX "documents_business_date_order_idx" ON "documents" USING btree ("company_id","direction","business_date","platform_timestamp","id") WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_delivery_date_order_idx" ON "documents" USING btree ("company_id","direction","expected_delivery_date","platform_timestamp","id") WHERE "documents"."session_id" is null;