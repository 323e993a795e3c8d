CREATE SEQUENCE "public"."interchange_control_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1000 CACHE 1;--> statement-breakpoint
CREATE TABLE "document_drafts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"created_by" uuid,
	"kind" text NOT NULL,
	"partner_id" uuid,
	"form" jsonb NOT NULL,
	"source_document_id" uuid,
	"state" text DEFAULT 'draft' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"control_reference" text,
	"sent_document_id" uuid,
	"session_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "document_drafts_state_check" CHECK ("document_drafts"."state" in ('draft', 'sent'))
);
--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "edifact_directory" text DEFAULT 'D96A' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "syntax_identifier" text DEFAULT 'UNOC' NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "una" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "document_drafts" ADD CONSTRAINT "document_drafts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_drafts" ADD CONSTRAINT "document_drafts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_drafts_company_idx" ON "document_drafts" USING btree ("company_id","state","updated_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "document_drafts_source_idx" ON "document_drafts" USING btree ("source_document_id") WHERE "document_drafts"."source_document_id" is not null;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_edifact_directory_check" CHECK ("partners"."edifact_directory" in ('D96A', 'D01B'));--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_syntax_identifier_check" CHECK ("partners"."syntax_identifier" in ('UNOA', 'UNOB', 'UNOC', 'UNOD'));