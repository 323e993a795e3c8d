DROP INDEX "documents_reference_idx";--> statement-breakpoint
DROP INDEX "documents_additional_status_idx";--> statement-breakpoint
DROP INDEX "documents_delivery_point_idx";--> statement-breakpoint
DROP INDEX "documents_buyer_tax_idx";--> statement-breakpoint
DROP INDEX "documents_seller_tax_idx";--> statement-breakpoint
CREATE INDEX "documents_reference_idx" ON "documents" USING btree ("company_id","direction","reference_number" text_pattern_ops,"platform_timestamp","id") WHERE "documents"."session_id" is null and "documents"."reference_number" is not null;--> statement-breakpoint
CREATE INDEX "documents_additional_status_idx" ON "documents" USING btree ("company_id","direction","additional_status","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null and "documents"."additional_status" is not null;--> statement-breakpoint
CREATE INDEX "documents_delivery_point_idx" ON "documents" USING btree ("company_id","direction","delivery_point_gln","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null and "documents"."delivery_point_gln" is not null;--> statement-breakpoint
CREATE INDEX "documents_buyer_tax_idx" ON "documents" USING btree ("company_id","direction","buyer_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null and "documents"."buyer_tax_id" is not null;--> statement-breakpoint
CREATE INDEX "documents_seller_tax_idx" ON "documents" USING btree ("company_id","direction","seller_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null and "documents"."seller_tax_id" is not null;