DROP INDEX "documents_number_idx";--> statement-breakpoint
DROP INDEX "documents_reference_idx";--> statement-breakpoint
CREATE INDEX "documents_number_idx" ON "documents" USING btree ("company_id","direction","number" text_pattern_ops,"platform_timestamp","id","session_id");--> statement-breakpoint
CREATE INDEX "documents_reference_idx" ON "documents" USING btree ("company_id","direction","reference_number" text_pattern_ops,"platform_timestamp","id") WHERE "documents"."session_id" is null;