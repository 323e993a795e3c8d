ALTER TABLE "documents" ADD COLUMN "ksef_number" text;--> statement-breakpoint
-- Backfill: outbox invoices KSeF accepted (their submission's number, same company), and received KSeF invoices
-- (their KSeF number is their reference number, decision 0039).
UPDATE "documents" AS d SET "ksef_number" = s."ksef_number"
  FROM "ksef_submissions" AS s
  WHERE s."document_id" = d."id" AND s."company_id" = d."company_id" AND s."state" = 'accepted'
    AND s."ksef_number" IS NOT NULL AND s."ksef_number" <> '';--> statement-breakpoint
UPDATE "documents" SET "ksef_number" = "reference_number"
  WHERE "standard" = 'ksef' AND "direction" = 'in' AND "reference_number" IS NOT NULL;
