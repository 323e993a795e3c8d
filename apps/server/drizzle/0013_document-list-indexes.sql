DROP INDEX "documents_list_idx";--> statement-breakpoint
DROP INDEX "documents_partner_idx";--> statement-breakpoint
DROP INDEX "documents_type_idx";--> statement-breakpoint
DROP INDEX "documents_status_idx";--> statement-breakpoint
CREATE INDEX "documents_reference_idx" ON "documents" USING btree ("company_id","direction","reference_number" text_pattern_ops) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_kind_idx" ON "documents" USING btree ("company_id","direction","kind","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_additional_status_idx" ON "documents" USING btree ("company_id","direction","additional_status","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_delivery_point_idx" ON "documents" USING btree ("company_id","direction","delivery_point_gln","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_buyer_tax_idx" ON "documents" USING btree ("company_id","direction","buyer_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_seller_tax_idx" ON "documents" USING btree ("company_id","direction","seller_tax_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_business_date_idx" ON "documents" USING btree ("company_id","direction","business_date") WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_delivery_date_idx" ON "documents" USING btree ("company_id","direction","expected_delivery_date") WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_list_idx" ON "documents" USING btree ("company_id","direction","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_partner_idx" ON "documents" USING btree ("company_id","direction","partner_id","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_type_idx" ON "documents" USING btree ("company_id","direction","document_type","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;--> statement-breakpoint
CREATE INDEX "documents_status_idx" ON "documents" USING btree ("company_id","direction","status","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is null;