CREATE TABLE "interchange_keys" (
	"company_id" uuid NOT NULL,
	"direction" text NOT NULL,
	"sender_id" text NOT NULL,
	"control_reference" text NOT NULL,
	"interchange_id" uuid NOT NULL
);
--> statement-breakpoint
DROP INDEX "interchanges_duplicate_key";--> statement-breakpoint
ALTER TABLE "interchanges" ADD COLUMN "messages_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "interchange_keys" ADD CONSTRAINT "interchange_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interchange_keys" ADD CONSTRAINT "interchange_keys_interchange_id_interchanges_id_fk" FOREIGN KEY ("interchange_id") REFERENCES "public"."interchanges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interchange_keys_key" ON "interchange_keys" USING btree ("company_id","direction","sender_id","control_reference");--> statement-breakpoint
CREATE INDEX "interchange_keys_interchange_idx" ON "interchange_keys" USING btree ("interchange_id");--> statement-breakpoint
CREATE INDEX "interchanges_first_unb_idx" ON "interchanges" USING btree ("company_id","direction","sender_id","control_reference");