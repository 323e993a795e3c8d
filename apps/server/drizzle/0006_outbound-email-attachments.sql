CREATE TABLE "outbound_email_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"filename" text NOT NULL,
	"content_type" text,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbound_email_attachments" ADD CONSTRAINT "outbound_email_attachments_email_id_outbound_emails_id_fk" FOREIGN KEY ("email_id") REFERENCES "public"."outbound_emails"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbound_email_attachments_email_idx" ON "outbound_email_attachments" USING btree ("email_id");