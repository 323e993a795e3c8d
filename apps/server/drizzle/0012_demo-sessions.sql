ALTER TABLE "documents" ADD COLUMN "session_id" uuid;--> statement-breakpoint
ALTER TABLE "interchanges" ADD COLUMN "session_id" uuid;--> statement-breakpoint
CREATE INDEX "documents_session_idx" ON "documents" USING btree ("session_id","direction","platform_timestamp" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "documents"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "interchanges_session_idx" ON "interchanges" USING btree ("session_id") WHERE "interchanges"."session_id" is not null;